// `ncclscope rules [--format text|json]`: the rule list.
#include "ncclscope/cli/commands.h"
#include "ncclscope/rules/rule_list.h"

namespace ncclscope::cli {

int RunRulesList(const RulesCommandOptions& opts, std::ostream& out, std::ostream& err) {
  if (opts.format == "json") {
    out << RenderRuleListJson();
  } else if (opts.format == "text") {
    out << RenderRuleListText();
  } else {
    err << "ncclscope rules: unknown --format '" << opts.format << "' (expected text or json)\n";
    return 2;
  }
  return 0;
}

}  // namespace ncclscope::cli
