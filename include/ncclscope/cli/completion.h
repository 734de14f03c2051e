// Shell completion scripts generated from the command line's description (CliSpec):
// `ncclscope completion bash|zsh|fish`. The build writes them next to the binary and
// `cmake --install` puts them where bash-completion, zsh and fish look.
#ifndef NCCLSCOPE_CLI_COMPLETION_H_
#define NCCLSCOPE_CLI_COMPLETION_H_

#include <string>
#include <string_view>

#include "ncclscope/cli/cli_spec.h"

namespace ncclscope::cli {

/// Self-contained bash script (no bash-completion helpers needed): `complete -F _ncclscope`.
std::string BashCompletion(const CliSpec& spec);
/// zsh `#compdef` function file (_ncclscope) using _arguments and _describe.
std::string ZshCompletion(const CliSpec& spec);
/// fish `complete -c` commands.
std::string FishCompletion(const CliSpec& spec);

/// The script for "bash", "zsh" or "fish"; empty for any other shell.
std::string CompletionScript(const CliSpec& spec, std::string_view shell);

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_COMPLETION_H_
