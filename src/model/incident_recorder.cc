#include "incident_recorder.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <variant>

#include "instance_lookup.h"
#include "ncclscope/base/signals.h"
#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/timeline.h"
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

/// Digits at s[*i] as a number (at most 15 digits, the rest skipped); false if none.
bool ReadNumber(std::string_view s, size_t* i, int64_t* out) {
  const size_t start = *i;
  int64_t v = 0;
  for (; *i < s.size() && s[*i] >= '0' && s[*i] <= '9'; ++*i) {
    if (*i - start < 15) v = v * 10 + (s[*i] - '0');
  }
  if (*i == start) return false;
  *out = v;
  return true;
}

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

/// The rank whose digits start at s[at] and end right before `next`; -1 if the text is not
/// that, or the number is too large to be a rank.
int RankFollowedBy(std::string_view s, size_t at, char next) {
  int64_t rank = -1;
  if (!ReadNumber(s, &at, &rank) || at >= s.size() || s[at] != next) return -1;
  return rank <= 1000000 ? static_cast<int>(rank) : -1;
}

/// "Invalid rank requested : 1/1" (init.cc): the rank the printing process asked to be, out of
/// the communicator's size; -1 for any other message.
int InvalidRankRequested(std::string_view message) {
  constexpr std::string_view kInvalid = "Invalid rank requested : ";
  const size_t at = message.find(kInvalid);
  return at == std::string_view::npos ? -1 : RankFollowedBy(message, at + kInvalid.size(), '/');
}

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

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::string CommIdText(uint64_t id) { return fmt::format("{:#018x}", id); }

