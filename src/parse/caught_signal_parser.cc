// A fatal signal reported by the dying process's own handler in UCX's format (UCX, HPC-X and
// the MPI stacks built on them install it; it also fires in PyTorch/NCCL processes that load
// UCX), printed before its backtrace:
//   [cf0b62962198:378934:0:382579] Caught signal 7 (Bus error: nonexistent physical address)
//   [qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)
//   [gpu-node09:332629:0:332629] Caught signal 11 (Segmentation fault: address not mapped ...)
// The bracket is host:pid:thread-index:tid (the pid may be space-padded).
#include <string_view>

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseCaughtSignal(std::string_view line, EventData* data) {
  constexpr std::string_view kCaught = "] Caught signal ";
  if (line.size() < 20 || line.front() != '[') return false;
  const size_t close = line.find(kCaught);
  if (close == std::string_view::npos) return false;
  ProcessExit e;
  std::string_view after_pid;
  if (!ReadHandlerHostPid(line.substr(1, close - 1), &e, &after_pid)) return false;
  TextCursor c(after_pid);
  c.SkipSpaces();
  if (!c.Eat(':')) return false;
  TextCursor s(line.substr(close + kCaught.size()));
  if (!s.ReadInt(&e.signal) || e.signal <= 0 || e.signal > 64) return false;
  e.reason = Trim(line.substr(close + 2));  // "Caught signal 7 (Bus error: ...)"
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
