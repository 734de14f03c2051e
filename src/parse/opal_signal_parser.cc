// A fatal signal reported by the dying process's own handler in Open MPI's format (OPAL installs
// it in every process an Open MPI launch starts, PyTorch and NCCL processes included), printed
// before its backtrace:
//   [rtptest1621:405884] *** Process received signal ***
//   [mbay-csp2:627483] Signal: Segmentation fault (11)
//   [mbay-csp2:627483] Signal code:  (-6)
//   [mbay-csp2:627483] Failing at address: 0x3e80009931b
//   [mbay-csp2:627483] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x42520)[0x7f81fb0d1520]
//   [mbay-csp2:627483] *** End of error message ***
// The bracket is host:pid (the pid may be zero-padded: `[k8s-slave03:00956]`). The first line
// says a fatal signal arrived, the second which one; an excerpt may hold only the first.
#include <string_view>

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseOpalSignal(std::string_view line, EventData* data) {
  if (line.size() < 20 || line.front() != '[') return false;
  const size_t close = line.find("] ");
  if (close == std::string_view::npos || close < 4) return false;
  ProcessExit e;
  std::string_view after_pid;
  if (!ReadHandlerHostPid(line.substr(1, close - 1), &e, &after_pid) || !after_pid.empty())
    return false;
  const std::string_view what = Trim(line.substr(close + 2));
  if (what == "*** Process received signal ***") {
    e.fatal_signal = true;
    e.reason = "Process received signal";
    *data = e;
    return true;
  }
  constexpr std::string_view kSignal = "Signal: ";  // not "Signal code: (-6)"
  if (!StartsWith(what, kSignal) || what.back() != ')') return false;
  const std::string_view named = what.substr(kSignal.size());  // "Segmentation fault (11)"
  const size_t open = named.rfind('(');
  if (open == std::string_view::npos || open == 0) return false;
  TextCursor n(named.substr(open + 1, named.size() - open - 2));
  if (!n.ReadInt(&e.signal) || !n.done() || e.signal <= 0 || e.signal > 64) return false;
  e.fatal_signal = true;
  e.reason = named;
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
