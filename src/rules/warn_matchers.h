// Which rule reports a warning, as predicates for the rules that read warnings. Every warning
// belongs to exactly one rule (RuleOfWarning, job_messages.h: the knowledge table first, then a
// fallback by category); `nccl-warn` reports the ones no other rule claims.
#ifndef NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_
#define NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_

#include "ncclscope/model/job.h"

namespace ncclscope::rules_internal {

/// Known-harmless probing noise (dlvsym on mlx5dv, libibverbs missing on hosts without IB,
/// optional plugins not found). Reported by no rule, deliberately.
bool IsBenignWarning(const WarnRecord& w);
/// net-plugin-failed: plugin/network initialisation failures.
bool IsNetPluginWarning(const WarnRecord& w);
/// True if a rule other than nccl-warn explains the warning (or it is benign).
bool IsExplainedWarning(const WarnRecord& w);

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_
