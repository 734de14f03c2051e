// `ncclscope topo` and `ncclscope bench`: companion inputs.
#include "ncclscope/analysis/analyze.h"
#include "ncclscope/bench/bench_report.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/model/link_summary.h"
#include "ncclscope/topo/topo_report.h"

namespace ncclscope::cli {

int RunTopo(const TopoCommandOptionsCli& opts, std::ostream& out, std::ostream& err) {
  TopoCommandOptions t;
  t.path = opts.path;
  t.format = opts.format;
  Status s = RunTopoCommand(t, out);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

namespace {

/// The slowest class on the largest communicator's links in an NCCL log of the same run.
Status ExpectedClassFromLog(const std::string& log, std::string* out) {
  AnalyzeOptions aopts;
  aopts.inputs = {log};
  aopts.run_rules = false;
  AnalysisResult result;
  Status s = Analyze(aopts, &result);
  if (!s.ok()) return s;
  if (!result.problems.empty())
    return Status::NotFound(result.problems.front().path + ": " + result.problems.front().message);
  int best = -1;
  std::optional<TransportClass> cls;
  for (const auto& sum : SummarizeLinks(result.job)) {
    int n = sum.comm >= 0 ? result.job.comms[sum.comm].nranks : 0;
    if (sum.bottleneck && n > best) {
      best = n;
      cls = sum.bottleneck;
    }
  }
  if (!cls)
    return Status::InvalidInput(log + ": no connection lines to take a transport class from");
  *out = std::string(TransportClassName(*cls));
  return Status::Ok();
}

}  // namespace

int RunBench(const BenchCommandOptionsCli& opts, std::ostream& out, std::ostream& err) {
  BenchCommandOptions b;
  b.paths = opts.inputs;
  b.expect = opts.expect;
  b.format = opts.format;
  if (b.expect.empty() && !opts.log.empty()) {
    Status s = ExpectedClassFromLog(opts.log, &b.expect);
    if (!s.ok()) {
      err << "ncclscope: " << s.message() << "\n";
      return kExitUsage;
    }
    err << "ncclscope: expecting " << b.expect << " (bottleneck of " << opts.log << ")\n";
  }
  int exit_code = kExitOk;
  Status s = RunBenchCommand(b, out, &exit_code);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace ncclscope::cli
