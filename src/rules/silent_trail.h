// A failure that only NCCL's return-code trail shows (no WARN in the input): the finding of the
// rule whose family the trail's first line names. Shared by connection-error, ib-error,
// cuda-error, shm-failure and nccl-error.
#ifndef NCCLSCOPE_SRC_RULES_SILENT_TRAIL_H_
#define NCCLSCOPE_SRC_RULES_SILENT_TRAIL_H_

#include <optional>

#include "ncclscope/model/job.h"
#include "ncclscope/rules/error_trail.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/rule.h"

namespace ncclscope::rules_internal {

/// When no warning of the job names a problem (known-harmless probes aside) and the first
/// failing trail line of some process starts in `area`: a finding of `rule` that names that
/// line, its ncclResult_t and what it means, and the process; nullopt otherwise.
std::optional<Finding> SilentTrailFinding(const Rule& rule, const Job& job, TrailArea area);

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_SILENT_TRAIL_H_
