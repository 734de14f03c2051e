// FromDesyncReport: PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1), printed by a rank whose
// watchdog timed out, compares every rank's collective trace through the store and names "the
// lagging/dead/mismatched ranks that caused the desync": those that joined a collective but did
// not finish it, finished one but did not join the next, or never joined any. That is the
// framework's own comparison of all ranks, so it names the stuck rank better than the timeouts
// of the ranks that waited for it.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {

std::optional<RootCause> FromDesyncReport(const AttemptView& view) {
  std::set<int> blamed;
  std::vector<const Incident*> lines;
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kDesyncCulprit || i->rank < 0) continue;
    if (blamed.insert(i->rank).second) lines.push_back(i);
  }
  if (lines.empty()) return std::nullopt;
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = CauseClass::kStuckRank;
  rc.confidence = Confidence::kHigh;
  const Incident& lead = *lines.front();
  rc.what = lead.message;
  std::vector<std::string> said;
  for (const Incident* i : lines) said.push_back(fmt::format("rank {} {}", i->rank, i->message));
  rc.reasoning = fmt::format(
      "PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG), which compares every rank's "
      "collectives, names the lagging rank(s): {}; the ranks that timed out were waiting for it",
      fmt::join(said, "; "));
  for (int r : blamed) rc.culprits.push_back(view.CulpritOfRank(r));
  // The first timeout of the attempt dates the failure; the report's lines are the evidence.
  const Incident* timeout = nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kWatchdogTimeout) {
      timeout = i;
      break;
    }
  }
  const Incident& when = timeout != nullptr ? *timeout : lead;
  rc.time = when.time;
  rc.time_text = when.time_text;
  for (const Incident* i : lines) {
    rc.evidence.push_back(i->evidence);
    rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
  }
  if (timeout != nullptr) rc.evidence.push_back(timeout->evidence);
  return rc;
}

}  // namespace ncclscope::triage_internal
