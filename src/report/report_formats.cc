// The table of report formats: adding a format = one writer file + one line here.
#include "ncclscope/report/dot_report.h"
#include "ncclscope/report/github_report.h"
#include "ncclscope/report/html_report.h"
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/junit_report.h"
#include "ncclscope/report/markdown_report.h"
#include "ncclscope/report/mermaid_report.h"
#include "ncclscope/report/report.h"
#include "ncclscope/report/sarif_report.h"
#include "ncclscope/report/text_report.h"

namespace ncclscope {

std::string EvidenceLine(const Job& job, const Evidence& e) {
  return std::string(job.SourceName(e.source)) + ":" + std::to_string(e.line) + ": " + e.text;
}

const RootCauseReport& RootCauseOf(const ReportInput& input, RootCauseReport* storage) {
  if (input.root_cause != nullptr) return *input.root_cause;
  *storage = AnalyzeRootCause(input.job);
  return *storage;
}

const std::vector<ReportFormat>& ReportFormats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "human-readable summary (default)", WriteTextReport},
      {"json", "stable machine-readable report, schema in docs/json-output.md", WriteJsonReport},
      {"junit", "JUnit XML test report for CI (one test case per rule)", WriteJunitReport},
      {"github", "GitHub Actions annotations (::error/::warning/::notice)", WriteGithubReport},
      {"markdown", "Markdown summary for a PR comment or $GITHUB_STEP_SUMMARY",
       WriteMarkdownReport},
      {"dot", "Graphviz link graph of the largest communicator", WriteDotReport},
      {"mermaid", "Mermaid flowchart of the largest communicator's link graph", WriteMermaidReport},
      {"html", "self-contained HTML page: findings, class matrices, link graph", WriteHtmlReport},
      {"sarif", "SARIF 2.1.0 log for GitHub code scanning and other SARIF viewers",
       WriteSarifReport},
  };
  return formats;
}

const ReportFormat* FindReportFormat(std::string_view name) {
  for (const auto& f : ReportFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace ncclscope
