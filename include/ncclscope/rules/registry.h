// The registry: every rule, in report order. Adding a rule = one file + one line in registry.cc.
#ifndef NCCLSCOPE_RULES_REGISTRY_H_
#define NCCLSCOPE_RULES_REGISTRY_H_

#include <memory>
#include <string_view>
#include <vector>

#include "ncclscope/rules/rule.h"

namespace ncclscope {

/// All rules, constructed once; order is the order findings are reported in.
const std::vector<std::unique_ptr<Rule>>& AllRules();
/// The rule with this id, or nullptr.
const Rule* FindRule(std::string_view id);

/// Sorts findings by severity (errors first), then registry order (stable otherwise).
void SortFindings(std::vector<Finding>* findings);

/// Runs every rule over the job and returns the findings sorted by severity (errors first),
/// then registry order.
std::vector<Finding> RunRules(const Job& job, const RuleOptions& options);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_REGISTRY_H_
