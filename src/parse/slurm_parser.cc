// Slurm's reports about the tasks of a job step:
//   srun: error: node7: task 3: Killed
//   srun: error: node7: tasks 0-3: Exited with exit code 1
//   slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks have
//   been OOM Killed.
//   slurmstepd: error: *** JOB 12345 ON node7 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***
#include <string_view>

#include "ncclscope/base/signals.h"

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool ParseTaskEnd(std::string_view rest, EventData* data) {
  // "node7: task 3: Killed" / "node7: tasks 0-3: Exited with exit code 1"
  ProcessExit e;
  e.reporter = ExitReporter::kSlurm;
  const size_t colon = rest.find(": task");
  if (colon == std::string_view::npos) return false;
  e.node = rest.substr(0, colon);
  std::string_view r = rest.substr(colon + 6);
  const bool plural = StartsWith(r, "s ");
  if (!plural && !StartsWith(r, " ")) return false;
  r.remove_prefix(plural ? 2 : 1);
  const size_t end = r.find(": ");
  if (end == std::string_view::npos) return false;
  e.ranks = r.substr(0, end);
  if (!plural && !ParseWhole(e.ranks, &e.rank)) return false;
  std::string_view what = Trim(r.substr(end + 2));
  if (StartsWith(what, "Exited with exit code ")) {
    int code = 0;
    if (!ParseWhole(Trim(what.substr(22)), &code)) return false;
    e.exit_code = code;
    e.signal = SignalFromExitCode(code).value_or(0);
  } else if (StartsWith(what, "Out Of Memory")) {
    e.oom = true;
    e.reason = what;
    e.signal = 9;
  } else {
    e.signal = SignalFromText(what);
    if (e.signal == 0) return false;
    e.reason = what;
  }
  *data = e;
  return true;
}

}  // namespace

bool ParseSlurm(std::string_view line, EventData* data) {
  std::string_view t = Trim(line);
  if (StartsWith(t, "srun: error: ")) return ParseTaskEnd(t.substr(13), data);
  if (!StartsWith(t, "slurmstepd") && t.find("*** JOB ") == std::string_view::npos &&
      t.find("*** STEP ") == std::string_view::npos) {
    return false;
  }
  if (t.find("oom_kill event") != std::string_view::npos ||
      t.find("oom-kill event") != std::string_view::npos) {
    *data = LauncherEvent{LauncherKind::kOomEvent, {}, t};
    return true;
  }
  const size_t c = t.find(" CANCELLED AT ");
  if (c != std::string_view::npos) {
    const size_t due = t.find(" DUE TO ", c);
    std::string_view reason = "cancelled";
    if (due != std::string_view::npos) {
      reason = t.substr(due + 8);
      const size_t stars = reason.find(" ***");
      reason = reason.substr(0, stars);
    }
    *data = LauncherEvent{LauncherKind::kJobCancelled, {}, reason};
    return true;
  }
  return false;
}

}  // namespace ncclscope::parse_internal
