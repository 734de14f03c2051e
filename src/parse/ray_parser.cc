// Ray's reports of a dead worker (raylet and driver output, "(raylet) " tagged):
//   (raylet) A worker died or was killed while executing a task by an unexpected system error.
//   ... Worker IP address: 172.19.24.110 Worker port: 10101 Worker PID: 90738
//   (raylet) Task failed due to out-of-memory ... Memory on the node (IP: 10.0.0.3, ...) ...
//   Ray killed this worker (ID: ...) because it was the most recently scheduled task
// and vLLM's multiprocess executor's, often under Ray's or vLLM's own prefixes:
//   ERROR 08-25 12:24:19 [multiproc_executor.py:146] Worker proc VllmWorker-1 died unexpectedly,
//   shutting down executor.
#include <string_view>

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

std::string_view WordAfter(std::string_view s, std::string_view key) {
  const size_t p = s.find(key);
  if (p == std::string_view::npos) return {};
  std::string_view r = s.substr(p + key.size());
  return r.substr(0, r.find_first_of(" ,)"));
}

}  // namespace

bool ParseRay(std::string_view line, EventData* data) {
  const bool died = line.find("A worker died or was killed while executing") != std::string_view::npos;
  const bool oom = line.find("Ray killed this worker") != std::string_view::npos &&
                   line.find("memory") != std::string_view::npos;
  if (!died && !oom) return false;
  ProcessExit e;
  e.reporter = ExitReporter::kRay;
  e.node = WordAfter(line, "Worker IP address: ");
  if (e.node.empty()) e.node = WordAfter(line, "(IP: ");
  std::string_view pid = WordAfter(line, "Worker PID: ");
  if (!pid.empty()) ParseWhole(pid, &e.pid);
  e.oom = oom;
  if (oom) e.signal = 9;
  e.reason = died ? std::string_view("worker died or was killed (unexpected system error)")
                  : std::string_view("killed by Ray's memory monitor");
  *data = e;
  return true;
}

bool ParseVllmWorkerDied(std::string_view line, EventData* data) {
  constexpr std::string_view kWorker = "Worker proc VllmWorker-";
  const size_t at = line.find(kWorker);
  if (at == std::string_view::npos) return false;
  TextCursor c(line.substr(at + kWorker.size()));
  int rank = -1;
  if (!c.ReadInt(&rank) || !c.Eat(" died unexpectedly")) return false;
  ProcessExit e;
  e.reporter = ExitReporter::kVllm;
  e.rank = rank;
  e.reason = "died unexpectedly";
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
