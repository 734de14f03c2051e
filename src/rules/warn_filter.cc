#include "ncclscope/rules/warn_filter.h"

#include "warn_matchers.h"

namespace ncclscope {

bool IsErrorWarning(const WarnRecord& w) { return !rules_internal::IsBenignWarning(w); }

}  // namespace ncclscope
