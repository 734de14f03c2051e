// The SIGINT flag: the one piece of global mutable state, because a signal handler can reach
// nothing else. std::atomic<bool> is lock-free, so storing to it is async-signal-safe.
#include "ncclscope/cli/interrupt.h"

#include <signal.h>

namespace ncclscope::cli {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void OnSigint(int /*signo*/) { g_interrupted.store(true); }

}  // namespace

void InstallInterruptHandler() {
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // No SA_RESTART: a blocking read() returns EINTR.
  sigaction(SIGINT, &sa, nullptr);
}

const std::atomic<bool>& InterruptFlag() { return g_interrupted; }

}  // namespace ncclscope::cli
