// IncidentRecorder's handlers of PyTorch's lines: NCCL errors raised in Python and their "Last
// error:" detail, the ProcessGroupNCCL watchdog (timeouts, work progress, the failed collective's
// stack, the desync report), torchrun's and the framework's other events.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "incident_recorder.h"
#include "incident_recorder_text.h"
#include "ncclscope/base/signals.h"
#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/timeline.h"

namespace ncclscope {

using recorder_internal::Trimmed;

namespace {

/// The detail PyTorch prints after "Last error:" when it is glued to the same line (newlines
/// lost in a paste, a terminal that joined the lines): the text after the marker, without a
/// launcher's task label before it ("10: socketStartConnect: ...") and without the C++ stack
/// that may follow it. Empty when the line has no such detail.
std::string_view GluedLastError(std::string_view text) {
  constexpr std::string_view kMark = "Last error:";
  const size_t at = text.find(kMark);
  if (at == std::string_view::npos) return {};
  std::string_view rest = Trimmed(text.substr(at + kMark.size()));
  size_t k = 0;
  while (k < rest.size() && rest[k] >= '0' && rest[k] <= '9') ++k;
  if (k > 0 && k + 1 < rest.size() && rest[k] == ':' && rest[k + 1] == ' ') {
    rest = Trimmed(rest.substr(k + 1));
  }
  for (std::string_view end :
       {std::string_view("Exception raised from"), std::string_view(" frame #")}) {
    if (const size_t e = rest.find(end); e != std::string_view::npos) rest = rest.substr(0, e);
  }
  return Trimmed(rest);
}

/// Whether the exception a terminated ProcessGroupNCCL watchdog names is an error it found in an
/// NCCL work ("CUDA error: an illegal memory access was encountered", "NCCL error: unhandled
/// cuda error ..."), not its own timeout ("[Rank 1] Watchdog caught collective operation
/// timeout: ...", counted from the timeout line).
bool IsWatchdogFoundError(std::string_view detail) {
  if (detail.find("Watchdog caught") != std::string_view::npos ||
      detail.find("timed out") != std::string_view::npos ||
      detail.find("timeout") != std::string_view::npos) {
    return false;
  }
  static constexpr std::string_view kErrors[] = {
      "CUDA error",      "NCCL error",        "DistBackendError", "ncclUnhandledCudaError",
      "ncclSystemError", "ncclInternalError", "ncclInvalidUsage", "ncclRemoteError"};
  for (std::string_view e : kErrors) {
    if (detail.find(e) != std::string_view::npos) return true;
  }
  return false;
}

/// Lines between an NCCL error raised in Python and PyTorch's "Last error:" detail (the
/// exception line, "ncclSystemError: ...", "Last error:", the detail).
constexpr uint64_t kLastErrorLines = 4;
/// The same where a prefix shows that the detail comes from the process that raised the error:
/// the lines of other workers printed in between (the parser allows 16) do not count.
constexpr uint64_t kSameOriginLastErrorLines = kLastErrorLines + 16;

}  // namespace

int IncidentRecorder::FailedWorkOf(const Job& job, uint32_t source, int rank) {
  // The stack follows the rank's timeout or async error by a few lines (the dump waits for the
  // other ranks' signals): the latest such incident of the rank in this input.
  constexpr size_t kLookBack = 64;
  const ChunkedVector<Incident>& all = job.incidents.incidents;
  int error = -1;
  for (size_t k = all.size(), seen = 0; k-- > 0 && seen < kLookBack; ++seen) {
    const Incident& i = all[k];
    if (rank < 0 || i.rank != rank || i.evidence.source != source) continue;
    if (i.kind == IncidentKind::kWatchdogTimeout) return static_cast<int>(k);
    if (i.kind == IncidentKind::kNcclError && error < 0) error = static_cast<int>(k);
  }
  return error;
}

void IncidentRecorder::NoteStackFrame(const FrameworkEvent& f, const EventContext& ctx,
                                      SourceState* src, Job* job) {
  // Frames are consecutive lines under their header.
  if (src->stack_incident < 0 || ctx.line != src->stack_line + 1) {
    src->stack_incident = -1;
    return;
  }
  src->stack_line = ctx.line;
  const std::string_view text = f.detail;  // "main from /work/train.py:139"
  const size_t from = text.find(" from ");
  const std::string_view name = text.substr(0, from);
  const std::string_view path = text.substr(from + 6);
  if (f.seq == 0) {
    src->stack_api.assign(name);
  } else if (src->stack_caller.empty() && path.find("/torch/") == std::string_view::npos) {
    // The first caller outside PyTorch: where the program called the collective.
    const size_t slash = path.rfind('/');
    src->stack_caller = fmt::format(
        "{} in {}", slash == std::string_view::npos ? path : path.substr(slash + 1), name);
  }
  if (src->stack_api.empty()) return;
  Incident& work = job->incidents.incidents[static_cast<size_t>(src->stack_incident)];
  work.frame = src->stack_caller.empty()
                   ? src->stack_api
                   : fmt::format("{}, called at {}", src->stack_api, src->stack_caller);
}

void IncidentRecorder::NoteDesyncCulprits(const FrameworkEvent& f, const Incident& base,
                                          const EventContext& ctx, const SourceState& src, Job* job,
                                          LineQuotes* quotes) {
  std::string_view type = kDesyncNeverJoined;
  std::string what = "never joined any collective";
  if (f.kind == FrameworkKind::kDesyncStuck) {
    type = kDesyncJoinedNotFinished;
    what = fmt::format("joined but did not finish collective #{}", f.seq);
  } else if (f.kind == FrameworkKind::kDesyncLagging) {
    type = kDesyncNotJoined;
    what = fmt::format("did not join collective #{} (finished the one before)", f.seq);
  } else if (f.kind == FrameworkKind::kStallMissing) {
    type = kStallMissingRank;
    what = "did not submit a tensor the other ranks submitted and wait on";
  }
  // "0, 1, 2": one incident per blamed rank; the line is the reporting rank's, not theirs. A
  // Horovod rank line whose number the input layer took for a launcher's label has it in rank.
  const std::string label_rank =
      f.detail.empty() && f.rank >= 0 ? std::to_string(f.rank) : std::string();
  std::string_view ranks = f.detail.empty() ? std::string_view(label_rank) : f.detail;
  while (!ranks.empty()) {
    const size_t comma = ranks.find(',');
    const std::optional<int64_t> rank = ParseInt64(TrimWhitespace(ranks.substr(0, comma)));
    if (rank && *rank >= 0 && *rank <= 1000000) {
      Incident i = base;
      i.kind = IncidentKind::kDesyncCulprit;
      i.rank = static_cast<int>(*rank);
      i.host.clear();
      i.pid = -1;
      i.seq = f.seq;
      i.type = std::string(type);
      i.message = what;
      Push(std::move(i), ctx, src, job, quotes);
    }
    if (comma == std::string_view::npos) break;
    ranks.remove_prefix(comma + 1);
  }
}

void IncidentRecorder::NoteLastErrorDetail(const EventContext& ctx, std::string_view detail,
                                           int rank, const SourceState& src, Job* job,
                                           LineQuotes* quotes) {
  if (src.last_raised < 0) return;
  const LineMeta* meta = ctx.meta;
  const bool same_origin =
      meta != nullptr &&
      ((meta->origin_pid != 0 && meta->origin_pid == src.last_raised_origin_pid) ||
       (meta->launcher_rank >= 0 && meta->launcher_rank == src.last_raised_launcher_rank));
  if (ctx.line > src.last_raised_line + (same_origin ? kSameOriginLastErrorLines : kLastErrorLines))
    return;
  Incident& raised = job->incidents.incidents[src.last_raised];
  if (!raised.detail.empty() || (rank >= 0 && raised.rank >= 0 && rank != raised.rank)) return;
  raised.detail = std::string(detail);
  raised.detail_evidence = quotes->TimedQuote(ctx);
  raised.cascade = raised.cascade || IsCascadeMessage(detail);
}

void IncidentRecorder::OnFrameworkNcclError(const FrameworkNcclError& e, const LineState& state,
                                            Job* job, LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kNcclError;
  i.rank = LineRank(ctx, -1, &i.rank_from_tag);
  if (i.rank < 0 && !e.exception.empty()) i.rank = src.harness_rank;
  if (!e.exception.empty()) src.harness_rank = -1;  // the harness's traceback ends here
  i.type = std::string(e.exception);
  i.message = std::string(e.reason);
  i.cascade = IsCascadeMessage(e.reason);
  auto tb = src.tracebacks.find(i.rank);
  if (!e.exception.empty() && tb != src.tracebacks.end() && tb->second.started) {
    i.frame = tb->second.frame;
    src.tracebacks.erase(tb);
  }
  if (const std::string_view glued = GluedLastError(ctx.text); !glued.empty()) {
    i.detail = std::string(glued);
    i.detail_evidence = quotes->TimedQuote(ctx);
    i.cascade = i.cascade || IsCascadeMessage(glued);
  } else if (!e.last_error.empty()) {
    i.detail = std::string(e.last_error);
    i.detail_evidence = quotes->TimedQuote(ctx);
    i.cascade = i.cascade || IsCascadeMessage(e.last_error);
  }
  // A line without NCCL's head (nccl-tests' "HOST: Test NCCL failure", a pdsh prefix before
  // PyTorch's error) names its host only in the prefix.
  if (i.host.empty() && ctx.meta != nullptr) i.host = std::string(ctx.meta->origin_host);
  // A worker's prefix (`(VllmWorkerProcess pid=3985)`, Ray's `pid=N`) names its process.
  // A collector's pid (syslog, journald) may be the service's launcher's: only a pid the NCCL
  // lines under it share is the writer's.
  if (i.pid < 0 && ctx.meta != nullptr && ctx.meta->origin_pid != 0 &&
      identities_.PidIsWriter(ctx.source, ctx.meta->origin_pid)) {
    i.pid = ctx.meta->origin_pid;
  }
  NoteTerminateWhat(ctx, i.rank, i.rank_from_tag, &src, job);
  if (Push(std::move(i), ctx, src, job, quotes) != nullptr) {
    src.last_raised = static_cast<int>(job->incidents.incidents.size()) - 1;
    src.last_raised_line = ctx.line;
    src.last_raised_origin_pid = ctx.meta != nullptr ? ctx.meta->origin_pid : 0;
    src.last_raised_launcher_rank = ctx.meta != nullptr ? ctx.meta->launcher_rank : -1;
  }
}

void IncidentRecorder::OnWatchdogTimeout(const WatchdogTimeout& w, const LineState& state, Job* job,
                                         LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  bool tagged = false;
  const int rank = LineRank(ctx, w.rank, &tagged);
  // The same timeout again, whole: the parser joined a wrapped line with its continuation.
  if (src.cut_timeout >= 0 && w.seq >= 0 && ctx.line <= src.cut_timeout_line + kCutJoinLines) {
    Incident& cut = job->incidents.incidents[src.cut_timeout];
    if (cut.kind == IncidentKind::kWatchdogTimeout && cut.rank == rank && cut.seq < 0) {
      cut.seq = w.seq;
      cut.numel = w.numel_in;
      cut.op = std::string(w.op_type);
      src.cut_timeout = -1;
      return;
    }
  }
  if (auto it = src.progress_timeout.find(rank); it != src.progress_timeout.end()) {
    Incident& known = job->incidents.incidents[static_cast<size_t>(it->second)];
    if (known.kind == IncidentKind::kWatchdogTimeout && known.seq == w.seq) {
      known.op = std::string(w.op_type);
      known.numel = w.numel_in;
      return;
    }
  }
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kWatchdogTimeout;
  i.rank = rank;
  i.rank_from_tag = tagged;
  i.seq = w.seq;
  i.numel = w.numel_in;
  i.op = std::string(w.op_type);
  NoteTerminateWhat(ctx, i.rank, i.rank_from_tag, &src, job);
  if (Push(std::move(i), ctx, src, job, quotes) != nullptr && w.seq < 0) {
    src.cut_timeout = static_cast<int>(job->incidents.incidents.size()) - 1;
    src.cut_timeout_line = ctx.line;
  }
}

void IncidentRecorder::OnWorkProgress(const WorkProgress& p, const LineState& state, Job* job,
                                      LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kProgress;
  i.rank = LineRank(ctx, p.rank, &i.rank_from_tag);
  i.pg = p.pg_id;
  i.seq = p.failed_seq;
  i.last_enqueued = p.last_enqueued;
  i.last_completed = p.last_completed;
  Incident timeout = i;
  Push(std::move(i), ctx, src, job, quotes);
  if (!p.timeout || timeout.rank < 0 || p.failed_seq < 0 ||
      src.progress_timeout.count(timeout.rank) > 0) {
    return;
  }
  for (const Incident& k : job->incidents.incidents) {
    // The rank's "Watchdog caught ..." line for this work came first: it is the timeout.
    if (k.kind == IncidentKind::kWatchdogTimeout && k.rank == timeout.rank &&
        k.seq == p.failed_seq && k.evidence.source == ctx.source) {
      return;
    }
  }
  // PyTorch 2.5+ says the watchdog timed out here; its "Watchdog caught ..." line (when the
  // input has it) adds the operation to this incident.
  timeout.kind = IncidentKind::kWatchdogTimeout;
  timeout.last_enqueued = -1;
  timeout.last_completed = -1;
  const int rank = timeout.rank;
  if (Push(std::move(timeout), ctx, src, job, quotes) != nullptr) {
    src.progress_timeout[rank] = static_cast<int>(job->incidents.incidents.size()) - 1;
  }
}

void IncidentRecorder::OnFrameworkEvent(const FrameworkEvent& f, const LineState& state, Job* job,
                                        LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  Incident i = BaseIncident(state, *job);
  i.rank = LineRank(ctx, f.rank, &i.rank_from_tag);
  i.message = std::string(f.detail);
  switch (f.kind) {
    case FrameworkKind::kProcessSignal:
      identities_.NoteAgent(ctx);  // torchrun's agent signals its workers
      if (NoteAgentPid(f.pid, /*signal=*/true, ctx, &src, quotes)) i.attempt = src.attempt;
      i.kind = IncidentKind::kSignalSent;
      i.pid = f.pid;
      i.signal = SignalFromText(f.detail);
      i.rank = f.pid >= 0 ? -1 : i.rank;
      src.failed_seen = true;
      break;
    case FrameworkKind::kChildFailed:
      identities_.NoteAgent(ctx);  // the agent's own exception
      i.kind = IncidentKind::kLauncherGaveUp;
      src.failed_seen = true;
      break;
    case FrameworkKind::kDesyncStuck:
    case FrameworkKind::kDesyncLagging:
    case FrameworkKind::kDesyncNeverJoined:
    case FrameworkKind::kStallMissing:
      NoteDesyncCulprits(f, BaseIncident(state, *job), ctx, src, job, quotes);
      return;
    case FrameworkKind::kWatchdogTerminated:
      // "Process group watchdog thread terminated with exception: CUDA error: an illegal
      // memory access was encountered": the watchdog found the error of an NCCL work (no
      // timeout): the rank's own error, then its teardown.
      // A peer-gone error ("remote process exited") stays the teardown: NCCL's own WARN
      // names the peer better, and it is no cause of this rank's.
      if (IsWatchdogFoundError(f.detail) && !IsCascadeMessage(f.detail)) {
        Incident error = i;
        error.kind = IncidentKind::kNcclError;
        std::string_view what = f.detail;
        if (what.starts_with("NCCL error: ")) what.remove_prefix(12);
        error.message = std::string(what);
        Push(std::move(error), ctx, src, job, quotes);
      }
      [[fallthrough]];
    case FrameworkKind::kTakingDown:
    case FrameworkKind::kCommAborted:
      i.kind = IncidentKind::kTeardown;
      i.message = std::string(ctx.body);
      NoteTerminateWhat(ctx, i.rank, i.rank_from_tag, &src, job);
      break;
    case FrameworkKind::kHeartbeatTimeout:
      i.kind = IncidentKind::kHeartbeat;
      i.message = std::string(ctx.body);
      break;
    case FrameworkKind::kInitTimeout:
      i.kind = IncidentKind::kInitTimeout;
      i.message = std::string(ctx.body);
      break;
    case FrameworkKind::kCollectiveStack:
      src.stack_incident = FailedWorkOf(*job, ctx.source, i.rank);
      src.stack_line = ctx.line;
      src.stack_api.clear();
      src.stack_caller.clear();
      return;
    case FrameworkKind::kCollectiveFrame:
      NoteStackFrame(f, ctx, &src, job);
      return;
    case FrameworkKind::kExitWithoutDestroy:
      i.kind = IncidentKind::kOrderlyExit;
      i.type = kExitWarning;
      i.message = "destroy_process_group() was not called before program exit";
      if (state.inst >= 0) job->incidents.instances[state.inst].exit_noted = true;
      break;
    default:
      return;
  }
  Push(std::move(i), ctx, src, job, quotes);
}

}  // namespace ncclscope
