// IncidentRecorder's handlers of launchers' reports: process exits (torchrun, Kubernetes,
// mpirun, Slurm, the kernel, ...) and torchelastic's restarts and failure table.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "incident_recorder.h"
#include "incident_recorder_text.h"
#include "ncclscope/base/signals.h"

namespace ncclscope {

using recorder_internal::ReadNumber;

namespace {

/// "1 (local_rank: 1)" → 1, 1; "-9 (pid: 631)" → -9, 631.
void NumberAndParen(std::string_view v, std::string_view key, int64_t* number, int64_t* inner) {
  size_t i = 0;
  const bool neg = !v.empty() && v[0] == '-';
  if (neg) ++i;
  int64_t n = 0;
  if (ReadNumber(v, &i, &n)) *number = neg ? -n : n;
  const size_t k = v.find(key);
  if (k == std::string_view::npos) return;
  size_t j = k + key.size();
  int64_t m = 0;
  if (ReadNumber(v, &j, &m)) *inner = m;
}

bool StartsWithText(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

void IncidentRecorder::OnProcessExit(const ProcessExit& x, const LineState& state, Job* job,
                                     LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  // Kubernetes prints Reason and Exit Code on neighbouring lines: one exit. A pod's own reason
  // (`Reason: Evicted` above its containers) waits for the first container's state, a few
  // lines on (Message, Containers:, the container's name, State:), and keeps its reason.
  if (x.reporter == ExitReporter::kKubernetes && src.pending_exit >= 0 &&
      job->incidents.incidents[src.pending_exit].reporter == ExitReporter::kKubernetes) {
    Incident& prev = job->incidents.incidents[src.pending_exit];
    const uint64_t window = prev.exit_code ? 3 : kPodReasonWindow;
    if (ctx.line <= src.pending_line + window && !(prev.exit_code && x.exit_code)) {
      if (x.exit_code) prev.exit_code = x.exit_code;
      if (x.signal > 0 && prev.signal == 0) prev.signal = x.signal;
      if (!x.reason.empty() && prev.message.empty()) prev.message = std::string(x.reason);
      prev.oom = prev.oom || x.oom;
      // The pod's reason has no time of its own; its container's state has one.
      if (prev.time_inherited || !prev.time) StampOwnTime(ctx, src, &prev);
      src.pending_line = ctx.line;
      if (prev.exit_code) src.pending_exit = -1;
      return;
    }
  }
  if (x.reporter == ExitReporter::kTestHarness) {
    src.harness_rank = x.reason == kHarnessRaisedReason ? x.rank : -1;
  }
  if (x.reporter == ExitReporter::kTorchrun || x.reporter == ExitReporter::kDeepSpeed)
    identities_.NoteAgent(ctx);  // a launcher agent reports its workers' ends
  if (x.reporter == ExitReporter::kTorchrun)
    NoteAgentPid(x.pid, /*signal=*/false, ctx, &src, quotes);
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kExit;
  i.reporter = x.reporter;
  i.rank = x.rank >= 0 ? x.rank : LineRank(ctx, -1, &i.rank_from_tag);
  if (x.reporter != ExitReporter::kPython) {
    i.rank = x.rank;
    i.rank_from_tag = false;
  }
  i.local_rank = x.local_rank;
  i.pid = x.pid;
  i.exit_code = x.exit_code;
  i.signal = x.signal;
  i.oom = x.oom;
  i.fatal_signal = x.fatal_signal;
  i.timed_out = x.timed_out;
  i.host = std::string(x.node);
  i.message = std::string(x.reason);
  if (!x.ranks.empty() && x.rank < 0) i.type = "tasks " + std::string(x.ranks);
  if (x.reporter != ExitReporter::kPython && x.reporter != ExitReporter::kKernel) {
    src.failed_seen = true;
  }
  Incident* pushed = Push(std::move(i), ctx, src, job, quotes);
  if (pushed != nullptr && x.reporter == ExitReporter::kKubernetes) {
    src.pending_exit = static_cast<int>(job->incidents.incidents.size()) - 1;
    src.pending_line = ctx.line;
  }
}

void IncidentRecorder::OnLauncherEvent(const LauncherEvent& l, const LineState& state, Job* job,
                                       LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  identities_.NoteAgent(ctx);  // torchelastic's restarts and failure table
  Incident i = BaseIncident(state, *job);
  i.rank = -1;
  switch (l.kind) {
    case LauncherKind::kRestart:
      i.kind = IncidentKind::kRestart;
      i.message = std::string(l.value);
      src.failed_seen = true;
      Push(std::move(i), ctx, src, job, quotes);
      return;
    case LauncherKind::kFailuresHeader:
      src.table = Table::kFailures;
      src.failed_seen = true;
      return;
    case LauncherKind::kRootCauseHeader:
      src.table = Table::kRootCause;
      src.failed_seen = true;
      return;
    case LauncherKind::kTableEntry: {
      if (src.table == Table::kNone) return;
      src.table_traceback = false;
      i.kind = IncidentKind::kExit;
      i.reporter = ExitReporter::kTorchrun;
      i.from_table = true;
      i.table_root_cause = src.table == Table::kRootCause;
      src.table_entry = Push(std::move(i), ctx, src, job, quotes) != nullptr
                            ? static_cast<int>(job->incidents.incidents.size()) - 1
                            : -1;
      src.table_entry_timed = false;
      return;
    }
    case LauncherKind::kTableField: {
      if (l.key == "mpi-process") {
        // "[[41097,1],3]": the rank is the last number.
        std::string_view v = l.value;
        const size_t comma = v.rfind(',');
        i.kind = IncidentKind::kExit;
        i.reporter = ExitReporter::kMpirun;
        if (comma != std::string_view::npos) {
          size_t k = comma + 1;
          int64_t r = -1;
          if (ReadNumber(v, &k, &r) && r < (int64_t{1} << 30)) i.rank = static_cast<int>(r);
        }
        Incident* p = Push(std::move(i), ctx, src, job, quotes);
        src.pending_exit = p ? static_cast<int>(job->incidents.incidents.size()) - 1 : -1;
        src.pending_line = ctx.line;
        src.failed_seen = true;
        return;
      }
      if (l.key == "mpi-exit-code") {
        if (src.pending_exit >= 0 && ctx.line <= src.pending_line + 2) {
          int64_t code = 0, unused = -1;
          NumberAndParen(l.value, "()", &code, &unused);
          if (code < (int64_t{1} << 30)) {
            job->incidents.incidents[src.pending_exit].exit_code = static_cast<int>(code);
          }
        }
        src.pending_exit = -1;
        return;
      }
      // An excerpt of the table without its headers: the fields alone make the entries (a
      // second "time" field starts the next one; the entry line's own stamp, a collector's
      // prefix, is no time field).
      if (l.key == "time" &&
          (src.table_entry < 0 || src.table == Table::kNone || src.table_entry_timed)) {
        if (src.table == Table::kNone) src.table = Table::kFailures;
        i.kind = IncidentKind::kExit;
        i.reporter = ExitReporter::kTorchrun;
        i.from_table = true;
        src.table_entry = Push(std::move(i), ctx, src, job, quotes) != nullptr
                              ? static_cast<int>(job->incidents.incidents.size()) - 1
                              : -1;
        src.table_entry_timed = false;
        src.failed_seen = true;
      }
      if (src.table == Table::kNone || src.table_entry < 0) return;
      Incident& e = job->incidents.incidents[src.table_entry];
      src.table_traceback = false;
      if (l.key == "time") {
        if (std::optional<LogTime> t = ParseLogTime(l.value); t && t->has_date()) {
          // Whole seconds, written when the launcher gave up: never earlier than the lines
          // that name the same failure, so the end of that second.
          e.time = t->Key() + 999999999;
          e.time_inherited = false;
          e.stamp = *t;
          src.table_entry_timed = true;
        }
      } else if (l.key == "host") {
        e.host = std::string(l.value);
      } else if (l.key == "rank") {
        int64_t r = -1, lr = -1;
        NumberAndParen(l.value, "local_rank: ", &r, &lr);
        if (r < (int64_t{1} << 30)) e.rank = static_cast<int>(r);
        if (lr < (int64_t{1} << 30)) e.local_rank = static_cast<int>(lr);
      } else if (l.key == "exitcode") {
        int64_t code = 0, pid = -1;
        NumberAndParen(l.value, "pid: ", &code, &pid);
        if (code > -(int64_t{1} << 30) && code < (int64_t{1} << 30)) {
          e.exit_code = static_cast<int>(code);
          e.signal = SignalFromExitCode(*e.exit_code).value_or(0);
        }
        e.pid = pid;
        e.evidence = quotes->TimedQuote(ctx);
      } else if (l.key == "traceback") {
        if (StartsWithText(l.value, "Traceback")) {
          src.table_traceback = true;
        } else if (!StartsWithText(l.value, "To enable traceback")) {
          e.message = std::string(l.value);  // "Signal 9 (SIGKILL) received by PID 631"
          e.evidence = quotes->TimedQuote(ctx);
        }
      }
      return;
    }
    case LauncherKind::kJobCancelled:
      i.kind = IncidentKind::kJobCancelled;
      i.message = std::string(l.value);
      src.failed_seen = true;
      break;
    case LauncherKind::kOomEvent:
      i.kind = IncidentKind::kOomEvent;
      i.message = std::string(l.value);
      i.oom = true;
      break;
    case LauncherKind::kMpiAbort:
      i.kind = IncidentKind::kLauncherGaveUp;
      i.message = std::string(l.value);
      src.failed_seen = true;
      break;
    case LauncherKind::kKillSent:
      i.kind = IncidentKind::kSignalSent;
      {
        size_t k = 0;
        int64_t pid = -1;
        if (ReadNumber(l.value, &k, &pid)) i.pid = pid;
      }
      i.signal = 9;
      src.failed_seen = true;
      break;
  }
  Push(std::move(i), ctx, src, job, quotes);
}

}  // namespace ncclscope
