// FromErrorTrails: when no line of the attempt reports an error in words, a failed NCCL call
// shown only by its return-code trail (`include/net.h:25 -> 2`) is the failure: the process
// that printed the first failing line, the class its starting point implies, low confidence.
// RefineByTrails: the same starting point classes a failure that only says "unhandled system
// error".
#include <fmt/format.h>

#include <optional>

#include "ncclscope/rules/error_trail.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

constexpr int kNcclSystemErrorCode = 2;  ///< ncclSystemError

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

/// Where a trail started, when `first` (the first failing line) is a frame that only passes the
/// code on (group.cc, init.cc: the excerpt began mid-trail): the first line with a specific area
/// of the same process, else of another process of the attempt that failed with the same code
/// (their trails started in the same place: eight ranks' bootstrap failing alike).
const ErrorTrailRecord* OriginOf(const AttemptView& view,
                                 const std::vector<const ErrorTrailRecord*>& trails,
                                 const ErrorTrailRecord* first) {
  if (AreaOfTrail(first->location, first->code) != TrailArea::kNccl) return first;
  const Job& job = *view.job;
  const ErrorTrailRecord* other = nullptr;
  for (const ErrorTrailRecord* t : trails) {
    if (t->code != first->code || AreaOfTrail(t->location, t->code) == TrailArea::kNccl) continue;
    if (t->process == first->process) return t;
    if (other == nullptr && t->process >= 0 &&
        static_cast<size_t>(t->process) < job.processes.size() &&
        InAttempt(view, job.processes[t->process])) {
      other = t;
    }
  }
  return other != nullptr ? other : first;
}

/// Whether an NCCL error's words say only that a system call failed ("unhandled system error"),
/// not which. (An internal error, code 3, is NCCL's own logic failing, wherever it was seen.)
bool IsSystemErrorText(std::string_view text) {
  return text.find("unhandled system error") != std::string_view::npos ||
         text.find("ncclSystemError") != std::string_view::npos;
}

}  // namespace

void RefineByTrails(const AttemptView& view, std::vector<RankFailure>* failures) {
  const Job& job = *view.job;
  // The trails are read only for a failure that needs them (once per attempt otherwise, for
  // jobs restarted hundreds of times).
  std::optional<std::vector<const ErrorTrailRecord*>> silent;
  for (RankFailure& f : *failures) {
    if (f.cls != CauseClass::kNcclError || f.first == nullptr || f.host.empty()) continue;
    bool generic = false;
    for (const Incident* i : f.lines) {
      if (i->kind == IncidentKind::kNcclError && IsSystemErrorText(i->message) &&
          (i->detail.empty() || IsSystemErrorText(i->detail))) {
        generic = true;
      }
    }
    if (!generic) continue;
    if (!silent) silent = SilentFailingTrails(job);
    const std::vector<const ErrorTrailRecord*>& trails = *silent;
    // The failing process's own silent trail: by pid, else the only process of its host with one.
    const ErrorTrailRecord* mine = nullptr;
    int on_host = 0;
    for (const ErrorTrailRecord* t : trails) {
      if (t->process < 0 || static_cast<size_t>(t->process) >= job.processes.size()) continue;
      const Process& p = job.processes[t->process];
      if (p.hostname != f.host || !InAttempt(view, p)) continue;
      ++on_host;
      if (f.pid > 0 && p.pid == f.pid) mine = t;
      if (f.pid <= 0 && mine == nullptr) mine = t;
    }
    if (mine == nullptr || (f.pid <= 0 && on_host != 1)) continue;
    const ErrorTrailRecord* origin = OriginOf(view, trails, mine);
    const TrailArea area = AreaOfTrail(origin->location, origin->code);
    if (origin->code != kNcclSystemErrorCode || ClassOfArea(area) != CauseClass::kNetwork) continue;
    f.cls = CauseClass::kNetwork;
    f.detail = fmt::format("its return-code trail starts in NCCL's {} code: {} -> {}",
                           TrailAreaName(area), origin->location, origin->code);
  }
}

std::optional<RootCause> FromErrorTrails(const AttemptView& view) {
  const Job& job = *view.job;
  const std::vector<const ErrorTrailRecord*> trails = SilentFailingTrails(job);
  for (const ErrorTrailRecord* t : trails) {
    if (t->process < 0 || static_cast<size_t>(t->process) >= job.processes.size()) continue;
    const Process& p = job.processes[t->process];
    if (!InAttempt(view, p)) continue;
    const ErrorTrailRecord* origin = OriginOf(view, trails, t);
    const TrailArea area = AreaOfTrail(origin->location, origin->code);
    RootCause rc;
    rc.attempt = view.attempt;
    rc.job_failed = true;
    rc.cls = ClassOfArea(area);
    rc.confidence = Confidence::kLow;
    Culprit c{p.global_rank, p.headless && p.hostname.starts_with('?') ? "" : p.hostname,
              p.headless ? -1 : static_cast<int64_t>(p.pid)};
    rc.culprits.push_back(c);
    rc.what = origin->process == t->process
                  ? fmt::format("failed an NCCL call with {} in NCCL's {} code ({} -> {}); no "
                                "WARN in the input says why",
                                NcclResultName(t->code), TrailAreaName(area), origin->location,
                                origin->code)
                  : fmt::format("failed an NCCL call with {} ({} -> {}), where the processes that "
                                "failed alike started in NCCL's {} code ({} -> {}); no WARN in "
                                "the input says why",
                                NcclResultName(t->code), t->location, t->code,
                                TrailAreaName(area), origin->location, origin->code);
    rc.evidence.push_back(t->evidence);
    rc.cause_lines.push_back({t->evidence.source, t->evidence.line});
    if (origin != t) {
      rc.evidence.push_back(origin->evidence);
      rc.cause_lines.push_back({origin->evidence.source, origin->evidence.line});
    }
    rc.time_text = t->evidence.time;
    rc.reasoning = fmt::format(
        "{}'s return-code trail starts at \"{} -> {}\" ({}: {}), in NCCL's {} code, and no line "
        "of the input says what failed (the WARN NCCL prints just before such a trail is not in "
        "it): the class follows from where the trail starts, hence low confidence",
        CulpritText(c), t->location, t->code, NcclResultName(t->code),
        NcclResultMeaning(t->code), TrailAreaName(area));
    if (origin != t) {
      rc.reasoning += fmt::format(
          " (its first line in the input, \"{}\", only passes the code on: the excerpt began "
          "mid-trail; \"{} -> {}\"{} names where such a failure starts)",
          t->location, origin->location, origin->code,
          origin->process == t->process ? "" : ", of a process that failed the same way,");
    }
    return rc;
  }
  return std::nullopt;
}

}  // namespace ncclscope::triage_internal
