// DeepSpeed launcher (deepspeed/launcher/launch.py) lines about its workers:
//   [2024-03-01 10:00:00,123] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u',
//   'train.py', '--local_rank=3'] exits with return code = -9
//   [2024-03-01 10:00:00,120] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4567
#include <string_view>

#include "ncclscope/base/signals.h"

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseDeepSpeed(std::string_view msg, EventData* data) {
  const size_t p = msg.find(" exits with return code = ");
  if (p != std::string_view::npos) {
    ProcessExit e;
    e.reporter = ExitReporter::kDeepSpeed;
    TextCursor c(msg.substr(p + 26));
    int code = 0;
    if (!c.ReadInt(&code)) return false;
    e.exit_code = code;
    e.signal = SignalFromExitCode(code).value_or(0);
    const size_t lr = msg.find("--local_rank=");
    if (lr != std::string_view::npos && lr < p) {
      TextCursor r(msg.substr(lr + 13));
      r.ReadInt(&e.local_rank);
    }
    *data = e;
    return true;
  }
  // Behind its logger head, or without it once the input layer took the head off.
  constexpr std::string_view kKilling = "Killing subprocess ";
  const size_t k = StartsWith(msg, kKilling) ? 0 : msg.find("] Killing subprocess ");
  if (k != std::string_view::npos) {
    std::string_view pid = Trim(msg.substr(k == 0 ? kKilling.size() : k + 2 + kKilling.size()));
    int64_t v = 0;
    if (!ParseWhole(pid, &v)) return false;
    *data = LauncherEvent{LauncherKind::kKillSent, {}, pid};
    return true;
  }
  return false;
}

}  // namespace ncclscope::parse_internal
