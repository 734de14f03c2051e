// Marks the findings that are consequences of the root cause (Finding::caused_by), so that
// reports and CI annotations lead with the cause and list the rest as its fallout.
#ifndef NCCLSCOPE_TRIAGE_FALLOUT_H_
#define NCCLSCOPE_TRIAGE_FALLOUT_H_

#include <string>
#include <vector>

#include "ncclscope/rules/finding.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

/// "rank 1 process-killed": how findings name the cause they follow from; "" for no cause.
std::string CauseLabel(const RootCause& cause);

/// Sets caused_by on the findings that are symptoms of `report.cause` (timeouts, hang, peer-gone
/// and framework errors, incomplete init, NCCL warnings) unless their evidence is the cause's own.
void MarkFallout(const RootCauseReport& report, std::vector<Finding>* findings);

}  // namespace ncclscope

#endif  // NCCLSCOPE_TRIAGE_FALLOUT_H_
