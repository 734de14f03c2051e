#include "silent_trail.h"

#include <fmt/format.h>

#include <vector>

#include "ncclscope/rules/job_messages.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

struct AreaText {
  std::string_view title;
  std::string_view story;  ///< What a failure starting there usually is.
};

AreaText TextOf(TrailArea area) {
  switch (area) {
    case TrailArea::kNetwork:
      return {"A network operation between ranks failed (only NCCL's return codes show it)",
              "a connection or a transfer to another rank failed: the peer was not reachable "
              "or went away, or the network plugin failed"};
    case TrailArea::kInfiniBand:
      return {"An InfiniBand operation failed (only NCCL's return codes show it)",
              "a verbs call or an IB transfer failed: device, port, memory registration or a "
              "completion error"};
    case TrailArea::kCuda:
      return {"A CUDA call inside NCCL failed (only NCCL's return codes show it)",
              "a CUDA call failed: the device, the driver or GPU memory"};
    case TrailArea::kShm:
      return {"A shared-memory operation failed (only NCCL's return codes show it)",
              "creating or mapping a /dev/shm segment failed"};
    case TrailArea::kNccl:
      break;
  }
  return {"An NCCL call failed (only NCCL's return codes show it)",
          "an NCCL call failed its own checks"};
}

}  // namespace

std::optional<Finding> SilentTrailFinding(const Rule& rule, const Job& job, TrailArea area) {
  for (const WarnRecord& w : job.warnings) {
    // The WARN says what failed; a proxy's operation report says only that something did.
    if (RuleOfWarning(w) != kBenignRule && !IsProxyOperationReport(w.message)) return std::nullopt;
  }
  std::vector<const ErrorTrailRecord*> trails;
  for (const ErrorTrailRecord* t : SilentFailingTrails(job)) {
    if (AreaOfTrail(t->location, t->code) == area) trails.push_back(t);
  }
  if (trails.empty()) return std::nullopt;
  const ErrorTrailRecord& first = *trails.front();
  const AreaText text = TextOf(area);
  Finding f = NewFinding(rule);
  f.title = std::string(text.title);
  for (const ErrorTrailRecord* t : trails) {
    AddProcess(job, t->process, &f);
    AddEvidence(&f, t->evidence);
  }
  f.message = fmt::format(
      "NCCL's return-code trail on {} starts at \"{} -> {}\" ({} = {}: {}), in NCCL's {} code: "
      "{}. NCCL prints a WARN saying what failed just before such a trail; it is not in the "
      "input. Look at the lines before this excerpt, or rerun with NCCL_DEBUG=WARN (or INFO).",
      ProcessLabel(job, first.process), first.location, first.code, first.code,
      NcclResultName(first.code), NcclResultMeaning(first.code), TrailAreaName(area), text.story);
  if (trails.size() > 1) {
    f.message += fmt::format(" {} processes have such a trail.", trails.size());
  }
  // A network failure may be the peer's doing; elsewhere the process itself failed.
  if (area != TrailArea::kNetwork) f.suspect_hosts = f.hosts;
  return f;
}

}  // namespace ncclscope::rules_internal
