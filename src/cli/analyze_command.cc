// `ncclscope analyze`: run the pipeline, then write the report and exit code (ReportAnalysis).
#include <unistd.h>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/progress.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
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
  // Progress bar for large files, only on a terminal and never with --quiet.
  ProgressMeter meter(&err, SteadySeconds);
  if (!opts.quiet && IsTerminal(err)) {
    aopts.progress = [&meter](const std::string& name, uint64_t done, int64_t total) {
      meter.Update(name, done, total);
    };
  }
  const bool reads_stdin =
      opts.inputs.empty() || (opts.inputs.size() == 1 && opts.inputs[0] == "-");
  if (reads_stdin && !opts.quiet && isatty(STDIN_FILENO)) {
    err << "ncclscope: reading the log from the terminal (end with Ctrl-D); pass files or pipe "
           "`kubectl logs ...` into ncclscope\n";
  }
  AnalysisResult result;
  if (s.ok()) s = Analyze(aopts, &result);
  meter.Finish();
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return ReportAnalysis(opts, policy, &result, out, err);
}

}  // namespace ncclscope::cli
