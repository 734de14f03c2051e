#include "ncclscope/triage/failure_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ncclscope/base/signals.h"
#include "ncclscope/model/log_time.h"
#include "triage_internal.h"

namespace ncclscope {
namespace {

std::string_view ReporterName(ExitReporter r) {
  switch (r) {
    case ExitReporter::kTorchrun:
      return "torchrun";
    case ExitReporter::kDeepSpeed:
      return "deepspeed";
    case ExitReporter::kMpirun:
      return "mpirun";
    case ExitReporter::kSlurm:
      return "slurm";
    case ExitReporter::kKubernetes:
      return "kubernetes";
    case ExitReporter::kKernel:
      return "kernel";
    case ExitReporter::kPython:
      return "python";
    case ExitReporter::kRay:
      return "ray";
    case ExitReporter::kVllm:
      return "vllm";
    case ExitReporter::kTestHarness:
      return "test harness";
  }
  return "?";
}

std::string Summary(const Incident& i) {
  switch (i.kind) {
    case IncidentKind::kExit: {
      std::string s = i.signal > 0 ? fmt::format("ended by {}", SignalName(i.signal).empty()
                                                                     ? fmt::format("signal {}", i.signal)
                                                                     : std::string(SignalName(i.signal)))
                      : i.exit_code ? fmt::format("exited with code {}", *i.exit_code)
                                    : std::string("ended");
      if (i.oom) s += " (OOM)";
      // Kubernetes' reason when it says more than the code: "Evicted", "DeadlineExceeded".
      if (i.reporter == ExitReporter::kKubernetes && !i.message.empty() && !i.oom &&
          i.message != "Error") {
        s += fmt::format(" ({})", i.message);
      }
      s += fmt::format(" [{}{}]", ReporterName(i.reporter), i.from_table ? " summary" : "");
      if (!i.type.empty() && i.from_table) s += ": " + i.type + ": " + i.message;
      return s;
    }
    case IncidentKind::kSignalSent:
      return fmt::format("launcher sends {} to pid {}", i.message.empty() ? "a signal" : i.message,
                         i.pid);
    case IncidentKind::kException:
      return fmt::format("{}: {}{}", i.type, i.message,
                         i.frame.empty() ? std::string() : " (at " + i.frame + ")");
    case IncidentKind::kCppTerminate:
      return fmt::format("uncaught C++ exception {}", i.type);
    case IncidentKind::kNcclWarn:
      return fmt::format("NCCL WARN {}", i.message);
    case IncidentKind::kNcclError:
      return fmt::format("NCCL error{}: {}", i.type.empty() ? "" : " raised as " + i.type,
                         i.message);
    case IncidentKind::kWatchdogTimeout:
      return fmt::format("watchdog timeout in SeqNum {} {}{}", i.seq, i.op,
                         i.frame.empty() ? std::string() : " (" + i.frame + ")");
    case IncidentKind::kProgress:
      return fmt::format("progress: last enqueued {}, last completed {}", i.last_enqueued,
                         i.last_completed);
    case IncidentKind::kTeardown:
      return fmt::format("teardown: {}", i.message);
    case IncidentKind::kHeartbeat:
      return fmt::format("heartbeat/watchdog stuck: {}", i.message);
    case IncidentKind::kInitTimeout:
      return "NCCL init timed out";
    case IncidentKind::kRestart:
      return fmt::format("launcher restarts the workers{}",
                         i.message.empty() ? std::string() : " (" + i.message + " attempts left)");
    case IncidentKind::kJobCancelled:
      return fmt::format("job cancelled: {}", i.message);
    case IncidentKind::kOomEvent:
      return fmt::format("scheduler: {}", i.message);
    case IncidentKind::kLauncherGaveUp:
      return i.message.empty() ? std::string("launcher gives up (ChildFailedError)")
                               : "launcher gives up: " + i.message;
    case IncidentKind::kPeerClosed:
      return fmt::format("pid {} saw local rank {} close its connection", i.pid,
                         i.peer_local_rank);
    case IncidentKind::kDesyncCulprit:
      return fmt::format("PyTorch's desync report: rank {} {}", i.rank, i.message);
    case IncidentKind::kOrderlyExit:
      if (i.type == kExitWarning) {
        return "exits (PyTorch: destroy_process_group() was not called before program exit)";
      }
      return fmt::format("leaves: NCCL {} its world communicator ({})",
                         i.type == kExitDestroy ? "destroys" : "aborts", i.message);
  }
  return {};
}

}  // namespace

std::vector<const Incident*> OrderedIncidents(const Job& job, int attempt) {
  std::vector<const Incident*> v;
  for (const Incident& i : job.incidents.incidents) {
    if (i.attempt == attempt) v.push_back(&i);
  }
  std::stable_sort(v.begin(), v.end(), &triage_internal::AttemptView::Before);
  return v;
}

std::vector<TimelineRow> BuildFailureTimeline(const Job& job, const AttemptCause& attempt) {
  std::vector<TimelineRow> rows;
  std::set<std::pair<uint32_t, uint64_t>> cause(attempt.cause.cause_lines.begin(),
                                                attempt.cause.cause_lines.end());
  for (const Evidence& e : attempt.cause.evidence) cause.insert({e.source, e.line});
  std::set<std::pair<uint32_t, uint64_t>> fallout;
  for (const Fallout& f : attempt.cause.fallout) fallout.insert({f.evidence.source, f.evidence.line});
  const std::optional<int64_t> t0 = attempt.cause.time;
  bool marked = false;
  for (const Incident* i : OrderedIncidents(job, attempt.info.index)) {
    if (i->kind == IncidentKind::kProgress) continue;  // detail of the watchdog table
    // A process leaving is a failure's step only where the cause names it (a rank that exited
    // early); otherwise it is every rank's normal end or a failure's teardown.
    if (i->kind == IncidentKind::kOrderlyExit &&
        cause.count({i->evidence.source, i->evidence.line}) == 0) {
      continue;
    }
    TimelineRow r;
    r.incident = i;
    r.time_text = i->time_text;
    if (r.time_text.empty() && i->time) {
      LogTime t;
      const int64_t day = int64_t{86400} * 1000000000;
      t.month = static_cast<int>(*i->time / day / 31) + 1;
      t.day = static_cast<int>(*i->time / day % 31) + 1;
      t.nanos = *i->time % day;
      r.time_text = "~" + t.Format();
    }
    if (t0 && i->time) r.delta = FormatDelta(*t0, *i->time);
    r.summary = Summary(*i);
    const auto key = std::make_pair(i->evidence.source, i->evidence.line);
    if (!marked && cause.count(key)) {
      r.first_failure = true;
      marked = true;
    }
    r.fallout = fallout.count(key) > 0;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace ncclscope
