// The command runners: each takes its options and the output streams and returns the exit code.
#ifndef NCCLSCOPE_CLI_COMMANDS_H_
#define NCCLSCOPE_CLI_COMMANDS_H_

#include <istream>
#include <ostream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/cli/options.h"
#include "ncclscope/rules/policy.h"

namespace ncclscope::cli {

/// The library options for the analyze command line (topo, rule thresholds, jobs) and the
/// --policy file, loaded (its thresholds applied to the options). Fails on a bad policy file.
Status MakeAnalyzeOptions(const AnalyzeCommandOptions& opts, AnalyzeOptions* aopts, Policy* policy);
/// Applies the policy (if --policy was given), writes the report of an analysis and turns
/// problems and findings into the exit code: the part of `analyze` that `merge` shares.
int ReportAnalysis(const AnalyzeCommandOptions& opts, const Policy& policy, AnalysisResult* result,
                   std::ostream& out, std::ostream& err);

int RunAnalyze(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `analyze --follow`: live findings, then the full report at end of input or Ctrl-C.
int RunFollow(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// The exit code of an analysis (README "Exit codes"); prints the no-NCCL hint unless quiet.
int AnalyzeExitCode(const AnalyzeCommandOptions& opts, const AnalysisResult& result,
                    std::ostream& err);
int RunEvents(const EventsCommandOptions& opts, std::ostream& out, std::ostream& err);
int RunRanks(const RanksCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `ncclscope timeline`: every failure incident on one time axis, per attempt, with the root
/// cause's first failure marked and each line's distance from it.
int RunTimeline(const TimelineCommandOptions& opts, std::ostream& out, std::ostream& err);
int RunRulesList(const RulesCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `explain TEXT|RULE`: exit 0 when every text was explained, 1 when one was not known.
int RunExplain(const ExplainCommandOptions& opts, std::istream& in, std::ostream& out,
               std::ostream& err);
int RunTopo(const TopoCommandOptionsCli& opts, std::ostream& out, std::ostream& err);
int RunBench(const BenchCommandOptionsCli& opts, std::ostream& out, std::ostream& err);
/// `summarize INPUT... -o FILE`: writes the condensed form of the inputs (exit 2 on problems).
int RunSummarize(const SummarizeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `merge SUMMARY... [analyze options]`: the analyze report of the summarised inputs; opts.inputs
/// are the summary files.
int RunMerge(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `kube-status PODS_JSON [EVENTS_JSON...]`: exit 2 when a file cannot be read or parsed.
int RunKubeStatus(const KubeStatusCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `diff BEFORE AFTER`: exit 1 when the diff holds what --fail-on counts, 2 on bad input.
int RunDiffCommand(const DiffCommandOptions& opts, std::ostream& out, std::ostream& err);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_COMMANDS_H_
