// Ctrl-C for `analyze --follow`: a SIGINT handler that only sets a flag. It is installed without
// SA_RESTART, so a read blocked on stdin returns EINTR (which the byte source turns into end of
// input) and the full report is still printed.
#ifndef NCCLSCOPE_CLI_INTERRUPT_H_
#define NCCLSCOPE_CLI_INTERRUPT_H_

#include <atomic>

namespace ncclscope::cli {

/// Installs the handler (idempotent). Until then, SIGINT keeps its default action.
void InstallInterruptHandler();
/// Set once SIGINT was received after InstallInterruptHandler.
const std::atomic<bool>& InterruptFlag();

}  // namespace ncclscope::cli

#endif  // NCCLSCOPE_CLI_INTERRUPT_H_
