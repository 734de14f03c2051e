// `ncclscope rules [--format text|json]`: the rule list.
#include "ncclscope/cli/commands.h"
#include "ncclscope/rules/rule_list.h"

namespace ncclscope::cli {

int RunRulesList(const RulesCommandOptions& opts, std::ostream& out, std::ostream& err) {
  if (opts.format == "json") {
    out << RenderRuleListJson();
  } else if (opts.format == "text") {
    out << RenderRuleListText();
  } else if (opts.format == "markdown") {
    out << RenderRuleListMarkdown();
  } else {
    err << "ncclscope rules: unknown --format '" << opts.format
        << "' (expected text, json or markdown)\n";
    return 2;
  }
  return 0;
}

}  // namespace ncclscope::cli
