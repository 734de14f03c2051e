// FromDesyncReport: PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1), printed by a rank whose
// watchdog timed out, compares every rank's collective trace through the store and names "the
// lagging/dead/mismatched ranks that caused the desync": those that joined a collective but did
// not finish it, finished one but did not join the next, or never joined any. That is the
// framework's own comparison of all ranks, so it names the stuck rank better than the timeouts
// of the ranks that waited for it. Horovod's stall inspector is the same comparison (the
// coordinator lists the ranks that did not submit a tensor the others submitted), printed as a
// warning while the job waits: a rank that is only slow is listed until it catches up, so its
// answer is medium.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {

namespace {

bool IsJoinedNotFinished(const Incident& i) { return i.type == kDesyncJoinedNotFinished; }

}  // namespace

std::optional<RootCause> FromDesyncReport(const AttemptView& view) {
  // The ranks whose watchdog timed out: the report's authors.
  std::set<int> reporters;
  const Incident* timeout = nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kWatchdogTimeout) continue;
    if (timeout == nullptr) timeout = i;
    if (i->rank >= 0) reporters.insert(i->rank);
  }
  // "joined but didn't finish collective #N" lists the ranks whose last state is the oldest
  // collective started; when the rank that timed out in it is one of them, every rank compared
  // sits in that collective and none lags: the report names no culprit then.
  std::set<int64_t> stalled_seqs;
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kDesyncCulprit && IsJoinedNotFinished(*i) &&
        reporters.count(i->rank) > 0) {
      stalled_seqs.insert(i->seq);
    }
  }
  std::set<int> blamed, stalled;
  std::vector<const Incident*> lines, stalled_lines;
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kDesyncCulprit || i->rank < 0) continue;
    if (IsJoinedNotFinished(*i) && stalled_seqs.count(i->seq) > 0) {
      if (stalled.insert(i->rank).second) stalled_lines.push_back(i);
      continue;
    }
    if (blamed.insert(i->rank).second) lines.push_back(i);
  }
  if (lines.empty() && stalled_lines.empty()) return std::nullopt;
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  if (lines.empty()) {
    const Incident& lead = *stalled_lines.front();
    rc.cls = CauseClass::kTimeoutUnknown;
    rc.confidence = Confidence::kMedium;
    rc.what = fmt::format("every rank compared is stuck in collective #{}", lead.seq);
    rc.reasoning = fmt::format(
        "PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG) lists rank(s) {}, the reporting "
        "rank(s) {} among them, as having joined collective #{} without finishing it: no rank "
        "lagged or skipped it, so the collective itself made no progress (a network or "
        "transport stall between the ranks, or a GPU that stopped), not one rank",
        RankRanges(std::vector<int>(stalled.begin(), stalled.end())),
        RankRanges(std::vector<int>(reporters.begin(), reporters.end())), lead.seq);
    const Incident& when = timeout != nullptr ? *timeout : lead;
    rc.time = when.time;
    rc.time_text = when.time_text;
    rc.evidence.push_back(lead.evidence);
    rc.cause_lines.push_back({lead.evidence.source, lead.evidence.line});
    if (timeout != nullptr) rc.evidence.push_back(timeout->evidence);
    return rc;
  }
  rc.cls = CauseClass::kStuckRank;
  rc.confidence = Confidence::kHigh;
  const Incident& lead = *lines.front();
  const bool horovod = std::all_of(lines.begin(), lines.end(),
                                   [](const Incident* i) { return i->type == kStallMissingRank; });
  rc.what = lead.message;
  // One line of the report names several ranks: grouped back by what it says of them.
  std::vector<std::pair<std::string, std::vector<int>>> by_message;
  for (const Incident* i : lines) {
    auto it = std::find_if(by_message.begin(), by_message.end(),
                           [&](const auto& m) { return m.first == i->message; });
    if (it == by_message.end()) it = by_message.insert(by_message.end(), {i->message.str(), {}});
    it->second.push_back(i->rank);
  }
  std::vector<std::string> said;
  for (const auto& [message, ranks] : by_message) {
    said.push_back(fmt::format("{} {} {}", ranks.size() == 1 ? "rank" : "ranks",
                               RankRanges(ranks), message));
  }
  if (horovod) {
    rc.confidence = Confidence::kMedium;
    rc.reasoning = fmt::format(
        "Horovod's stall inspector, which compares the tensors every rank submitted, reports: "
        "{}; the other ranks wait for it (a rank that is only slow, in a checkpoint or an "
        "uneven data loader, is listed too until it catches up)",
        fmt::join(said, "; "));
  } else {
    rc.reasoning = fmt::format(
        "PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG), which compares every rank's "
        "collectives, names the lagging rank(s): {}; the ranks that timed out were waiting for "
        "it",
        fmt::join(said, "; "));
  }
  for (int r : blamed) rc.culprits.push_back(view.CulpritOfRank(r));
  // The first timeout of the attempt dates the failure; the report's lines are the evidence.
  const Incident& when = timeout != nullptr ? *timeout : lead;
  rc.time = when.time;
  rc.time_text = when.time_text;
  for (const Incident* i : lines) {
    const bool seen = std::any_of(rc.evidence.begin(), rc.evidence.end(), [&](const Evidence& e) {
      return e.source == i->evidence.source && e.line == i->evidence.line;
    });
    if (seen) continue;
    rc.evidence.push_back(i->evidence);
    rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
  }
  if (timeout != nullptr) rc.evidence.push_back(timeout->evidence);
  return rc;
}

}  // namespace ncclscope::triage_internal
