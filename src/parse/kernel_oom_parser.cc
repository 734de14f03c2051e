// The kernel's OOM killer (dmesg, journald, syslog, `kubectl get events`):
//   Out of memory: Killed process 4567 (python) total-vm:123456kB, anon-rss:...
//   Memory cgroup out of memory: Killed process 4567 (python) total-vm:...
//   oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),...,task=python,pid=4567,uid=0
#include <string_view>

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool HasOutOfMemory(std::string_view s) {
  return s.find("ut of memory") != std::string_view::npos;  // "Out of", "out of"
}

}  // namespace

bool ParseKernelOom(std::string_view line, EventData* data) {
  size_t k = line.find("Killed process ");
  size_t skip = 15;
  if (k == std::string_view::npos) {
    k = line.find(": Kill process ");  // older kernels: "Out of memory: Kill process N (x) score"
    skip = 15;
  }
  if (k != std::string_view::npos && HasOutOfMemory(line.substr(0, k + 2))) {
    ProcessExit e;
    e.reporter = ExitReporter::kKernel;
    TextCursor c(line.substr(k + skip));
    if (!c.ReadInt(&e.pid)) return false;
    c.SkipSpaces();
    if (c.Eat('(')) {
      std::string_view r = c.rest();
      e.reason = r.substr(0, r.find(')'));  // the command name
    }
    e.oom = true;
    e.signal = 9;
    *data = e;
    return true;
  }
  const size_t o = line.find("oom-kill:");
  if (o != std::string_view::npos) {
    const size_t pid = line.find(",pid=", o);
    if (pid == std::string_view::npos) return false;
    ProcessExit e;
    e.reporter = ExitReporter::kKernel;
    TextCursor c(line.substr(pid + 5));
    if (!c.ReadInt(&e.pid)) return false;
    const size_t task = line.find(",task=", o);
    if (task != std::string_view::npos) {
      std::string_view r = line.substr(task + 6);
      e.reason = r.substr(0, r.find(','));
    }
    e.oom = true;
    e.signal = 9;
    *data = e;
    return true;
  }
  return false;
}

}  // namespace ncclscope::parse_internal