bool StartsWithText(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

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
  for (std::string_view end : {std::string_view("Exception raised from"), std::string_view(" frame #")}) {
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
  static constexpr std::string_view kErrors[] = {"CUDA error", "NCCL error", "DistBackendError",
                                                 "ncclUnhandledCudaError", "ncclSystemError",
                                                 "ncclInternalError", "ncclInvalidUsage",
                                                 "ncclRemoteError"};
  for (std::string_view e : kErrors) {
    if (detail.find(e) != std::string_view::npos) return true;
  }
  return false;
}

/// The text after `what():` on the line that follows "terminate called after throwing".
std::string_view WhatText(std::string_view text) {
  constexpr std::string_view kWhat = "what():";
  const size_t at = text.find(kWhat);
  return at == std::string_view::npos ? std::string_view() : Trimmed(text.substr(at + kWhat.size()));
}

/// Lines between an NCCL error raised in Python and PyTorch's "Last error:" detail (the
/// exception line, "ncclSystemError: ...", "Last error:", the detail).
constexpr uint64_t kLastErrorLines = 4;
/// The same where a prefix shows that the detail comes from the process that raised the error:
/// the lines of other workers printed in between (the parser allows 16) do not count.
constexpr uint64_t kSameOriginLastErrorLines = kLastErrorLines + 16;
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
  }
  // "0, 1, 2": one incident per blamed rank; the line is the reporting rank's, not theirs.
  std::string_view ranks = f.detail;
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
  // What every incident of this line starts from; built only by the events that record one (an
  // Incident is large, and most events record none).
  auto base = [&] {
    Incident b;
    b.attempt = attempt;
    if (inst >= 0) {
      const ProcessInstance& pi = job->incidents.instances[inst];
      b.host = pi.host;
      b.pid = pi.pid;
      b.rank = pi.rank;
    }
    return b;
  };
  // Any other event ends a torchelastic table (its lines are consecutive).
  const bool table_line = std::holds_alternative<LauncherEvent>(d) ||
                          (std::holds_alternative<ncclscope::Traceback>(d) && src.table_traceback);
  if (!table_line) {
    src.table = Table::kNone;
    src.table_traceback = false;
  }
  if (const auto* ci = std::get_if<CommInit>(&d)) {
    if (inst >= 0 && ci->phase == InitPhase::kStart && ci->parent.empty() && ci->rank >= 0) {
      ProcessInstance& pi = job->incidents.instances[inst];
      if (ci->nranks > pi.world) {
        pi.world = ci->nranks;
        pi.rank = ci->rank;
        pi.world_comm = ci->comm_id ? CommIdText(*ci->comm_id) : std::string();
        pi.world_init = quotes->TimedQuote(ctx);
      }
    }
    return;
  }
  if (const auto* end = std::get_if<CommEnd>(&d)) {
    if (inst < 0) return;
    ProcessInstance& pi = job->incidents.instances[inst];
    if (end->kind == CommEndKind::kDestroy) pi.destroyed_comm = true;
    // An excerpt that starts after init: the end of a communicator states the process's rank in
    // it ("comm 0x.. rank 1 nranks 4 ... - Abort COMPLETE"); an Init START line, when there is
    // one, says more and wins.
    if (pi.world_init.line == 0 && end->rank >= 0 && end->nranks > pi.world) {
      pi.world = end->nranks;
      pi.rank = end->rank;
    }
    // The end of its world communicator: the process is leaving the job (at its normal end, as
    // a failure's teardown, or early; the triage tells them apart by what came before).
    const bool ends = end->kind == CommEndKind::kDestroy || end->kind == CommEndKind::kAbort ||
                      end->kind == CommEndKind::kAbortStart;
    if (ends && !pi.exit_noted && pi.world > 0 && end->nranks == pi.world && end->rank == pi.rank) {
      pi.exit_noted = true;
      Incident i = base();
      i.kind = IncidentKind::kOrderlyExit;
      // An abort is also how PyTorch tears a communicator down after an error: weaker evidence
      // of a normal exit than a destroy.
      i.type = end->kind == CommEndKind::kDestroy ? kExitDestroy : kExitAbort;
      i.message = std::string(ctx.body);
      Push(std::move(i), ctx, src, job, quotes);
    }
    return;
  }
  if (const auto* pc = std::get_if<ProxyPeerClosed>(&d)) {
    // The first line of each peer per process: one per communicator follows when it has several.
    if (inst < 0 || !peer_closes_.emplace(inst, pc->local_rank).second) return;
    Incident i = base();
    i.kind = IncidentKind::kPeerClosed;
    i.peer_local_rank = pc->local_rank;
    i.message = std::string(ctx.body);
    Push(std::move(i), ctx, src, job, quotes);
    return;
  }
  if (const auto* w = std::get_if<Warning>(&d)) {
    if (ctx.level == Level::kTorch) {
      NoteLastErrorDetail(ctx, w->message, LineRank(ctx, -1), src, job, quotes);
      // PyTorch's "Last error:" copy of a WARN printed before: not a second incident.
      for (const Incident& prev : job->incidents.incidents) {
        if (prev.kind == IncidentKind::kNcclWarn && prev.attempt == attempt &&
            Trimmed(prev.message) == Trimmed(w->message)) {
          return;
        }
      }
    }
    Incident i = base();
    i.kind = IncidentKind::kNcclWarn;
    i.type = std::string(ctx.location);
    i.message = std::string(w->message);
    i.cascade = IsCascadeMessage(w->message);
    if (i.rank < 0) i.rank = LineRank(ctx, -1, &i.rank_from_tag);
    // Like a connection line, a proxy service's message states the printer's rank (resolved
    // with the others in Finish, unless its lines state several).
    if (const int own = ProxyServiceRank(w->message); own >= 0) NoteStatedRank(ctx, own);
    // NCCL's "Invalid rank requested : R/N" states the rank the printer asked to be.
    if (const int own = InvalidRankRequested(w->message); own >= 0) NoteStatedRank(ctx, own);
    Push(std::move(i), ctx, src, job, quotes);
    return;
  }
  if (const auto* pe = std::get_if<PluginEvent>(&d);
      pe != nullptr && pe->action == PluginAction::kAllFailed && ctx.level == Level::kWarn) {
    // "NCCL WARN Failed to initialize any NET plugin": fatal to the init that printed it.
    Incident i = base();
    i.kind = IncidentKind::kNcclWarn;
    i.type = std::string(ctx.location);
    i.message = std::string(Trimmed(ctx.body));
    if (i.rank < 0) i.rank = LineRank(ctx, -1, &i.rank_from_tag);
    Push(std::move(i), ctx, src, job, quotes);
    return;
  }
  if (const auto* e = std::get_if<FrameworkNcclError>(&d)) {
    Incident i = base();
    i.kind = IncidentKind::kNcclError;
    i.rank = LineRank(ctx, -1, &i.rank_from_tag);
    if (i.rank < 0 && !e->exception.empty()) i.rank = src.harness_rank;
    if (!e->exception.empty()) src.harness_rank = -1;  // the harness's traceback ends here
    i.type = std::string(e->exception);
    i.message = std::string(e->reason);
    i.cascade = IsCascadeMessage(e->reason);
    auto tb = src.tracebacks.find(i.rank);
    if (!e->exception.empty() && tb != src.tracebacks.end() && tb->second.started) {
      i.frame = tb->second.frame;
      src.tracebacks.erase(tb);
    }
    if (const std::string_view glued = GluedLastError(ctx.text); !glued.empty()) {
      i.detail = std::string(glued);
      i.detail_evidence = quotes->TimedQuote(ctx);
      i.cascade = i.cascade || IsCascadeMessage(glued);
    } else if (!e->last_error.empty()) {
      i.detail = std::string(e->last_error);
      i.detail_evidence = quotes->TimedQuote(ctx);
      i.cascade = i.cascade || IsCascadeMessage(e->last_error);
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
    return;
  }
  if (const auto* w = std::get_if<WatchdogTimeout>(&d)) {
    bool tagged = false;
    const int rank = LineRank(ctx, w->rank, &tagged);
    // The same timeout again, whole: the parser joined a wrapped line with its continuation.
    if (src.cut_timeout >= 0 && w->seq >= 0 && ctx.line <= src.cut_timeout_line + kCutJoinLines) {
      Incident& cut = job->incidents.incidents[src.cut_timeout];
      if (cut.kind == IncidentKind::kWatchdogTimeout && cut.rank == rank && cut.seq < 0) {
        cut.seq = w->seq;
        cut.numel = w->numel_in;
        cut.op = std::string(w->op_type);
        src.cut_timeout = -1;
        return;
      }
    }
    if (auto it = src.progress_timeout.find(rank); it != src.progress_timeout.end()) {
      Incident& known = job->incidents.incidents[static_cast<size_t>(it->second)];
      if (known.kind == IncidentKind::kWatchdogTimeout && known.seq == w->seq) {
        known.op = std::string(w->op_type);
        known.numel = w->numel_in;
        return;
      }
    }
    Incident i = base();
    i.kind = IncidentKind::kWatchdogTimeout;
    i.rank = rank;
    i.rank_from_tag = tagged;
    i.seq = w->seq;
    i.numel = w->numel_in;
    i.op = std::string(w->op_type);
    NoteTerminateWhat(ctx, i.rank, i.rank_from_tag, &src, job);
    if (Push(std::move(i), ctx, src, job, quotes) != nullptr && w->seq < 0) {
      src.cut_timeout = static_cast<int>(job->incidents.incidents.size()) - 1;
      src.cut_timeout_line = ctx.line;
    }
    return;
  }
  if (const auto* p = std::get_if<WorkProgress>(&d)) {
    Incident i = base();
    i.kind = IncidentKind::kProgress;
    i.rank = LineRank(ctx, p->rank, &i.rank_from_tag);
    i.pg = p->pg_id;
    i.seq = p->failed_seq;
    i.last_enqueued = p->last_enqueued;
    i.last_completed = p->last_completed;
    Incident timeout = i;
    Push(std::move(i), ctx, src, job, quotes);
    if (!p->timeout || timeout.rank < 0 || p->failed_seq < 0 ||
        src.progress_timeout.count(timeout.rank) > 0) {
      return;
    }
    for (const Incident& k : job->incidents.incidents) {
      // The rank's "Watchdog caught ..." line for this work came first: it is the timeout.
      if (k.kind == IncidentKind::kWatchdogTimeout && k.rank == timeout.rank &&
          k.seq == p->failed_seq && k.evidence.source == ctx.source) {
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
    return;
  }
  if (const auto* f = std::get_if<FrameworkEvent>(&d)) {
    Incident i = base();
    i.rank = LineRank(ctx, f->rank, &i.rank_from_tag);
    i.message = std::string(f->detail);
    switch (f->kind) {
      case FrameworkKind::kProcessSignal:
        identities_.NoteAgent(ctx);  // torchrun's agent signals its workers
        if (NoteAgentPid(f->pid, /*signal=*/true, ctx, &src, quotes)) i.attempt = src.attempt;
        i.kind = IncidentKind::kSignalSent;
        i.pid = f->pid;
        i.signal = SignalFromText(f->detail);
        i.rank = f->pid >= 0 ? -1 : i.rank;
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
        NoteDesyncCulprits(*f, base(), ctx, src, job, quotes);
        return;
      case FrameworkKind::kWatchdogTerminated:
        // "Process group watchdog thread terminated with exception: CUDA error: an illegal
        // memory access was encountered": the watchdog found the error of an NCCL work (no
        // timeout): the rank's own error, then its teardown.
        // A peer-gone error ("remote process exited") stays the teardown: NCCL's own WARN
        // names the peer better, and it is no cause of this rank's.
        if (IsWatchdogFoundError(f->detail) && !IsCascadeMessage(f->detail)) {
          Incident error = i;
          error.kind = IncidentKind::kNcclError;
          std::string_view what = f->detail;
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
        NoteStackFrame(*f, ctx, &src, job);
        return;
      case FrameworkKind::kExitWithoutDestroy:
        i.kind = IncidentKind::kOrderlyExit;
        i.type = kExitWarning;
        i.message = "destroy_process_group() was not called before program exit";
        if (inst >= 0) job->incidents.instances[inst].exit_noted = true;
        break;
      default:
        return;
    }
    Push(std::move(i), ctx, src, job, quotes);
    return;
  }
  if (const auto* x = std::get_if<ProcessExit>(&d)) {
    // Kubernetes prints Reason and Exit Code on neighbouring lines: one exit. A pod's own reason
    // (`Reason: Evicted` above its containers) waits for the first container's state, a few
    // lines on (Message, Containers:, the container's name, State:), and keeps its reason.
    if (x->reporter == ExitReporter::kKubernetes && src.pending_exit >= 0 &&
        job->incidents.incidents[src.pending_exit].reporter == ExitReporter::kKubernetes) {
      Incident& prev = job->incidents.incidents[src.pending_exit];
      const uint64_t window = prev.exit_code ? 3 : kPodReasonWindow;
      if (ctx.line <= src.pending_line + window && !(prev.exit_code && x->exit_code)) {
        if (x->exit_code) prev.exit_code = x->exit_code;
        if (x->signal > 0 && prev.signal == 0) prev.signal = x->signal;
        if (!x->reason.empty() && prev.message.empty()) prev.message = std::string(x->reason);
        prev.oom = prev.oom || x->oom;
        // The pod's reason has no time of its own; its container's state has one.
        if (prev.time_inherited || !prev.time) StampOwnTime(ctx, src, &prev);
        src.pending_line = ctx.line;
        if (prev.exit_code) src.pending_exit = -1;
        return;
      }
    }
    if (x->reporter == ExitReporter::kTestHarness) {
      src.harness_rank = x->reason == kHarnessRaisedReason ? x->rank : -1;
    }
    if (x->reporter == ExitReporter::kTorchrun || x->reporter == ExitReporter::kDeepSpeed)
      identities_.NoteAgent(ctx);  // a launcher agent reports its workers' ends
    if (x->reporter == ExitReporter::kTorchrun)
      NoteAgentPid(x->pid, /*signal=*/false, ctx, &src, quotes);
    Incident i = base();
    i.kind = IncidentKind::kExit;
    i.reporter = x->reporter;
    i.rank = x->rank >= 0 ? x->rank : LineRank(ctx, -1, &i.rank_from_tag);
    if (x->reporter != ExitReporter::kPython) {
      i.rank = x->rank;
      i.rank_from_tag = false;
    }
    i.local_rank = x->local_rank;
    i.pid = x->pid;
    i.exit_code = x->exit_code;
    i.signal = x->signal;
    i.oom = x->oom;
    i.fatal_signal = x->fatal_signal;
    i.timed_out = x->timed_out;
    i.host = std::string(x->node);
    i.message = std::string(x->reason);
    if (!x->ranks.empty() && x->rank < 0) i.type = "tasks " + std::string(x->ranks);
    if (x->reporter != ExitReporter::kPython && x->reporter != ExitReporter::kKernel) {
      src.failed_seen = true;
    }
    Incident* pushed = Push(std::move(i), ctx, src, job, quotes);
    if (pushed != nullptr && x->reporter == ExitReporter::kKubernetes) {
      src.pending_exit = static_cast<int>(job->incidents.incidents.size()) - 1;
      src.pending_line = ctx.line;
    }
    return;
  }
  if (const auto* l = std::get_if<LauncherEvent>(&d)) {
    identities_.NoteAgent(ctx);  // torchelastic's restarts and failure table
    Incident i = base();
    i.rank = -1;
    switch (l->kind) {
      case LauncherKind::kRestart:
        i.kind = IncidentKind::kRestart;
        i.message = std::string(l->value);
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
        if (l->key == "mpi-process") {
          // "[[41097,1],3]": the rank is the last number.
          std::string_view v = l->value;
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
        if (l->key == "mpi-exit-code") {
          if (src.pending_exit >= 0 && ctx.line <= src.pending_line + 2) {
            int64_t code = 0, unused = -1;
            NumberAndParen(l->value, "()", &code, &unused);
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
        if (l->key == "time" &&
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
        if (l->key == "time") {
          if (std::optional<LogTime> t = ParseLogTime(l->value); t && t->has_date()) {
            // Whole seconds, written when the launcher gave up: never earlier than the lines
            // that name the same failure, so the end of that second.
            e.time = t->Key() + 999999999;
            e.time_inherited = false;
            e.stamp = *t;
            src.table_entry_timed = true;
          }
        } else if (l->key == "host") {
          e.host = std::string(l->value);
        } else if (l->key == "rank") {
          int64_t r = -1, lr = -1;
          NumberAndParen(l->value, "local_rank: ", &r, &lr);
          if (r < (int64_t{1} << 30)) e.rank = static_cast<int>(r);
          if (lr < (int64_t{1} << 30)) e.local_rank = static_cast<int>(lr);
        } else if (l->key == "exitcode") {
          int64_t code = 0, pid = -1;
          NumberAndParen(l->value, "pid: ", &code, &pid);
          if (code > -(int64_t{1} << 30) && code < (int64_t{1} << 30)) {
            e.exit_code = static_cast<int>(code);
            e.signal = SignalFromExitCode(*e.exit_code).value_or(0);
          }
          e.pid = pid;
          e.evidence = quotes->TimedQuote(ctx);
        } else if (l->key == "traceback") {
          if (StartsWithText(l->value, "Traceback")) {
            src.table_traceback = true;
          } else if (!StartsWithText(l->value, "To enable traceback")) {
            e.message = std::string(l->value);  // "Signal 9 (SIGKILL) received by PID 631"
            e.evidence = quotes->TimedQuote(ctx);
          }
        }
        return;
      }
      case LauncherKind::kJobCancelled:
        i.kind = IncidentKind::kJobCancelled;
        i.message = std::string(l->value);
        src.failed_seen = true;
        break;
      case LauncherKind::kOomEvent:
        i.kind = IncidentKind::kOomEvent;
        i.message = std::string(l->value);
        i.oom = true;
        break;
      case LauncherKind::kMpiAbort:
        i.kind = IncidentKind::kLauncherGaveUp;
        i.message = std::string(l->value);
        src.failed_seen = true;
        break;
      case LauncherKind::kKillSent:
        i.kind = IncidentKind::kSignalSent;
        {
          size_t k = 0;
          int64_t pid = -1;
          if (ReadNumber(l->value, &k, &pid)) i.pid = pid;
        }
        i.signal = 9;
        src.failed_seen = true;
        break;
    }
    Push(std::move(i), ctx, src, job, quotes);
    return;
  }
  if (const auto* t = std::get_if<ncclscope::Traceback>(&d)) {
    // Lines without a rank of their own after the test harness named a raising rank are its.
    bool tagged = false;
    const int line_rank = LineRank(ctx, -1, &tagged);
    const int rank = line_rank >= 0 ? line_rank : src.harness_rank;
    if (src.table_traceback && src.table_entry >= 0 && rank < 0) {
      Incident& e = job->incidents.incidents[src.table_entry];
      if (t->kind == TracebackKind::kFrame) {
        e.frame = FrameText(*t);
      } else if (t->kind == TracebackKind::kException) {
        e.type = std::string(t->type);
        e.message = std::string(t->message);
        e.evidence = quotes->TimedQuote(ctx);
      }
      return;
    }
    Traceback& tb = src.tracebacks[rank];
    switch (t->kind) {
      case TracebackKind::kStart:
        tb = Traceback{true, {}};
        return;
      case TracebackKind::kFrame:
        if (tb.started) tb.frame = FrameText(*t);
        return;
      case TracebackKind::kException: {
        Incident i = base();
        i.kind = IncidentKind::kException;
        i.rank = rank >= 0 ? rank : UniqueIdFetcherRank(t->message);
        i.rank_from_tag = tagged;  // then rank is the line's
        i.type = std::string(t->type);
        i.message = std::string(t->message);
        if (tb.started) i.frame = tb.frame;
        // A Ray task error names the actor process that raised it.
        if (i.pid < 0) RayTaskProcess(t->message, &i.pid, &i.host);
        src.tracebacks.erase(rank);
        if (rank == src.harness_rank) src.harness_rank = -1;
        // The launcher's own traceback ends in ChildFailedError (a framework event): an
        // exception here is a worker's (or a lone script's).
        Push(std::move(i), ctx, src, job, quotes);
        return;
      }
      case TracebackKind::kFatalSignal: {
        Incident i = base();
        i.kind = IncidentKind::kExit;
        i.reporter = ExitReporter::kPython;
        i.rank = rank;
        i.rank_from_tag = tagged;  // then rank is the line's
        i.signal = SignalFromText(t->type);
        i.message = "Fatal Python error: " + std::string(t->type);
        Push(std::move(i), ctx, src, job, quotes);
        return;
      }
      case TracebackKind::kCppTerminate: {
        Incident i = base();
        i.kind = IncidentKind::kCppTerminate;
        i.rank = rank;
        i.rank_from_tag = tagged;  // then rank is the line's
        i.type = std::string(t->type);
        if (Push(std::move(i), ctx, src, job, quotes) != nullptr) {
          src.last_terminate = static_cast<int>(job->incidents.incidents.size()) - 1;
          src.last_terminate_line = ctx.line;
        }
        return;
      }
      case TracebackKind::kCppWhat:
        NoteLooseWhat(ctx, t->message, rank, job);
        return;
    }
  }
}

namespace {

/// The host of a pid that a launcher line names, from the job's NCCL processes (also those
/// whose lines were all noise, which get no ProcessInstance): the one process with that pid;
/// else, when every NCCL process of the input runs on one host, that host (a local launcher's
/// process runs beside them). "" when neither says.
class PidHosts {
 public:
  explicit PidHosts(const Job& job) {
    for (const Process& p : job.processes) {
      if (p.hostname.empty()) continue;
      auto [it, fresh] = by_pid_.try_emplace(p.pid, p.hostname);
      if (!fresh && it->second != p.hostname) it->second.clear();  // two hosts: unknown
      if (single_.empty() && !several_) {
        single_ = p.hostname;
      } else if (p.hostname != single_) {
        several_ = true;
        single_.clear();
      }
    }
  }
  std::string HostOf(int64_t pid) const {
    auto it = by_pid_.find(static_cast<uint32_t>(pid));
    if (it != by_pid_.end()) return it->second;
    return single_;
  }

 private:
  std::unordered_map<uint32_t, std::string> by_pid_;
  std::string single_;
  bool several_ = false;
};

/// A paste of one process: NCCL's lines name its host and pid but not its rank (no init or
/// connection line in it states one), PyTorch's `[rankN]:` lines name a rank but no process.
/// When the job has one attempt and one NCCL process, none of whose lines says a peer went away
/// (then the rank's lines may be the peer's), and every PyTorch line with a launcher prefix names
/// the same rank, the process is that rank; unless that prefix is a launcher's tag that covers
/// several processes (`srun -l torchrun`: the node's task, whose other workers printed no NCCL
/// line).
void LinkLoneProcessToTaggedRank(const Job& job, const PrefixIdentities& identities,
                                 IncidentLog* log) {
  if (log->attempts.size() > 1 || log->instances.size() != 1 || log->instances[0].rank >= 0 ||
      job.launch.torch_ranks.size() != 1) {
    return;
  }
  ProcessInstance& p = log->instances[0];
  if (!identities.TagIsRank(p.first.source, job.launch.torch_ranks.front())) return;
  for (const Incident& i : log->incidents) {
    if (i.cascade && i.pid == static_cast<int64_t>(p.pid) && i.host == p.host) return;
  }
  p.rank = job.launch.torch_ranks.front();
}

}  // namespace

void IncidentRecorder::MoveToTheLaunchersAttempt(IncidentLog* log) const {
  // Attempt of each worker pid the launcher's own lines name (its signals, its exit reports);
  // -1 when they name it in several attempts (a pid reused by a restarted container).
  std::map<int64_t, int> named;
  for (const Incident& i : log->incidents) {
    const bool launcher =
        i.kind == IncidentKind::kSignalSent ||
        (i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kTorchrun && !i.from_table);
    if (!launcher || i.pid <= 0) continue;
    auto [it, fresh] = named.try_emplace(i.pid, i.attempt);
    if (!fresh && it->second != i.attempt) it->second = -1;
  }
  if (named.empty()) return;
  std::map<uint32_t, int> instances_in;
  for (const ProcessInstance& p : log->instances) ++instances_in[p.first.source];
  for (ProcessInstance& p : log->instances) {
    const auto it = named.find(p.pid);
    const uint32_t source = p.first.source;
    // Only an input that counted no restart of its own: its attempt is the launcher's word.
    if (it == named.end() || it->second <= p.attempt ||
        (source < sources_.size() && sources_[source].attempt != 0)) {
      continue;
    }
    const int from = p.attempt;
    p.attempt = it->second;
    const bool alone = instances_in[source] == 1;
    for (Incident& i : log->incidents) {
      if (i.attempt != from || i.evidence.source != source) continue;
      if ((i.pid == static_cast<int64_t>(p.pid) && (i.host.empty() || i.host == p.host)) ||
          (i.pid <= 0 && alone)) {
        i.attempt = p.attempt;
      }
    }
  }
}

void IncidentRecorder::Finish(Job* job) const {
  IncidentLog& log = job->incidents;
  // Year-less stamps (glog, c10, syslog) take the year of a dated stamp of the same input, else
  // of the job's first dated stamp (the inputs of one job are assumed to be of one year; the
  // time keys ignore the year anyway, this only completes the display).
  std::map<uint32_t, int> year_of;
  int job_year = 0;
  for (const Incident& i : log.incidents) {
    if (i.stamp && i.stamp->year > 0) {
      year_of.emplace(i.evidence.source, i.stamp->year);
      if (job_year == 0) job_year = i.stamp->year;
    }
  }
  for (Incident& i : log.incidents) {
    if (!i.stamp) continue;
    LogTime t = *i.stamp;
    auto y = year_of.find(i.evidence.source);
    if (t.year == 0) t.year = y != year_of.end() ? y->second : job_year;
    i.time_text = t.Format();
  }
  // A launcher's tag that turned out to cover several processes (`srun -l torchrun`: the
  // node's task) names no rank: lines that had only it for a rank have none.
  for (Incident& i : log.incidents) {
    if (i.rank_from_tag && i.rank >= 0 && !identities_.TagIsRank(i.evidence.source, i.rank)) {
      i.rank = -1;
      i.rank_from_tag = false;
    }
  }
  log.attempts = attempts_;
  if (log.attempts.empty() && !log.incidents.empty()) log.attempts.push_back(AttemptInfo{});
  MoveToTheLaunchersAttempt(&log);
  // A process whose init lines are not in the input (an excerpt) but whose connection lines
  // are: those lines state its rank (in the one communicator they show).
  for (ProcessInstance& p : log.instances) {
    if (p.rank >= 0) continue;
    auto it = connection_rank_.find(InstanceKey{p.host, p.pid});
    if (it != connection_rank_.end() && !it->second.conflict) p.rank = it->second.rank;
  }
  // Else a bare version banner amid the process's own lines: NCCL prints it from rank 0 only.
  for (size_t k = 0; k < log.instances.size(); ++k) {
    ProcessInstance& p = log.instances[k];
    if (p.rank < 0 && banner_rank_.RankZero(static_cast<int>(k))) p.rank = 0;
  }
  LinkLoneProcessToTaggedRank(*job, identities_, &log);
  const PidHosts pid_hosts(*job);
  const InstanceLookup instances(log.instances);
  // Inputs that also hold NCCL lines of a process whose lines were all noise (no instance):
  // "the one NCCL process of the input" below is not known to be the only one there.
  std::set<uint32_t> sources_with_silent_process;
  {
    std::set<std::pair<std::string_view, uint32_t>> with_instance;
    for (const ProcessInstance& p : log.instances) with_instance.emplace(p.host, p.pid);
    for (const Process& p : job->processes) {
      if (p.headless || with_instance.count({p.hostname, p.pid}) > 0) continue;
      sources_with_silent_process.insert(p.sources.begin(), p.sources.end());
    }
  }
  // Ranks of processes from their pids (launcher lines name the pid), pids from ranks.
  for (Incident& i : log.incidents) {
    const ProcessInstance* by_pid = nullptr;
    // A line with a host is that host's process; torchrun's exit lines name the agent's host
    // (its own), not always the worker's as NCCL prints it.
    const bool torchrun_exit =
        i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kTorchrun;
    if (i.pid > 0) {
      for (int k : instances.WithPid(i.attempt, i.pid)) {
        if (i.host.empty() || i.host == instances[k].host || torchrun_exit) by_pid = &instances[k];
      }
    }
    const ProcessInstance* by_rank = instances.LastWithRank(i.attempt, i.rank);
    if (by_pid != nullptr) {
      if (i.rank < 0) i.rank = by_pid->rank;
      if (i.kind != IncidentKind::kExit || i.reporter != ExitReporter::kMpirun) {
        i.host = by_pid->host;
      }
    } else if (by_rank != nullptr && i.pid <= 0) {
      i.pid = by_rank->pid;
      if (i.host.empty()) i.host = by_rank->host;
    }
    const bool own_failure = i.kind == IncidentKind::kException ||
                             i.kind == IncidentKind::kNcclError ||
                             i.kind == IncidentKind::kCppTerminate;
    if (((i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kKubernetes) ||
         (own_failure && i.host.empty())) &&
        i.rank < 0 && i.pid <= 0) {
      // A traceback or raised error that names no process, in an input (or pod) whose NCCL lines
      // come from one process in this attempt (one log per pod or process): that process's.
      // `kubectl describe` lines name no process: they follow the pod's own log under its
      // `kubectl logs --prefix` tag (one source per container). A container that ran one NCCL
      // process in this attempt is that process; with several the pod is all that is known.
      const ProcessInstance* only = instances.OnlyInSource(i.attempt, i.evidence.source);
      if (only != nullptr && sources_with_silent_process.count(i.evidence.source) == 0) {
        i.rank = only->rank;
        i.pid = only->pid;
        i.host = only->host;
      }
    }
    if (i.rank < 0 && i.local_rank >= 0) {
      // One node (every process on one host), or no NCCL process in the input to say
      // otherwise: the local rank stands for the global rank.
      if (instances.OneHost()) i.rank = i.local_rank;
    }
  }
  // A pid that a launcher line ties to a rank ("local_rank: 1 (pid: 5002)") names that rank in
  // the lines that give only the pid (the kernel's "Killed process 5002", UCX's handler), when
  // the pid stands for one rank only and the hosts do not contradict it.
  struct PidRank {
    int rank = -1;
    bool unique = true;
    std::set<std::string> hosts;  ///< Of the incidents with this pid and rank.
  };
  std::map<int64_t, PidRank> rank_of_pid;
  for (const Incident& i : log.incidents) {
    if (i.pid <= 0 || i.rank < 0) continue;
    auto [it, fresh] = rank_of_pid.try_emplace(i.pid, PidRank{i.rank, true, {}});
    if (it->second.rank != i.rank) {
      it->second.unique = false;  // its hosts are not read then
    } else if (!i.host.empty()) {
      it->second.hosts.insert(i.host);
    }
  }
  for (Incident& i : log.incidents) {
    if (i.rank >= 0 || i.pid <= 0) continue;
    auto it = rank_of_pid.find(i.pid);
    if (it == rank_of_pid.end() || !it->second.unique) continue;
    // Not when a line of that pid and rank names another host.
    std::set<std::string>& hosts = it->second.hosts;
    const bool same_host =
        i.host.empty() || hosts.empty() || (hosts.size() == 1 && *hosts.begin() == i.host);
    if (!same_host) continue;
    i.rank = it->second.rank;
    if (!i.host.empty()) hosts.insert(i.host);  // later lines of the pid see this one
  }
  // Hosts of the pids launcher lines name, once ranks are settled (PidHosts).
  for (Incident& i : log.incidents) {
    if (i.host.empty() && i.pid > 0) i.host = pid_hosts.HostOf(i.pid);
  }
  // Times: lines before the first timestamp of their input take the next one's (walking back,
  // the time of the input's next incident, once that one has taken its own next one's).
  std::unordered_map<uint32_t, std::optional<int64_t>> next_time;  // source → its next's time
  for (size_t k = log.incidents.size(); k-- > 0;) {
    Incident& i = log.incidents[k];
    auto [it, fresh] = next_time.try_emplace(i.evidence.source, i.time);
    if (!i.time && !fresh && it->second) {
      i.time = it->second;
      i.time_inherited = true;
    }
    it->second = i.time;
  }
}

}  // namespace ncclscope
