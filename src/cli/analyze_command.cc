// `ncclscope analyze`: run the pipeline, then write the report and exit code (ReportAnalysis).
#include "ncclscope/analysis/analyze.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/report/report.h"

namespace ncclscope::cli {

int RunAnalyze(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err) {
  if (!FindReportFormat(opts.format)) {
    err << "ncclscope: unknown format '" << opts.format << "'\n";
    return kExitUsage;
  }
  AnalyzeOptions aopts;
  Policy policy;
  Status s = MakeAnalyzeOptions(opts, &aopts, &policy);
  AnalysisResult result;
  if (s.ok()) s = Analyze(aopts, &result);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return ReportAnalysis(opts, policy, &result, out, err);
}

}  // namespace ncclscope::cli
