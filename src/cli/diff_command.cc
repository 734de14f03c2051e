// `ncclscope diff BEFORE AFTER`: load both runs, compare them, write the diff, exit 1 when it
// holds what --fail-on counts.
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/diff/diff_report.h"
#include "ncclscope/diff/run_side.h"

namespace ncclscope::cli {

int RunDiffCommand(const DiffCommandOptions& opts, std::ostream& out, std::ostream& err) {
  const DiffFormat* format = FindDiffFormat(opts.format);
  const std::optional<DiffFailOn> fail_on = ParseDiffFailOn(opts.fail_on);
  if (!format || !fail_on) {
    err << "ncclscope: diff: unknown "
        << (format ? "--fail-on '" + opts.fail_on : "format '" + opts.format) << "'\n";
    return kExitUsage;
  }
  if (opts.before == "-" && opts.after == "-") {
    err << "ncclscope: diff: only one of the two runs can be read from stdin\n";
    return kExitUsage;
  }
  RunSideOptions side;
  side.analyze.topo_path = opts.topo;
  side.analyze.rules.slow_init_seconds = opts.slow_init_seconds;
  side.analyze.jobs = opts.jobs;
  Policy policy;
  if (!opts.policy.empty()) {
    Status s = LoadPolicy(opts.policy, &policy);
    if (!s.ok()) {
      err << "ncclscope: " << s.message() << "\n";
      return kExitUsage;
    }
    ApplyPolicyThresholds(policy, &side.analyze.rules);
    side.policy = &policy;
  }
  RunSnapshot before, after;
  for (auto [path, snap] : {std::pair{&opts.before, &before}, std::pair{&opts.after, &after}}) {
    Status s = LoadRunSnapshot(*path, side, snap);
    if (!s.ok()) {
      err << "ncclscope: diff: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  for (const auto* snap : {&before, &after}) {
    if (opts.quiet) break;
    for (const auto& p : snap->input_problems)
      err << "ncclscope: note: " << snap->label << " was made from damaged input: " << p << "\n";
  }
  DiffOptions dopts;
  dopts.busbw_tolerance = opts.busbw_tolerance_percent / 100.0;
  const RunDiff diff = DiffRuns(before, after, dopts);

  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  DiffReportOptions ropts;
  ropts.color = UseColor(opts.color, output.is_file());
  format->write(DiffReportInput{before, after, diff, *fail_on}, ropts, output.stream());
  output.stream().flush();
  if (!output.stream()) {
    err << "ncclscope: " << (opts.output.empty() ? "stdout" : opts.output) << ": write failed\n";
    return kExitUsage;
  }
  return DiffFails(diff, *fail_on) ? kExitFindings : kExitOk;
}

}  // namespace ncclscope::cli
