// MakeAnalyzeOptions, ReportAnalysis: the options and the report and exit code of an
// AnalysisResult, shared by analyze and merge.
#include <fmt/format.h>

#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/report/report.h"

namespace ncclscope::cli {
namespace {

void PrintStats(const Job& job, std::ostream& err) {
  const JobStats& s = job.stats;
  err << fmt::format(
      "ncclscope: {} lines, {} bytes, {} NCCL lines, {} framework lines, {} events, {} "
      "connection lines, {} unrecognized\n",
      s.lines, s.bytes, s.nccl_lines, s.framework_lines, s.events, s.connection_lines,
      s.unrecognized);
  for (const auto& [type, n] : s.events_by_type) err << fmt::format("  {:<22} {}\n", type, n);
  for (const auto& e : job.unrecognized_samples)
    err << fmt::format("  unrecognized {}:{}: {}\n", job.SourceName(e.source), e.line, e.text);
}

}  // namespace

Status MakeAnalyzeOptions(const AnalyzeCommandOptions& opts, AnalyzeOptions* aopts,
                          Policy* policy) {
  aopts->inputs = opts.inputs;
  aopts->topo_path = opts.topo;
  aopts->rules.slow_init_seconds = opts.slow_init_seconds;
  aopts->jobs = opts.jobs;
  aopts->keep_all_comms = opts.keep_all_comms;
  if (opts.policy.empty()) return Status::Ok();
  Status s = LoadPolicy(opts.policy, policy);
  if (s.ok()) ApplyPolicyThresholds(*policy, &aopts->rules);
  return s;
}

int AnalyzeExitCode(const AnalyzeCommandOptions& opts, const AnalysisResult& result,
                    std::ostream& err) {
  if (!result.problems.empty()) return kExitUsage;
  const RootCause& cause = result.root_cause.cause;
  const bool failed = cause.job_failed && cause.cls != CauseClass::kNone;
  if (result.job.stats.nccl_lines == 0) {
    // A launcher's or framework's account of a failed job (torchrun's table, a traceback) still
    // has a root cause: reported and gated like any failure, with a note.
    if (!opts.quiet)
      err << (failed ? "ncclscope: the input holds no NCCL debug lines: the root cause comes from "
                       "the launcher and framework lines alone (run the job with NCCL_DEBUG=INFO "
                       "to see NCCL's side)\n"
                     : "ncclscope: the input holds no NCCL debug lines: run the job with "
                       "NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV for link paths)\n");
    if (!failed) return kExitNoNccl;
  }
  if (opts.fail_on == "never") return kExitOk;
  Severity threshold = ParseSeverity(opts.fail_on).value_or(Severity::kError);
  for (const auto& f : result.findings) {
    if (f.severity >= threshold) return kExitFindings;
  }
  // A job that failed fails the gate at any level, even when no rule fired (a killed rank).
  if (failed) return kExitFindings;
  return kExitOk;
}

int ReportAnalysis(const AnalyzeCommandOptions& opts, const Policy& policy, AnalysisResult* res,
                   std::ostream& out, std::ostream& err) {
  if (!opts.policy.empty()) ApplyPolicy(policy, res->job, &res->findings);
  const AnalysisResult& result = *res;
  const ReportFormat* format = FindReportFormat(opts.format);
  if (!format) {
    err << "ncclscope: unknown format '" << opts.format << "'\n";
    return kExitUsage;
  }
  for (const auto& p : result.problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  if (opts.stats) PrintStats(result.job, err);

  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  ReportOptions ropts;
  ropts.color = UseColor(opts.color, output.is_file());
  ropts.verbose = opts.verbose;
  ropts.exit_code = AnalyzeExitCode(opts, result, err);
  ropts.docs_url = DocsUrl();
  format->write(ReportInput{result.job, result.findings, result.problems, &result.root_cause}, ropts,
                output.stream());
  output.stream().flush();
  return ropts.exit_code;
}

}  // namespace ncclscope::cli
