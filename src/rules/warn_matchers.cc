#include "warn_matchers.h"

#include "ncclscope/rules/job_messages.h"
#include "ncclscope/rules/knowledge.h"

namespace ncclscope::rules_internal {

bool IsBenignWarning(const WarnRecord& w) { return RuleOfWarning(w) == kBenignRule; }

bool IsNetPluginWarning(const WarnRecord& w) { return RuleOfWarning(w) == "net-plugin-failed"; }

bool IsExplainedWarning(const WarnRecord& w) { return RuleOfWarning(w) != kUnclaimedWarningRule; }

}  // namespace ncclscope::rules_internal
