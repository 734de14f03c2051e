// Rendering of the rule list for `ncclscope rules [--format json]`.
#ifndef NCCLSCOPE_RULES_RULE_LIST_H_
#define NCCLSCOPE_RULES_RULE_LIST_H_

#include <string>

namespace ncclscope {

/// One line per rule: "<id>  <severity>  <title>", aligned, newline-terminated.
std::string RenderRuleListText();
/// `[{"id":..,"severity":..,"title":..,"fix":..}, ...]` in registry order, newline-terminated.
std::string RenderRuleListJson();

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_RULE_LIST_H_
