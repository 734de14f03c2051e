// Which NCCL warnings are errors worth a place on the timeline (not known-harmless probing).
#ifndef NCCLSCOPE_RULES_WARN_FILTER_H_
#define NCCLSCOPE_RULES_WARN_FILTER_H_

#include "ncclscope/model/job.h"

namespace ncclscope {

/// False for the known-harmless probing warnings the rules ignore (dlvsym, missing libibverbs,
/// optional plugins not found); true otherwise.
bool IsErrorWarning(const WarnRecord& w);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_WARN_FILTER_H_
