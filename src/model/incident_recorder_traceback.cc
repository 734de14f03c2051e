// IncidentRecorder's handlers of Python tracebacks, fatal Python signals and C++ terminate
// (with its what() line).
#include <string>
#include <string_view>
#include <utility>

#include "incident_recorder.h"
#include "incident_recorder_text.h"
#include "ncclscope/base/signals.h"

namespace ncclscope {

using recorder_internal::RankFollowedBy;
using recorder_internal::ReadNumber;
using recorder_internal::Trimmed;

namespace {

/// The text after `what():` on the line that follows "terminate called after throwing".
std::string_view WhatText(std::string_view text) {
  constexpr std::string_view kWhat = "what():";
  const size_t at = text.find(kWhat);
  return at == std::string_view::npos ? std::string_view()
                                      : Trimmed(text.substr(at + kWhat.size()));
}

/// Lines between "terminate called after throwing" and its `what():` line.
constexpr uint64_t kWhatLines = 2;
/// The same, for a `what():` line no framework parser read: processes that abort together
/// interleave their terminate lines, signal reports and what() lines.
constexpr uint64_t kLooseWhatLines = 8;

/// The rank of PyTorch's "[14] is setting up NCCL communicator and retrieving ncclUniqueId from
/// [0] ..." (the rank that fetches); -1 for any other message.
int UniqueIdFetcherRank(std::string_view message) {
  if (message.size() < 3 || message.front() != '[' ||
      message.find("] is setting up NCCL communicator") == std::string_view::npos) {
    return -1;
  }
  return RankFollowedBy(message, 1, ']');
}

/// The rank an application's own NCCL check names at the end of its message ("... at line: 86
/// rank: 0"); -1 when none.
int RankAtEnd(std::string_view text) {
  constexpr std::string_view kRank = "rank: ";
  const size_t at = text.rfind(kRank);
  if (at == std::string_view::npos) return -1;
  size_t k = at + kRank.size();
  int64_t rank = -1;
  if (!ReadNumber(text, &k, &rank) || k != Trimmed(text).size() || rank > 1000000) return -1;
  return static_cast<int>(rank);
}

/// The actor process a Ray task error names: "ray::Worker.compute() (pid=35381,
/// ip=10.223.22.25, actor_id=...)"; false when the message is not one.
bool RayTaskProcess(std::string_view message, int64_t* pid, std::string* host) {
  if (!message.starts_with("ray::")) return false;
  const size_t at = message.find(" (pid=");
  if (at == std::string_view::npos) return false;
  size_t k = at + 6;
  int64_t n = 0;
  if (!ReadNumber(message, &k, &n) || n <= 0) return false;
  *pid = n;
  if (message.substr(k).starts_with(", ip=")) {
    const size_t from = k + 5;
    const size_t end = message.find_first_of(",)", from);
    if (end != std::string_view::npos && end > from)
      *host = std::string(message.substr(from, end - from));
  }
  return true;
}

std::string FrameText(const ncclscope::Traceback& t) {
  std::string_view file = t.file;
  const size_t slash = file.rfind('/');
  if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
  std::string s = std::string(file) + ":" + std::to_string(t.line);
  if (!t.function.empty()) s += " in " + std::string(t.function);
  return s;
}

}  // namespace

void IncidentRecorder::NoteTerminateWhat(const EventContext& ctx, int rank, bool rank_from_tag,
                                         SourceState* src, Job* job) {
  if (src->last_terminate < 0 || ctx.line > src->last_terminate_line + kWhatLines) return;
  const std::string_view what = WhatText(ctx.text);
  if (what.empty()) return;
  Incident& t = job->incidents.incidents[src->last_terminate];
  // The rank the what() text states ("[PG ID 0 ... Rank 0] Process group watchdog thread
  // terminated ...") names the process better than a launcher's tag over the terminate line,
  // which may cover a node's processes (srun -l, mpirun --tag-output).
  if (rank >= 0 && (t.rank < 0 || (t.rank_from_tag && !rank_from_tag))) {
    t.rank = rank;
    t.rank_from_tag = rank_from_tag;
  }
  if (t.message.empty()) t.message = std::string(what);
  src->last_terminate = -1;
}

void IncidentRecorder::NoteLooseWhat(const EventContext& ctx, std::string_view what, int rank,
                                     Job* job) {
  // The earliest terminate of this input, a few lines up, that has no text yet.
  ChunkedVector<Incident>& incidents = job->incidents.incidents;
  Incident* found = nullptr;
  for (size_t k = incidents.size(); k-- > 0;) {
    Incident& i = incidents[k];
    if (i.evidence.source != ctx.source || i.evidence.line + kLooseWhatLines < ctx.line) break;
    if (i.kind == IncidentKind::kCppTerminate && i.message.empty()) found = &i;
  }
  if (found == nullptr) return;
  found->message = std::string(what);
  if (found->rank < 0) found->rank = rank >= 0 ? rank : RankAtEnd(what);
}

void IncidentRecorder::OnTraceback(const ncclscope::Traceback& t, const LineState& state, Job* job,
                                   LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  // Lines without a rank of their own after the test harness named a raising rank are its.
  bool tagged = false;
  const int line_rank = LineRank(ctx, -1, &tagged);
  const int rank = line_rank >= 0 ? line_rank : src.harness_rank;
  if (src.table_traceback && src.table_entry >= 0 && rank < 0) {
    Incident& e = job->incidents.incidents[src.table_entry];
    if (t.kind == TracebackKind::kFrame) {
      e.frame = FrameText(t);
    } else if (t.kind == TracebackKind::kException) {
      e.type = std::string(t.type);
      e.message = std::string(t.message);
      e.evidence = quotes->TimedQuote(ctx);
    }
    return;
  }
  Traceback& tb = src.tracebacks[rank];
  switch (t.kind) {
    case TracebackKind::kStart:
      tb = Traceback{true, {}};
      return;
    case TracebackKind::kFrame:
      if (tb.started) tb.frame = FrameText(t);
      return;
    case TracebackKind::kException: {
      Incident i = BaseIncident(state, *job);
      i.kind = IncidentKind::kException;
      i.rank = rank >= 0 ? rank : UniqueIdFetcherRank(t.message);
      i.rank_from_tag = tagged;  // then rank is the line's
      i.type = std::string(t.type);
      i.message = std::string(t.message);
      if (tb.started) i.frame = tb.frame;
      // A Ray task error names the actor process that raised it.
      if (i.pid < 0) RayTaskProcess(t.message, &i.pid, &i.host);
      src.tracebacks.erase(rank);
      if (rank == src.harness_rank) src.harness_rank = -1;
      // The launcher's own traceback ends in ChildFailedError (a framework event): an
      // exception here is a worker's (or a lone script's).
      Push(std::move(i), ctx, src, job, quotes);
      return;
    }
    case TracebackKind::kFatalSignal: {
      Incident i = BaseIncident(state, *job);
      i.kind = IncidentKind::kExit;
      i.reporter = ExitReporter::kPython;
      i.rank = rank;
      i.rank_from_tag = tagged;  // then rank is the line's
      i.signal = SignalFromText(t.type);
      i.message = "Fatal Python error: " + std::string(t.type);
      Push(std::move(i), ctx, src, job, quotes);
      return;
    }
    case TracebackKind::kCppTerminate: {
      Incident i = BaseIncident(state, *job);
      i.kind = IncidentKind::kCppTerminate;
      i.rank = rank;
      i.rank_from_tag = tagged;  // then rank is the line's
      i.type = std::string(t.type);
      if (Push(std::move(i), ctx, src, job, quotes) != nullptr) {
        src.last_terminate = static_cast<int>(job->incidents.incidents.size()) - 1;
        src.last_terminate_line = ctx.line;
      }
      return;
    }
    case TracebackKind::kCppWhat:
      NoteLooseWhat(ctx, t.message, rank, job);
      return;
  }
}

}  // namespace ncclscope
