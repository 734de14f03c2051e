// `ncclscope ranks`: the per-rank table.
#include "ncclscope/analysis/analyze.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/report/rank_table.h"

namespace ncclscope::cli {

int RunRanks(const RanksCommandOptions& opts, std::ostream& out, std::ostream& err) {
  AnalyzeOptions aopts;
  aopts.inputs = opts.inputs;
  aopts.run_rules = false;
  AnalysisResult result;
  Status s = Analyze(aopts, &result);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  for (const auto& p : result.problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  if (opts.format == "json") {
    std::string text;
    JsonStream js(&text);
    WriteRankTableJson(result.job, &js);
    text.push_back('\n');
    output.stream() << text;
  } else {
    WriteRankTableText(result.job, output.stream());
  }
  if (!result.problems.empty()) return kExitUsage;
  return result.job.stats.nccl_lines == 0 ? kExitNoNccl : kExitOk;
}

}  // namespace ncclscope::cli
