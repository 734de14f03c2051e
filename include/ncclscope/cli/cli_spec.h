// The command line as data: every subcommand with its options, value choices and positional
// inputs, read from the CLI11 description (cli/main.cc). Shell completions are generated from it,
// so they follow the options as they are.
#ifndef NCCLSCOPE_CLI_CLI_SPEC_H_
#define NCCLSCOPE_CLI_CLI_SPEC_H_

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ncclscope::cli {

struct CliOptionSpec {
  std::vector<std::string> names;    ///< "-f", "--format", in the order they were declared.
  std::string description;
  bool takes_value = false;          ///< false for flags (--quiet).
  std::vector<std::string> choices;  ///< Allowed values (--format text|json|...), if a closed set.
  bool numeric = false;              ///< The value is a number (--jobs): no file completion.
};

struct CliCommandSpec {
  std::string name;
  std::string description;
  std::vector<CliOptionSpec> options;
  bool takes_files = false;               ///< Positional arguments are paths.
  std::vector<std::string> positional_choices;  ///< Or one of these words (completion SHELL).
};

struct CliSpec {
  std::string program;                  ///< "ncclscope"
  std::vector<CliOptionSpec> options;   ///< Options before any subcommand (--help, --version).
  std::vector<CliCommandSpec> commands;
  std::string default_command;          ///< Run when the first argument is not a subcommand.
};

/// Reads the subcommands and options out of a fully described CLI11 app. Defined in
/// src/cli/main.cc, the one translation unit that includes CLI11.
CliSpec DescribeCli(const CLI::App& app, const std::string& default_command);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_CLI_SPEC_H_
