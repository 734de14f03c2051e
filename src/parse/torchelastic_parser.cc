// torchelastic (torchrun, torch.distributed.launch) agent lines: a worker's end, restarts and the
// ChildFailedError table that torchrun prints when it gives up:
//   E1123 09:26:08.776000 606 .../api.py:986] failed (exitcode: -9) local_rank: 1 (pid: 631) of
//   binary: /opt/torch/.venv/bin/python
//   [default] Worker group FAILED. 1/1 attempts left; will restart worker group
//   Root Cause (first observed failure):
//   [0]:
//     exitcode  : -9 (pid: 631)
//     traceback : Signal 9 (SIGKILL) received by PID 631
#include <string_view>

#include "ncclscope/base/signals.h"

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool ElasticHas(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

/// The integer after `key` (spaces skipped); false if absent or not a number.
template <typename T>
bool IntAfter(std::string_view s, std::string_view key, T* out) {
  const size_t p = s.find(key);
  if (p == std::string_view::npos) return false;
  TextCursor c(s.substr(p + key.size()));
  c.SkipSpaces();
  return c.ReadInt(out);
}

constexpr std::string_view kTableKeys[] = {"time",       "host",      "rank",
                                           "exitcode",   "error_file", "traceback"};

}  // namespace

bool ParseTorchelastic(std::string_view msg, EventData* data) {
  if (msg.empty()) return false;
  if (const size_t f = msg.find("failed (exitcode: "); f != std::string_view::npos) {
    ProcessExit e;
    e.reporter = ExitReporter::kTorchrun;
    int code = 0;
    if (!IntAfter(msg.substr(f), "(exitcode: ", &code)) return false;
    e.exit_code = code;
    e.signal = SignalFromExitCode(code).value_or(0);
    IntAfter(msg, "local_rank: ", &e.local_rank);
    IntAfter(msg, "(pid: ", &e.pid);
    *data = e;
    return true;
  }
  // The legacy launcher (torch.distributed.launch) raises when a worker fails:
  // subprocess.CalledProcessError: Command '[..., '--local_rank=3', ...]' died with
  // <Signals.SIGKILL: 9>.  /  ... returned non-zero exit status 1.
  if (const size_t cpe = msg.find("CalledProcessError: Command '"); cpe != std::string_view::npos) {
    ProcessExit e;
    e.reporter = ExitReporter::kTorchrun;
    if (!IntAfter(msg, "--local_rank=", &e.local_rank)) IntAfter(msg, "--local-rank=", &e.local_rank);
    if (const size_t sig = msg.rfind("<Signals."); sig != std::string_view::npos) {
      const size_t colon = msg.find(": ", sig);
      if (colon == std::string_view::npos) return false;
      TextCursor c(msg.substr(colon + 2));
      if (!c.ReadInt(&e.signal)) return false;
      e.exit_code = -e.signal;
    } else {
      int code = 0;
      if (!IntAfter(msg, "non-zero exit status ", &code)) return false;
      e.exit_code = code;
      e.signal = SignalFromExitCode(code).value_or(0);
    }
    *data = e;
    return true;
  }
  if (ElasticHas(msg, " attempts left; will restart worker group") ||
      StartsWith(msg, "Restarting worker group")) {
    LauncherEvent l;
    l.kind = LauncherKind::kRestart;
    // "[default] Worker group FAILED. 1/1 attempts left; ..." → "1/1"
    const size_t dot = msg.find(". ");
    const size_t left = msg.find(" attempts left");
    if (dot != std::string_view::npos && left != std::string_view::npos && left > dot) {
      l.value = msg.substr(dot + 2, left - dot - 2);
    }
    *data = l;
    return true;
  }
  if (msg == "Failures:") {
    *data = LauncherEvent{LauncherKind::kFailuresHeader, {}, {}};
    return true;
  }
  if (msg == "Root Cause (first observed failure):") {
    *data = LauncherEvent{LauncherKind::kRootCauseHeader, {}, {}};
    return true;
  }
  // "[0]:" — an entry of the table.
  if (msg.size() >= 4 && msg.front() == '[' && EndsWith(msg, "]:")) {
    int index = -1;
    if (!ParseWhole(msg.substr(1, msg.size() - 3), &index)) return false;
    *data = LauncherEvent{LauncherKind::kTableEntry, {}, msg.substr(1, msg.size() - 3)};
    return true;
  }
  return false;
}

bool ParseTorchelasticField(std::string_view line, EventData* data) {
  // Two blanks, the key padded with blanks to ten characters, ": ". One blank when a launcher's
  // tag took the other: Open MPI 5 writes `[1,0]<stderr>: ` with a blank, 4 without, and the
  // tag's matcher takes a blank after it either way.
  const size_t indent = StartsWith(line, "  ") ? 2 : StartsWith(line, " ") ? 1 : 0;
  if (indent == 0 || line.size() < indent + 12 || line[indent] == ' ') return false;
  std::string_view rest = line.substr(indent);
  size_t end = 0;
  while (end < rest.size() && (IsAlpha(rest[end]) || rest[end] == '_')) ++end;
  const std::string_view key = rest.substr(0, end);
  bool known = false;
  for (std::string_view k : kTableKeys) known = known || key == k;
  if (!known) return false;
  size_t colon = end;
  while (colon < rest.size() && rest[colon] == ' ') ++colon;
  if (colon >= rest.size() || rest[colon] != ':' || colon != 10) return false;
  *data = LauncherEvent{LauncherKind::kTableField, key, Trim(rest.substr(colon + 1))};
  return true;
}

}  // namespace ncclscope::parse_internal
