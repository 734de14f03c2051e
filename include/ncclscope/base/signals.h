// POSIX signals as launchers and schedulers report them: torchrun's negative exit codes (-9),
// shells' and Kubernetes' 128 + N (137), names (SIGKILL) and descriptions ("Killed").
#ifndef NCCLSCOPE_BASE_SIGNALS_H_
#define NCCLSCOPE_BASE_SIGNALS_H_

#include <optional>
#include <string_view>

namespace ncclscope {

/// "SIGKILL" for 9, "" for numbers without a name here.
std::string_view SignalName(int signal);
/// What the signal usually means for a training process ("the OOM killer or an external kill
/// -9", "a crash in native code", ...); "" when unknown.
std::string_view SignalMeaning(int signal);
/// 9 for "SIGKILL", "KILL", "Killed"; 11 for "SIGSEGV", "Segmentation fault"; 0 when unknown.
int SignalFromText(std::string_view text);
/// The signal an exit code stands for: negative codes (torchrun, subprocess: -9) and shell codes
/// 129..159 (128 + N, e.g. 137). nullopt for a plain exit code.
std::optional<int> SignalFromExitCode(int exit_code);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_SIGNALS_H_
