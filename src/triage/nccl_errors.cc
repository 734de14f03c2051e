// FromNcclErrors: when no process died of its own, the first NCCL error that is not a peer-gone
// message names the cause; when only peer-gone messages exist ("remote process exited",
// "Connection closed by remote peer HOST"), the peer they name went away first.
#include <fmt/format.h>

#include <set>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// "socketProgress: Connection closed by remote peer ip-172-31-45-209.ec2.internal<32926>"
/// → "ip-172-31-45-209.ec2.internal".
std::string PeerOf(const std::string& message) {
  static constexpr std::string_view kKeys[] = {"remote peer ", "connect to ", "peer "};
  for (std::string_view k : kKeys) {
    const size_t p = message.find(k);
    if (p == std::string::npos) continue;
    std::string rest = message.substr(p + k.size());
    const size_t end = rest.find_first_of("< ,:");
    rest = rest.substr(0, end);
    if (!rest.empty()) return rest;
  }
  return {};
}

}  // namespace

std::optional<RootCause> FromNcclErrors(const AttemptView& view) {
  const Incident* first = nullptr;
  const Incident* first_cascade = nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kNcclWarn && i->kind != IncidentKind::kNcclError) continue;
    if (i->cascade || i->message.find("communicator was aborted") != std::string::npos) {
      if (first_cascade == nullptr) first_cascade = i;
      continue;
    }
    if (first == nullptr) first = i;
  }
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  if (first != nullptr) {
    rc.cls = ClassOfErrorText(first->message);
    rc.confidence = Confidence::kMedium;
    std::set<int> ranks;
    for (const Incident* i : view.incidents) {
      if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) &&
          !i->cascade && i->message == first->message) {
        rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
      }
    }
    Culprit c{first->rank, first->host, first->pid};
    rc.culprits.push_back(c);
    rc.what = fmt::format("NCCL error: {}", first->message);
    rc.evidence.push_back(first->evidence);
    rc.time = first->time;
    rc.time_text = first->time_text;
    rc.reasoning = fmt::format("{} reported the first NCCL error that is not a consequence of "
                               "a peer going away: \"{}\"",
                               RankText(c.rank, c.host, c.pid), first->message);
    return rc;
  }
  if (first_cascade == nullptr) return std::nullopt;
  rc.cls = CauseClass::kProcessKilled;
  rc.confidence = Confidence::kLow;
  std::string peer;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) &&
        i->cascade) {
      if (peer.empty()) peer = PeerOf(i->message);
      if (rc.evidence.size() < 3) rc.evidence.push_back(i->evidence);
    }
  }
  Culprit c;
  c.host = peer;
  // A host that only one process of the attempt runs on names its rank.
  const ProcessInstance* only = nullptr;
  int n = 0;
  for (const ProcessInstance* p : view.processes) {
    if (!peer.empty() && p->host == peer) {
      only = p;
      ++n;
    }
  }
  if (n == 1) {
    c.rank = only->rank;
    c.pid = only->pid;
  }
  rc.culprits.push_back(c);
  rc.time = first_cascade->time;
  rc.time_text = first_cascade->time_text;
  rc.what = "went away (exited, was killed or lost its node) without an error of its own in "
            "the input";
  rc.reasoning = fmt::format(
      "{} reported that its peer{} went away (\"{}\") and no process in the input reports an "
      "error of its own: the peer's process ended first — look at its own log, the scheduler's "
      "and the kernel's (OOM killer) for why",
      RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
      peer.empty() ? std::string() : " " + peer, first_cascade->message);
  return rc;
}

}  // namespace ncclscope::triage_internal
