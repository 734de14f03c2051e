// `ncclscope explain TEXT|RULE`: explains a pasted message, a rule or a message id, offline.
#include <iterator>
#include <string>

#include "ncclscope/cli/commands.h"
#include "ncclscope/rules/explain.h"

namespace ncclscope::cli {

int RunExplain(const ExplainCommandOptions& opts, std::istream& in, std::ostream& out,
               std::ostream& err) {
  std::vector<Explanation> explanations;
  if (opts.text.empty()) {
    // A paste on stdin: every known message in it, once each.
    std::string paste((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (paste.find_first_not_of(" \t\r\n") == std::string::npos) {
      err << "ncclscope explain: give a message, a rule id or a message id (or pipe a log "
             "excerpt on stdin)\n";
      return kExitUsage;
    }
    explanations = ExplainPaste(paste);
  } else {
    std::string text;
    for (const std::string& word : opts.text) {
      if (!text.empty()) text += ' ';
      text += word;
    }
    explanations.push_back(Explain(text));
  }
  if (opts.format == "json") {
    out << RenderExplanationJson(explanations);
  } else {
    for (size_t i = 0; i < explanations.size(); ++i) {
      if (i > 0) out << "\n----\n\n";
      out << RenderExplanationText(explanations[i]);
    }
  }
  for (const Explanation& e : explanations) {
    if (e.kind == Explanation::Kind::kUnknown) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace ncclscope::cli
