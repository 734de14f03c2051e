// `kubectl describe pod` container state, given as input beside the logs:
//       State:          Terminated
//         Reason:       OOMKilled
//         Exit Code:    137
// and the pod's own reason, printed unindented above its containers:
//   Status:           Failed
//   Reason:           Evicted
#include <string_view>

#include "ncclscope/base/signals.h"

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

namespace {

/// A failed pod's own status reason: evicted by the kubelet, past the Job's deadline, stopped
/// by the node's graceful shutdown, lost with its node.
bool IsPodEndReason(std::string_view reason) {
  return reason == "Evicted" || reason == "DeadlineExceeded" || reason == "Terminated" ||
         reason == "NodeLost";
}

}  // namespace

bool ParseKubernetes(std::string_view line, EventData* data) {
  if (line.empty()) return false;
  if (line.front() != ' ') {
    // Unindented: only the pod's own `Reason:` (the container fields are indented).
    if (!StartsWith(line, "Reason:")) return false;
    std::string_view reason = Trim(line.substr(7));
    if (!IsPodEndReason(reason)) return false;
    ProcessExit e;
    e.reporter = ExitReporter::kKubernetes;
    e.reason = reason;
    *data = e;
    return true;
  }
  std::string_view t = Trim(line);
  if (StartsWith(t, "Reason:")) {
    std::string_view reason = Trim(t.substr(7));
    // Terminated containers: OOMKilled, Error, ContainerCannotRun, DeadlineExceeded, Evicted.
    if (reason != "OOMKilled" && reason != "Error" && reason != "Evicted" &&
        reason != "DeadlineExceeded" && reason != "ContainerCannotRun") {
      return false;
    }
    ProcessExit e;
    e.reporter = ExitReporter::kKubernetes;
    e.reason = reason;
    e.oom = reason == "OOMKilled";
    if (e.oom) e.signal = 9;
    *data = e;
    return true;
  }
  if (StartsWith(t, "Exit Code:")) {
    int code = 0;
    if (!ParseWhole(Trim(t.substr(10)), &code)) return false;
    ProcessExit e;
    e.reporter = ExitReporter::kKubernetes;
    e.exit_code = code;
    e.signal = SignalFromExitCode(code).value_or(0);
    *data = e;
    return true;
  }
  return false;
}

}  // namespace ncclscope::parse_internal
