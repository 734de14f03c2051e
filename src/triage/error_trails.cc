// FromErrorTrails: when no line of the attempt reports an error in words, a failed NCCL call
// shown only by its return-code trail (`include/net.h:25 -> 2`) is the failure: the process
// that printed the first failing line, the class its starting point implies, low confidence.
#include <fmt/format.h>

#include "ncclscope/rules/error_trail.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// Whether the trail's process is one of the attempt's (any process when the job was never
/// restarted: an excerpt may show no line that makes a process instance).
bool InAttempt(const AttemptView& view, const Process& p) {
  for (const ProcessInstance* i : view.processes) {
    if (i->host == p.hostname && i->pid == p.pid) return true;
  }
  return view.job->incidents.attempts.size() <= 1;
}

CauseClass ClassOfArea(TrailArea area) {
  return area == TrailArea::kNetwork || area == TrailArea::kInfiniBand ? CauseClass::kNetwork
                                                                       : CauseClass::kNcclError;
}

}  // namespace

std::optional<RootCause> FromErrorTrails(const AttemptView& view) {
  const Job& job = *view.job;
  for (const ErrorTrailRecord* t : SilentFailingTrails(job)) {
    if (t->process < 0 || static_cast<size_t>(t->process) >= job.processes.size()) continue;
    const Process& p = job.processes[t->process];
    if (!InAttempt(view, p)) continue;
    const TrailArea area = AreaOfTrail(t->location, t->code);
    RootCause rc;
    rc.attempt = view.attempt;
    rc.job_failed = true;
    rc.cls = ClassOfArea(area);
    rc.confidence = Confidence::kLow;
    Culprit c{p.global_rank, p.headless && p.hostname.starts_with('?') ? "" : p.hostname,
              p.headless ? -1 : static_cast<int64_t>(p.pid)};
    rc.culprits.push_back(c);
    rc.what = fmt::format("failed an NCCL call with {} in NCCL's {} code ({} -> {}); no WARN in "
                          "the input says why",
                          NcclResultName(t->code), TrailAreaName(area), t->location, t->code);
    rc.evidence.push_back(t->evidence);
    rc.cause_lines.push_back({t->evidence.source, t->evidence.line});
    rc.time_text = t->evidence.time;
    rc.reasoning = fmt::format(
        "{}'s return-code trail starts at \"{} -> {}\" ({}: {}), in NCCL's {} code, and no line "
        "of the input says what failed (the WARN NCCL prints just before such a trail is not in "
        "it): the class follows from where the trail starts, hence low confidence",
        CulpritText(c), t->location, t->code, NcclResultName(t->code),
        NcclResultMeaning(t->code), TrailAreaName(area));
    return rc;
  }
  return std::nullopt;
}

}  // namespace ncclscope::triage_internal
