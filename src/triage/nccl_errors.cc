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

/// The class of an NCCL WARN, or of an NCCL error raised in Python (its "Last error:" detail).
CauseClass ClassOfNcclIncident(const Incident& i) {
  return i.kind == IncidentKind::kNcclError ? ClassOfRaisedNcclError(i) : ClassOfErrorText(i.message);
}

}  // namespace

std::optional<RootCause> FromNcclErrors(const AttemptView& view) {
  const Incident* first = nullptr;
  const Incident* first_cascade = nullptr;
  const Incident* first_local = nullptr;  ///< First error of a rank's own resources.
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kNcclWarn && i->kind != IncidentKind::kNcclError) continue;
    if (i->cascade || i->message.find("communicator was aborted") != std::string::npos) {
      if (first_cascade == nullptr) first_cascade = i;
      continue;
    }
    if (first == nullptr) first = i;
    if (first_local == nullptr && ClassOfNcclIncident(*i) != CauseClass::kNetwork) {
      first_local = i;
    }
  }
  // A rank's own failure (GPU memory, /dev/shm, CUDA) makes its peers' sockets fail: when the
  // lines carry no times to order them, or the local error came soon after, it is the cause.
  if (first != nullptr && first_local != nullptr && first != first_local &&
      ClassOfNcclIncident(*first) == CauseClass::kNetwork) {
    const bool unordered = !(first->time && first_local->time) ||
                           (first->time_inherited && first_local->time_inherited);
    const bool soon = first->time && first_local->time &&
                      *first_local->time - *first->time <= int64_t{60} * 1000000000;
    if (unordered || soon) first = first_local;
  }
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  if (first != nullptr) {
    rc.cls = ClassOfNcclIncident(*first);
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
    if (!first->detail.empty()) {
      rc.what += fmt::format(" — Last error: {}", first->detail);
      if (first->detail_evidence.line != first->evidence.line) {
        rc.evidence.push_back(first->detail_evidence);
        rc.cause_lines.push_back({first->detail_evidence.source, first->detail_evidence.line});
      }
    }
    rc.time = first->time;
    rc.time_text = first->time_text;
    rc.reasoning = fmt::format("{} reported the first NCCL error that is not a consequence of "
                               "a peer going away: \"{}\"",
                               RankText(c.rank, c.host, c.pid),
                               first->detail.empty() ? first->message : first->detail);
    return rc;
  }
  if (first_cascade == nullptr) return std::nullopt;
  // A peer that closed its sockets (FIN: "Connection closed by remote peer", "remote process
  // exited", EPIPE) ended; a reset, a timeout or an unreachable peer points at the network.
  bool network = false;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) && i->cascade) {
      for (std::string_view k : {"reset by peer", "Connection reset", "timed out", "No route to host",
                                 "unreachable"}) {
        network = network || i->message.find(k) != std::string::npos;
      }
    }
  }
  rc.cls = network ? CauseClass::kNetwork : CauseClass::kProcessKilled;
  rc.confidence = Confidence::kLow;
  std::string peer;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) &&
        i->cascade) {
      if (peer.empty()) peer = PeerOf(i->message);
      if (rc.evidence.size() < 3) {
        rc.evidence.push_back(i->evidence);
        rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
      }
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
  } else if (peer.empty() && view.world == 2 && first_cascade->rank >= 0) {
    // Two ranks: the peer is the other one.
    c.rank = 1 - first_cascade->rank;
    if (const ProcessInstance* p = view.ProcessOfRank(c.rank)) {
      c.host = p->host;
      c.pid = p->pid;
    }
  }
  rc.culprits.push_back(c);
  rc.time = first_cascade->time;
  rc.time_text = first_cascade->time_text;
  if (network) {
    rc.what = "dropped the connection (reset or timed out) without an error of its own in the "
              "input";
    rc.reasoning = fmt::format(
        "{} saw its connection to its peer{} reset or time out (\"{}\") and no process in the "
        "input reports an error of its own: the network between them failed, or the peer died "
        "abruptly — check the NICs/switches (IB port state, counters) and the peer's own log",
        RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
        peer.empty() ? std::string() : " " + peer, first_cascade->message);
  } else {
    rc.what = "went away (exited, was killed, crashed or lost its node) without an error of its "
              "own in the input";
    rc.reasoning = fmt::format(
        "{} reported that its peer{} went away (\"{}\") and no process in the input reports an "
        "error of its own: the peer's process ended first, killed or crashed (the input does "
        "not say which, hence process-killed with low confidence) — look at its own log, the "
        "scheduler's and the kernel's (OOM killer) for why",
        RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
        peer.empty() ? std::string() : " " + peer, first_cascade->message);
  }
  return rc;
}

}  // namespace ncclscope::triage_internal
