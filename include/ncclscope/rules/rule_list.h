// Rendering of the rule list for `ncclscope rules [--format json]`.
#ifndef NCCLSCOPE_RULES_RULE_LIST_H_
#define NCCLSCOPE_RULES_RULE_LIST_H_

#include <string>

namespace ncclscope {

/// Per rule: "<id>  <severity>  <title>" (aligned), its fix, then each message of the knowledge
/// table it reports (id, severity, title, meaning, fix); newline-terminated.
std::string RenderRuleListText();
/// `[{"id":..,"severity":..,"title":..,"fix":..,"messages":[{"id","family","severity","title",
/// "meaning","causes","fix","versions","patterns","examples"}]}, ...]` in registry order.
std::string RenderRuleListJson();
/// The "Messages each rule reads" section of docs/rules.md: every rule's knowledge entries with
/// severity, title, meaning, fix and patterns, then the known-harmless messages.
std::string RenderRuleListMarkdown();

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_RULE_LIST_H_
