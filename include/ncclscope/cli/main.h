// Entry point of the command line: parses arguments into options, runs one command.
#ifndef NCCLSCOPE_CLI_MAIN_H_
#define NCCLSCOPE_CLI_MAIN_H_

namespace ncclscope::cli {

/// Runs ncclscope with the given arguments; returns the process exit code (see README: 0 ok,
/// 1 findings at or above --fail-on, 2 usage or input error, 3 no NCCL debug lines).
int Main(int argc, char** argv);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_MAIN_H_
