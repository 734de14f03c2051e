#include "ncclscope/model/incident.h"

namespace ncclscope {

std::string_view IncidentKindName(IncidentKind kind) {
  static constexpr std::string_view kNames[] = {
      "exit",         "signal-sent", "exception",   "cpp-terminate", "nccl-warn",
      "nccl-error",   "watchdog-timeout", "progress", "teardown",    "heartbeat",
      "init-timeout", "restart",     "job-cancelled", "oom-event",   "launcher-gave-up",
      "peer-closed",  "desync-culprit"};
  static_assert(std::size(kNames) == static_cast<size_t>(IncidentKind::kDesyncCulprit) + 1);
  const size_t i = static_cast<size_t>(kind);
  return i < std::size(kNames) ? kNames[i] : std::string_view("unknown");
}

}  // namespace ncclscope
