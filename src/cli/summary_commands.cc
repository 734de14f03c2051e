// `ncclscope summarize` (condensed inputs → summary file) and `ncclscope merge` (summary files →
// the analyze report of the original inputs).
#include "ncclscope/analysis/shard.h"
#include "ncclscope/analysis/summary_file.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/report/report.h"

namespace ncclscope::cli {

int RunSummarize(const SummarizeCommandOptions& opts, std::ostream& out, std::ostream& err) {
  ExpandedInputs inputs = ExpandInputs(opts.inputs);
  if (!opts.shard.empty()) {
    Shard shard;
    Status s = ParseShard(opts.shard, &shard);
    if (!s.ok()) {
      err << "ncclscope: " << s.message() << "\n";
      return kExitUsage;
    }
    inputs.inputs = ShardInputs(inputs.inputs, shard);
    // Paths that could not be expanded belong to no shard's inputs: the first shard reports
    // them, so that the merged report has them once.
    if (shard.index != 0) inputs.problems.clear();
  }
  CondensedSet set;
  set.problems = inputs.problems;
  set.inputs.reserve(inputs.inputs.size());
  CondenseInParallel(inputs.inputs, opts.jobs,
                     [&set](CondensedInput&& c) { set.inputs.push_back(std::move(c)); });
  bool problems = !set.problems.empty();
  for (const auto& p : set.problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  for (const auto& in : set.inputs) {
    for (const auto& p : in.problems) {
      err << "ncclscope: " << p.path << ": " << p.message << "\n";
      problems = true;
    }
  }
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  WriteSummary(set, output.stream());
  output.stream().flush();
  if (!output.stream()) {
    err << "ncclscope: " << (opts.output.empty() ? "stdout" : opts.output) << ": write failed\n";
    return kExitUsage;
  }
  return problems ? kExitUsage : kExitOk;
}

int RunMerge(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err) {
  if (!FindReportFormat(opts.format)) {
    err << "ncclscope: unknown format '" << opts.format << "'\n";
    return kExitUsage;
  }
  if (opts.inputs.empty()) {
    err << "ncclscope: merge needs at least one summary file (ncclscope summarize -o FILE)\n";
    return kExitUsage;
  }
  CondensedSet set;
  for (const auto& path : opts.inputs) {
    Status s = ReadSummary(path, &set);
    if (!s.ok()) {
      err << "ncclscope: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  AnalyzeOptions aopts;
  Policy policy;
  Status s = MakeAnalyzeOptions(opts, &aopts, &policy);
  AnalysisResult result;
  if (s.ok()) s = AnalyzeCondensed(std::move(set), aopts, &result);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return ReportAnalysis(opts, policy, &result, out, err);
}

}  // namespace ncclscope::cli
