// The command runners: each takes its options and the output streams and returns the exit code.
#ifndef NCCLSCOPE_CLI_COMMANDS_H_
#define NCCLSCOPE_CLI_COMMANDS_H_

#include <ostream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/cli/options.h"

namespace ncclscope::cli {

int RunAnalyze(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// `analyze --follow`: live findings, then the full report at end of input or Ctrl-C.
int RunFollow(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err);
/// The exit code of an analysis (README "Exit codes"); prints the no-NCCL hint unless quiet.
int AnalyzeExitCode(const AnalyzeCommandOptions& opts, const AnalysisResult& result,
                    std::ostream& err);
int RunEvents(const EventsCommandOptions& opts, std::ostream& out, std::ostream& err);
int RunRanks(const RanksCommandOptions& opts, std::ostream& out, std::ostream& err);
int RunRulesList(const RulesCommandOptions& opts, std::ostream& out, std::ostream& err);
int RunTopo(const TopoCommandOptionsCli& opts, std::ostream& out, std::ostream& err);
int RunBench(const BenchCommandOptionsCli& opts, std::ostream& out, std::ostream& err);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_COMMANDS_H_
