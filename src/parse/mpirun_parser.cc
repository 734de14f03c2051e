// Open MPI's mpirun reports about its processes:
//   mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).
//   Primary job  terminated normally, but 1 process returned
//   mpirun detected that one or more processes exited with non-zero status, ...
//     Process name: [[41097,1],3]
//     Exit code:    1
#include <string_view>

#include "ncclscope/base/signals.h"

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseMpirun(std::string_view line, EventData* data) {
  std::string_view t = Trim(line);
  if (StartsWith(t, "mpirun noticed that process rank ")) {
    ProcessExit e;
    e.reporter = ExitReporter::kMpirun;
    TextCursor c(t.substr(33));
    if (!c.ReadInt(&e.rank)) return false;
    if (c.Eat(" with PID ")) c.ReadInt(&e.pid);
    if (c.Eat(" on node ")) {
      std::string_view r = c.rest();
      e.node = r.substr(0, r.find(' '));
    }
    const size_t sig = t.find(" exited on signal ");
    if (sig != std::string_view::npos) {
      TextCursor s(t.substr(sig + 18));
      s.ReadInt(&e.signal);
      std::string_view r = s.rest();
      const size_t open = r.find('(');
      const size_t close = r.rfind(')');
      if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
        e.reason = r.substr(open + 1, close - open - 1);
      }
    } else {
      const size_t st = t.find(" exited with status ");
      if (st == std::string_view::npos) return false;
      TextCursor s(t.substr(st + 20));
      int code = 0;
      if (s.ReadInt(&code)) e.exit_code = code;
    }
    *data = e;
    return true;
  }
  if (StartsWith(t, "Primary job") && t.find("terminated normally, but ") != std::string_view::npos) {
    *data = LauncherEvent{LauncherKind::kMpiAbort, {}, t};
    return true;
  }
  // The indented "Process name: [[41097,1],3]" / "Exit code:    1" of mpirun's report.
  if (line.size() > 2 && line[0] == ' ') {
    if (StartsWith(t, "Process name: [[")) {
      *data = LauncherEvent{LauncherKind::kTableField, "mpi-process", Trim(t.substr(13))};
      return true;
    }
    if (StartsWith(t, "Exit code:")) {
      int code = 0;
      if (!ParseWhole(Trim(t.substr(10)), &code)) return false;
      *data = LauncherEvent{LauncherKind::kTableField, "mpi-exit-code", Trim(t.substr(10))};
      return true;
    }
  }
  return false;
}

}  // namespace ncclscope::parse_internal
