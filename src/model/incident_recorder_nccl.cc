// IncidentRecorder's handlers of NCCL's own lines: communicator init and end, the proxy's
// peer-closed lines, WARN lines, a NET plugin failure.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "incident_recorder.h"
#include "incident_recorder_text.h"
#include "ncclscope/model/timeline.h"

namespace ncclscope {

using recorder_internal::RankFollowedBy;
using recorder_internal::ReadNumber;
using recorder_internal::Trimmed;

namespace {

/// "[Proxy Service 14] Failed to execute operation Connect from rank 14, retcode 2": the proxy
/// thread of rank 14 serving its own rank's request, printed by rank 14's process. -1 otherwise
/// (a request from another rank names that rank, not the printer).
int ProxyServiceRank(std::string_view message) {
  constexpr std::string_view kService = "[Proxy Service ";
  if (message.substr(0, kService.size()) != kService) return -1;
  size_t i = kService.size();
  int64_t service = -1;
  if (!ReadNumber(message, &i, &service)) return -1;
  const size_t from = message.find(" from rank ", i);
  if (from == std::string_view::npos) return -1;
  size_t j = from + std::string_view(" from rank ").size();
  int64_t requester = -1;
  if (!ReadNumber(message, &j, &requester) || requester != service) return -1;
  return static_cast<int>(service);
}

/// "Invalid rank requested : 1/1" (init.cc): the rank the printing process asked to be, out of
/// the communicator's size; -1 for any other message.
int InvalidRankRequested(std::string_view message) {
  constexpr std::string_view kInvalid = "Invalid rank requested : ";
  const size_t at = message.find(kInvalid);
  return at == std::string_view::npos ? -1 : RankFollowedBy(message, at + kInvalid.size(), '/');
}

/// "rank 1 failed to get CUDA IPC handle to device 0 : 11 invalid argument" (NCCL 2.2-2.3's
/// transport/p2p.cu; NCCL 1's "rank 12 failed to allocate device buffer"): NCCL's own rank of
/// the printing process, which the message names first; -1 for any other message.
int RankThatFailed(std::string_view message) {
  constexpr std::string_view kRank = "rank ";
  if (message.substr(0, kRank.size()) != kRank) return -1;
  size_t i = kRank.size();
  int64_t rank = -1;
  if (!ReadNumber(message, &i, &rank) || rank > 1000000) return -1;
  return message.substr(i, 11) == " failed to " ? static_cast<int>(rank) : -1;
}

std::string CommIdText(uint64_t id) { return fmt::format("{:#018x}", id); }

}  // namespace

void IncidentRecorder::OnCommInit(const CommInit& ci, const LineState& state, Job* job,
                                  LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  if (state.inst < 0 || !ci.parent.empty() || ci.rank < 0) return;
  ProcessInstance& pi = job->incidents.instances[state.inst];
  const bool from_start = pi.world_init.line != 0;  // world and rank come from an Init START
  if (ci.phase == InitPhase::kStart &&
      (ci.nranks > pi.world || (!from_start && ci.nranks == pi.world))) {
    pi.world = ci.nranks;
    pi.rank = ci.rank;
    pi.world_comm = ci.comm_id ? CommIdText(*ci.comm_id) : std::string();
    pi.world_init = quotes->TimedQuote(ctx);
  } else if (ci.phase == InitPhase::kComplete && !from_start && ci.nranks > pi.world) {
    // An excerpt that begins after the Init START lines: "comm 0x.. rank 3 nranks 4 ... - Init
    // COMPLETE" states the rank as well (the line names no parent, so a split child's would
    // read as a top-level one; the largest communicator's wins).
    pi.world = ci.nranks;
    pi.rank = ci.rank;
    pi.world_comm = ci.comm_id ? CommIdText(*ci.comm_id) : std::string();
  }
}

void IncidentRecorder::OnCommEnd(const CommEnd& end, const LineState& state, Job* job,
                                 LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  if (state.inst < 0) return;
  ProcessInstance& pi = job->incidents.instances[state.inst];
  if (end.kind == CommEndKind::kDestroy) pi.destroyed_comm = true;
  // An excerpt that starts after init: the end of a communicator states the process's rank in
  // it ("comm 0x.. rank 1 nranks 4 ... - Abort COMPLETE"); an Init START line, when there is
  // one, says more and wins.
  if (pi.world_init.line == 0 && end.rank >= 0 && end.nranks > pi.world) {
    pi.world = end.nranks;
    pi.rank = end.rank;
  }
  // The end of its world communicator: the process is leaving the job (at its normal end, as
  // a failure's teardown, or early; the triage tells them apart by what came before).
  const bool ends = end.kind == CommEndKind::kDestroy || end.kind == CommEndKind::kAbort ||
                    end.kind == CommEndKind::kAbortStart;
  if (ends && !pi.exit_noted && pi.world > 0 && end.nranks == pi.world && end.rank == pi.rank) {
    pi.exit_noted = true;
    Incident i = BaseIncident(state, *job);
    i.kind = IncidentKind::kOrderlyExit;
    // An abort is also how PyTorch tears a communicator down after an error: weaker evidence
    // of a normal exit than a destroy.
    i.type = end.kind == CommEndKind::kDestroy ? kExitDestroy : kExitAbort;
    i.message = std::string(ctx.body);
    Push(std::move(i), ctx, src, job, quotes);
  }
}

void IncidentRecorder::OnProxyPeerClosed(const ProxyPeerClosed& pc, const LineState& state,
                                         Job* job, LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  // The first line of each peer per process: one per communicator follows when it has several.
  if (state.inst < 0 || !peer_closes_.emplace(state.inst, pc.local_rank).second) return;
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kPeerClosed;
  i.peer_local_rank = pc.local_rank;
  i.message = std::string(ctx.body);
  Push(std::move(i), ctx, src, job, quotes);
}

void IncidentRecorder::OnWarning(const Warning& w, const LineState& state, Job* job,
                                 LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  if (ctx.level == Level::kTorch) {
    NoteLastErrorDetail(ctx, w.message, LineRank(ctx, -1), src, job, quotes);
    // PyTorch's "Last error:" copy of a WARN printed before: not a second incident.
    if (warn_keys_.count(WarnKey(state.attempt, w.message)) > 0) return;
  }
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kNcclWarn;
  i.type = std::string(ctx.location);
  i.message = std::string(w.message);
  i.cascade = IsCascadeMessage(w.message);
  if (i.rank < 0) i.rank = LineRank(ctx, -1, &i.rank_from_tag);
  // Like a connection line, a proxy service's message states the printer's rank (resolved
  // with the others in Finish, unless its lines state several).
  if (const int own = ProxyServiceRank(w.message); own >= 0) NoteStatedRank(ctx, own);
  // NCCL's "Invalid rank requested : R/N" states the rank the printer asked to be.
  if (const int own = InvalidRankRequested(w.message); own >= 0) NoteStatedRank(ctx, own);
  // "rank 1 failed to get CUDA IPC handle to device 0": the printer's own rank.
  if (const int own = RankThatFailed(w.message); own >= 0) NoteStatedRank(ctx, own);
  if (const Incident* kept = Push(std::move(i), ctx, src, job, quotes)) {
    warn_keys_.insert(WarnKey(kept->attempt, kept->message));
  }
}

uint64_t IncidentRecorder::WarnKey(int attempt, std::string_view message) {
  const uint64_t h = std::hash<std::string_view>{}(Trimmed(message));
  return h ^ (static_cast<uint64_t>(static_cast<uint32_t>(attempt)) * 0x9E3779B97F4A7C15ull);
}

void IncidentRecorder::OnNetPluginsFailed(const LineState& state, Job* job, LineQuotes* quotes) {
  const EventContext& ctx = state.ctx;
  SourceState& src = *state.src;
  // "NCCL WARN Failed to initialize any NET plugin": fatal to the init that printed it.
  Incident i = BaseIncident(state, *job);
  i.kind = IncidentKind::kNcclWarn;
  i.type = std::string(ctx.location);
  i.message = std::string(Trimmed(ctx.body));
  if (i.rank < 0) i.rank = LineRank(ctx, -1, &i.rank_from_tag);
  if (const Incident* kept = Push(std::move(i), ctx, src, job, quotes)) {
    warn_keys_.insert(WarnKey(kept->attempt, kept->message));
  }
}

}  // namespace ncclscope
