#include "incident_recorder.h"

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

#include "torchrun_log_dir.h"

namespace ncclscope {
namespace {

/// The first event of a process starting up (not a late line of a known one).
bool IsStartupEvent(const EventData& d) {
  return std::holds_alternative<NcclVersion>(d) || std::holds_alternative<BootstrapInterface>(d) ||
         std::holds_alternative<CudaDriverVersion>(d) || std::holds_alternative<EnvSetting>(d) ||
         std::holds_alternative<PluginEvent>(d) || std::holds_alternative<CommInit>(d) ||
         std::holds_alternative<CommConfig>(d);
}

}  // namespace

IncidentRecorder::SourceState& IncidentRecorder::Source(uint32_t source) {
  if (source >= sources_.size()) sources_.resize(source + 1);
  return sources_[source];
}

int IncidentRecorder::LineRank(const EventContext& ctx, int event_rank, bool* from_tag) const {
  if (from_tag != nullptr) *from_tag = false;
  if (event_rank >= 0) return event_rank;
  if (ctx.torch_rank >= 0) return ctx.torch_rank;
  if (ctx.meta == nullptr || ctx.meta->launcher_rank < 0) return -1;
  const int tag = ctx.meta->launcher_rank;
  if (ctx.meta->launcher_rank_global) return tag;
  if (!identities_.TagIsRank(ctx.source, tag)) return -1;
  if (from_tag != nullptr) *from_tag = true;
  return tag;
}

void IncidentRecorder::GrowAttempts(int attempt, const Evidence& started_by) {
  while (static_cast<int>(attempts_.size()) <= attempt) {
    attempts_.push_back(AttemptInfo{static_cast<int>(attempts_.size()), started_by});
  }
}

void IncidentRecorder::StartAttempt(const EventContext& ctx, SourceState* src, LineQuotes* quotes) {
  ++src->attempt;
  src->failed_seen = false;
  src->agent_pids.clear();
  src->attempt_info = AttemptInfo{src->attempt, quotes->TimedQuote(ctx)};
  GrowAttempts(src->attempt, src->attempt_info.started_by);
}

bool IncidentRecorder::NoteAgentPid(int64_t pid, bool signal, const EventContext& ctx,
                                    SourceState* src, LineQuotes* quotes) {
  // One failure's lines (the agent's signals to the other workers, the failed worker's exit
  // report) come within seconds; a restarted group fails after its workers started again.
  constexpr int64_t kRestartGapNanos = int64_t{5} * 1000000000;
  if (pid <= 0 || PrintedTime(ctx).empty() || !src->last_key) return false;
  const int64_t now = *src->last_key;  // this line's own time (TrackTime)
  const bool restarted = signal && src->failed_seen && !src->agent_pids.empty() &&
                         src->agent_pids.count(pid) == 0 && src->last_agent_key &&
                         now - *src->last_agent_key > kRestartGapNanos;
  if (restarted) StartAttempt(ctx, src, quotes);
  src->agent_pids.insert(pid);
  src->last_agent_key = now;
  return restarted;
}

namespace {

constexpr int64_t kSecondNanos = 1000000000;

/// A stamp of whole seconds ("[2026-11-27 14:16:53]", NCCL's default) means some time in that
/// second. After a line of the same input stamped finer inside the same second (PyTorch's
/// "14:16:53.083"), it was printed later than that: its key is raised to it, so that lines keep
/// their input order within the second instead of sorting before the finer one.
int64_t AfterFinerInSameSecond(int64_t key, const LogTime& lt, std::optional<int64_t> last_key) {
  if (lt.fraction_digits == 0 && last_key && *last_key > key && *last_key - key < kSecondNanos) {
    return *last_key;
  }
  return key;
}

}  // namespace

void IncidentRecorder::TrackTime(const EventContext& ctx, SourceState* src) {
  std::string_view t = PrintedTime(ctx);
  if (t.empty()) return;
  std::optional<LogTime> lt = ParseLogTime(t);
  if (!lt) return;
  if (lt->has_date()) {
    src->last_date = *lt;
    src->last_key = AfterFinerInSameSecond(lt->Key(), *lt, src->last_key);
  } else if (src->last_date) {
    src->last_key = AfterFinerInSameSecond(KeyWithDate(*lt, *src->last_date), *lt, src->last_key);
  }
}

int IncidentRecorder::InstanceOf(const Event& event, SourceState* src, Job* job,
                                 LineQuotes* quotes) {
  const EventContext& ctx = event.ctx;
  const bool banner = std::holds_alternative<NcclVersion>(event.data);
  if (!banner && last_instance_ >= 0 && last_pid_ == ctx.pid && last_host_ == ctx.host) {
    return last_instance_;
  }
  InstanceKey key{std::string(ctx.host), ctx.pid};
  auto it = instance_of_.find(key);
  // A known (host, pid) printing its version banner again is a new process that got the same
  // pid (containers restart with the same pids).
  const bool reborn = it != instance_of_.end() && banner && banner_seen_.count(key) > 0;
  if (banner) banner_seen_.insert(key);
  if (it != instance_of_.end() && !reborn) return Remember(key, it->second);
  if (src->failed_seen && src->any_process && IsStartupEvent(event.data)) {
    StartAttempt(ctx, src, quotes);
  }
  src->any_process = true;
  ProcessInstance inst;
  inst.host = key.host;
  inst.pid = key.pid;
  inst.attempt = src->attempt;
  inst.first = quotes->TimedQuote(ctx);
  job->incidents.instances.push_back(std::move(inst));
  const int idx = static_cast<int>(job->incidents.instances.size()) - 1;
  instance_of_[key] = idx;
  return Remember(key, idx);
}

int IncidentRecorder::Remember(const InstanceKey& key, int instance) {
  last_host_ = key.host;
  last_pid_ = key.pid;
  last_instance_ = instance;
  return instance;
}

void IncidentRecorder::NoteConnectionRank(const EventContext& ctx, const Connection& c,
                                          int proc) {
  if (ctx.host.empty() || ctx.pid == 0) return;
  // NET lines name their side; P2P/SHM lines (and old "Ring" lines) are printed by the sender.
  const int rank = c.direction == ConnDirection::kReceive ? c.dst_rank : c.src_rank;
  if (rank < 0) return;
  NoteStatedRank(ctx, rank, proc);
}

void IncidentRecorder::NoteStatedRank(const EventContext& ctx, int rank, int proc) {
  if (ctx.host.empty() || ctx.pid == 0 || rank < 0) return;
  std::vector<ConnectionRank*>& cache = connection_cache_.by_proc;
  ConnectionRank* entry = proc >= 0 && static_cast<size_t>(proc) < cache.size() ? cache[proc]
                                                                                 : nullptr;
  if (entry == nullptr) {
    entry = &connection_rank_[InstanceKey{std::string(ctx.host), ctx.pid}];
    if (proc >= 0) {
      if (static_cast<size_t>(proc) >= cache.size()) cache.resize(proc + 1, nullptr);
      cache[proc] = entry;
    }
  }
  if (entry->rank < 0) {
    entry->rank = rank;
  } else if (entry->rank != rank) {
    entry->conflict = true;
  }
}

Incident* IncidentRecorder::Push(Incident incident, const EventContext& ctx, const SourceState& src,
                                 Job* job, LineQuotes* quotes) {
  IncidentLog& log = job->incidents;
  // A line of a worker's own file under torchrun's --log-dir is that local rank's.
  if (incident.rank < 0 && incident.local_rank < 0 && incident.pid <= 0 &&
      src.path_local_rank >= 0) {
    incident.local_rank = src.path_local_rank;
  }
  const auto cap_key = std::make_tuple(incident.attempt, incident.pid >= 0 ? incident.pid : -2,
                                       incident.rank, static_cast<int>(incident.kind));
  size_t& n = per_kind_[cap_key];
  size_t& mine = per_process_[std::make_tuple(std::get<0>(cap_key), std::get<1>(cap_key),
                                              std::get<2>(cap_key))];
  // Past the shared budget every process still keeps its first few: a fixed total would keep
  // the first ranks' lines of a large failed job and none of the later ranks'.
  if (n >= kMaxIncidentsPerProcessKind ||
      (log.incidents.size() >= kMaxIncidents && mine >= kIncidentsPerProcess)) {
    ++log.dropped;
    return nullptr;
  }
  ++n;
  ++mine;
  incident.evidence = quotes->TimedQuote(ctx);
  if (!StampOwnTime(ctx, src, &incident) && src.last_key) {
    incident.time = src.last_key;
    incident.time_inherited = true;
  }
  log.incidents.push_back(std::move(incident));
  return &log.incidents.back();
}

bool IncidentRecorder::StampOwnTime(const EventContext& ctx, const SourceState& src,
                                    Incident* incident) {
  std::string_view own = PrintedTime(ctx);
  std::optional<LogTime> lt = own.empty() ? std::nullopt : ParseLogTime(own);
  if (!lt || !(lt->has_date() || src.last_date)) return false;
  incident->time = lt->has_date() ? lt->Key() : KeyWithDate(*lt, *src.last_date);
  // TrackTime already took this line: a whole-second stamp after a finer one of the same second
  // left that finer key in last_key.
  incident->time = AfterFinerInSameSecond(*incident->time, *lt, src.last_key);
  incident->time_inherited = false;
  LogTime shown = *lt;
  if (!lt->has_date()) {
    shown.year = src.last_date->year;
    shown.month = src.last_date->month;
    shown.day = src.last_date->day;
  }
  incident->stamp = shown;
  return true;
}

Incident IncidentRecorder::BaseIncident(const LineState& state, const Job& job) {
  Incident b;
  b.attempt = state.attempt;
  if (state.inst >= 0) {
    const ProcessInstance& pi = job.incidents.instances[state.inst];
    b.host = pi.host;
    b.pid = pi.pid;
    b.rank = pi.rank;
  }
  return b;
}

void IncidentRecorder::AddOther(const Event& event, Job* job, LineQuotes* quotes) {
  const EventData& d = event.data;
  const EventContext& ctx = event.ctx;
  SourceState& src = Source(ctx.source);
  TrackTime(ctx, &src);
  if (attempts_.empty()) attempts_.push_back(AttemptInfo{0, quotes->TimedQuote(ctx)});
  if (!src.path_read) {
    // torchrun --log-dir: `.../attempt_1/0/stderr.log` is local rank 0 in restart attempt 1.
    src.path_read = true;
    if (ctx.source < job->sources.size()) {
      const TorchrunLogDirFile file = ParseTorchrunLogDirPath(job->sources[ctx.source].name);
      src.path_local_rank = file.local_rank;
      if (file.attempt > src.attempt) {
        src.attempt = file.attempt;
        GrowAttempts(file.attempt, quotes->TimedQuote(ctx));
        src.attempt_info = attempts_[static_cast<size_t>(file.attempt)];
      }
    }
  }
  int inst = -1;
  if (!ctx.host.empty()) inst = InstanceOf(event, &src, job, quotes);
  banner_rank_.Note(ctx.source, inst, event);
  const int attempt = inst >= 0 ? job->incidents.instances[inst].attempt : src.attempt;
  const LineState state{ctx, &src, inst, attempt};
  // Any other event ends a torchelastic table (its lines are consecutive).
  const bool table_line = std::holds_alternative<LauncherEvent>(d) ||
                          (std::holds_alternative<ncclscope::Traceback>(d) && src.table_traceback);
  if (!table_line) {
    src.table = Table::kNone;
    src.table_traceback = false;
  }
  if (const auto* ci = std::get_if<CommInit>(&d)) {
    OnCommInit(*ci, state, job, quotes);
    return;
  }
  if (const auto* end = std::get_if<CommEnd>(&d)) {
    OnCommEnd(*end, state, job, quotes);
    return;
  }
  if (const auto* pc = std::get_if<ProxyPeerClosed>(&d)) {
    OnProxyPeerClosed(*pc, state, job, quotes);
    return;
  }
  if (const auto* w = std::get_if<Warning>(&d)) {
    OnWarning(*w, state, job, quotes);
    return;
  }
  if (const auto* pe = std::get_if<PluginEvent>(&d);
      pe != nullptr && pe->action == PluginAction::kAllFailed && ctx.level == Level::kWarn) {
    OnNetPluginsFailed(state, job, quotes);
    return;
  }
  if (const auto* e = std::get_if<FrameworkNcclError>(&d)) {
    OnFrameworkNcclError(*e, state, job, quotes);
    return;
  }
  if (const auto* w = std::get_if<WatchdogTimeout>(&d)) {
    OnWatchdogTimeout(*w, state, job, quotes);
    return;
  }
  if (const auto* p = std::get_if<WorkProgress>(&d)) {
    OnWorkProgress(*p, state, job, quotes);
    return;
  }
  if (const auto* f = std::get_if<FrameworkEvent>(&d)) {
    OnFrameworkEvent(*f, state, job, quotes);
    return;
  }
  if (const auto* x = std::get_if<ProcessExit>(&d)) {
    OnProcessExit(*x, state, job, quotes);
    return;
  }
  if (const auto* l = std::get_if<LauncherEvent>(&d)) {
    OnLauncherEvent(*l, state, job, quotes);
    return;
  }
  if (const auto* t = std::get_if<ncclscope::Traceback>(&d)) {
    OnTraceback(*t, state, job, quotes);
  }
}

}  // namespace ncclscope
