// IncidentRecorder: folds the events that tell how processes ended into Job::incidents, with
// normalised times, ranks and restart attempts. Part of JobBuilder's state (builder_state.h);
// sees every event once, in input order per source.
#ifndef NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_H_
#define NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "banner_rank.h"
#include "line_quotes.h"
#include "ncclscope/model/incident.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/log_time.h"
#include "ncclscope/parse/events.h"
#include "prefix_identities.h"

namespace ncclscope {

class IncidentRecorder {
 public:
  /// Folds one event (every event of the job comes through here). The hot lines (connections,
  /// COLL lines, noise, graph lines) neither start a process nor end one: a connection line
  /// only notes its printer's rank, the others cost no call.
  /// `proc`: the builder's process of the line (one per host:pid), or -1.
  /// `quotes`: the builder's quotes of the event's line (shared with its other records).
  void Add(const Event& event, Job* job, int proc, LineQuotes* quotes) {
    const EventData& d = event.data;
    identities_.Note(proc, event.ctx);
    if (const auto* c = std::get_if<Connection>(&d)) {
      NoteConnectionRank(event.ctx, *c, proc);
      return;
    }
    if (std::holds_alternative<Collective>(d) || std::holds_alternative<CollAlgo>(d) ||
        std::holds_alternative<KnownNoise>(d) || std::holds_alternative<GraphPaths>(d)) {
      return;
    }
    AddOther(event, job, quotes);
  }
  /// Resolves ranks and pids between incidents and processes, back-fills times, fills the
  /// attempt list. Call once, after the last Add (on a copy for snapshots).
  void Finish(Job* job) const;

 private:
  /// Add for the events that may start, end or describe a process.
  void AddOther(const Event& event, Job* job, LineQuotes* quotes);
  enum class Table : uint8_t { kNone, kFailures, kRootCause };
  struct Traceback {
    bool started = false;
    std::string frame;
  };
  struct SourceState {
    int attempt = 0;
    bool failed_seen = false;  ///< A launcher reported a failure since the attempt began.
    bool any_process = false;
    std::optional<int64_t> last_key;
    std::optional<LogTime> last_date;
    Table table = Table::kNone;
    int table_entry = -1;         ///< Index into incidents of the current table entry.
    bool table_entry_timed = false;  ///< Its "time" field was read (a next one starts an entry).
    bool table_traceback = false; ///< The entry's traceback field is being printed.
    std::map<int, Traceback> tracebacks;  ///< By rank (-1: lines without one).
    int pending_exit = -1;        ///< Kubernetes/mpirun exit being assembled.
    uint64_t pending_line = 0;
    int last_raised = -1;         ///< Last PyTorch "NCCL error in: ..." (its "Last error:" follows).
    uint64_t last_raised_line = 0;
    /// Who raised it, as the launcher's prefix says (Ray/vLLM `pid=N`, the launcher's rank); 0 /
    /// -1 when no prefix said.
    uint32_t last_raised_origin_pid = 0;
    int last_raised_launcher_rank = -1;
    /// The rank PyTorch's test harness said raised ("Process 1 exited with error code 10 and
    /// exception:"): the traceback it prints next is that rank's, until its exception.
    int harness_rank = -1;
    int last_terminate = -1;      ///< Last "terminate called after throwing" (its what() follows).
    uint64_t last_terminate_line = 0;
    /// Last watchdog timeout whose line lost its WorkNCCL(...) to a paste's wrap (SeqNum
    /// unknown): the parser's join of that line and the next completes it.
    int cut_timeout = -1;
    uint64_t cut_timeout_line = 0;
    /// Timeouts read from "Timeout at NCCL work: N" lines, per rank: the rank's "Watchdog caught
    /// collective operation timeout" line for the same work completes the same incident.
    std::map<int, int> progress_timeout;
    AttemptInfo attempt_info;
    /// Worker pids torchrun's agent named in this attempt (its signals and exit reports), and
    /// the time of its last such line: a restarted worker group shows as new pids.
    std::set<int64_t> agent_pids;
    std::optional<int64_t> last_agent_key;
    /// The flight recorder's stack of a failed collective being read ("Stack trace of the failed
    /// collective:" then "#0 barrier from ...", "#2 main from train.py:139"): the rank's
    /// timeout (or NCCL error) it belongs to, the line of the last frame, the collective's API
    /// and its first caller outside torch.
    int stack_incident = -1;
    uint64_t stack_line = 0;
    std::string stack_api, stack_caller;
    bool path_read = false;    ///< The input's path was read (torchrun's --log-dir layout).
    int path_local_rank = -1;  ///< The local rank the input's path names, else -1.
  };
  struct InstanceKey {
    std::string host;
    uint32_t pid = 0;
    bool operator<(const InstanceKey& o) const {
      return pid != o.pid ? pid < o.pid : host < o.host;
    }
  };

  /// The rank a process's own connection lines state ("Channel 00 : 0[1020] -> 2[1040] via
  /// SHM": the sending side is the printer), for processes whose init lines are not in the input.
  struct ConnectionRank {
    int rank = -1;
    bool conflict = false;  ///< Lines of several communicators (different ranks): unusable.
  };

  SourceState& Source(uint32_t source);
  /// What AddOther works out once for the line of an event, for its handlers below.
  struct LineState {
    const EventContext& ctx;
    SourceState* src;  ///< The state of the line's input.
    int inst;          ///< The line's process instance (index into instances), -1 if unknown.
    int attempt;       ///< That instance's restart attempt, else the input's.
  };
  /// What every incident of this line starts from; built only by the events that record one (an
  /// Incident is large, and most events record none).
  static Incident BaseIncident(const LineState& state, const Job& job);
  // AddOther's handlers, one per event family, in the order AddOther tries them.
  // NCCL's own lines (incident_recorder_nccl.cc): communicator lifecycle, warnings.
  void OnCommInit(const CommInit& ci, const LineState& state, Job* job, LineQuotes* quotes);
  void OnCommEnd(const CommEnd& end, const LineState& state, Job* job, LineQuotes* quotes);
  void OnProxyPeerClosed(const ProxyPeerClosed& pc, const LineState& state, Job* job,
                         LineQuotes* quotes);
  void OnWarning(const Warning& w, const LineState& state, Job* job, LineQuotes* quotes);
  /// "NCCL WARN Failed to initialize any NET plugin" (a PluginEvent of that action and level).
  void OnNetPluginsFailed(const LineState& state, Job* job, LineQuotes* quotes);
  // PyTorch's errors and watchdog (incident_recorder_framework.cc).
  void OnFrameworkNcclError(const FrameworkNcclError& e, const LineState& state, Job* job,
                            LineQuotes* quotes);
  void OnWatchdogTimeout(const WatchdogTimeout& w, const LineState& state, Job* job,
                         LineQuotes* quotes);
  void OnWorkProgress(const WorkProgress& p, const LineState& state, Job* job, LineQuotes* quotes);
  void OnFrameworkEvent(const FrameworkEvent& f, const LineState& state, Job* job,
                        LineQuotes* quotes);
  // Launchers' reports (incident_recorder_launcher.cc): exits, torchelastic's failure table.
  void OnProcessExit(const ProcessExit& x, const LineState& state, Job* job, LineQuotes* quotes);
  void OnLauncherEvent(const LauncherEvent& l, const LineState& state, Job* job,
                       LineQuotes* quotes);
  // Python tracebacks, fatal signals, C++ terminate (incident_recorder_traceback.cc).
  void OnTraceback(const ncclscope::Traceback& t, const LineState& state, Job* job,
                   LineQuotes* quotes);
  /// The incident a "Stack trace of the failed collective:" of `rank` belongs to: the rank's
  /// latest watchdog timeout in the input (else its latest NCCL error); -1 when none is near.
  static int FailedWorkOf(const Job& job, uint32_t source, int rank);
  /// One "#N name from path:line" frame of that stack: the collective's API (#0) and its first
  /// caller outside PyTorch become the incident's frame ("barrier, called at train.py:139 in
  /// main").
  void NoteStackFrame(const FrameworkEvent& f, const EventContext& ctx, SourceState* src, Job* job);
  /// Rank of a line without NCCL's prefix: the event's own, PyTorch's `[Rank N]` / `[rankN]:`,
  /// else a launcher's tag (torchrun --tee `[defaultN]:`, mpirun `[1,N]`, srun `N: `) unless
  /// that tag covers several processes (identities_).
  /// `from_tag` (when given) is set when the rank is the launcher's tag.
  int LineRank(const EventContext& ctx, int event_rank, bool* from_tag = nullptr) const;
  void NoteConnectionRank(const EventContext& ctx, const Connection& c, int proc);
  /// A rank the printing process states of itself (connection lines, its proxy service's
  /// messages); `proc` is the builder's process, -1 when unknown.
  void NoteStatedRank(const EventContext& ctx, int rank, int proc = -1);
  /// The `what():` line after "terminate called after throwing ..." names the rank and the
  /// reason of that abort.
  void NoteTerminateWhat(const EventContext& ctx, int rank, bool rank_from_tag, SourceState* src,
                         Job* job);
  /// The ranks PyTorch's desync report blames (kDesyncCulprit incidents, one per rank).
  void NoteDesyncCulprits(const FrameworkEvent& f, const Incident& base, const EventContext& ctx,
                          const SourceState& src, Job* job, LineQuotes* quotes);
  /// A `what():` line that no framework parser read: the text (and the rank it names, "...
  /// rank: 0") of the earliest terminate a few lines up in the same input without one.
  void NoteLooseWhat(const EventContext& ctx, std::string_view what, int rank, Job* job);
  /// PyTorch's "Last error:" detail of the NCCL error raised just before it in `src`.
  void NoteLastErrorDetail(const EventContext& ctx, std::string_view detail, int rank,
                           const SourceState& src, Job* job, LineQuotes* quotes);
  int InstanceOf(const Event& event, SourceState* src, Job* job, LineQuotes* quotes);
  void TrackTime(const EventContext& ctx, SourceState* src);
  /// A worker pid named by torchrun's agent (`signal`: "Sending process N closing signal").
  /// Returns true when it starts a new attempt: the agent signals pids it never named in this
  /// attempt, well after the attempt failed (its console prints no restart line at the default
  /// log level).
  bool NoteAgentPid(int64_t pid, bool signal, const EventContext& ctx, SourceState* src,
                    LineQuotes* quotes);
  /// An input of one process (NCCL_DEBUG_FILE's per-process files) counts no restarts of its
  /// own: a process that the launcher's lines in another input name in a later attempt belongs
  /// to that attempt, and so do its lines.
  void MoveToTheLaunchersAttempt(IncidentLog* log) const;
  /// Attempts up to `attempt` in attempts_, the ones added started by `started_by`.
  void GrowAttempts(int attempt, const Evidence& started_by);
  /// Starts the next attempt of `src` at this line.
  void StartAttempt(const EventContext& ctx, SourceState* src, LineQuotes* quotes);
  int Remember(const InstanceKey& key, int instance);
  Incident* Push(Incident incident, const EventContext& ctx, const SourceState& src, Job* job,
                 LineQuotes* quotes);
  /// Sets the incident's time from the line's own timestamp; false when it has none.
  static bool StampOwnTime(const EventContext& ctx, const SourceState& src, Incident* incident);
  /// Lines from a pod's `Reason:` to its first container's state in `kubectl describe pod`.
  static constexpr uint64_t kPodReasonWindow = 8;
  /// Lines between a wrapped watchdog line and the line that completes it: the parser joins up
  /// to four pieces, each at most two lines after the one before (a paste re-wrapped by hand).
  static constexpr uint64_t kCutJoinLines = 8;

  std::vector<SourceState> sources_;
  PrefixIdentities identities_;  ///< Whether a line's tag is a rank and its collector pid a writer.
  std::map<InstanceKey, int> instance_of_;       ///< Current instance of (host, pid).
  std::set<InstanceKey> banner_seen_;            ///< Printed the NCCL version banner.
  std::map<std::tuple<int, int64_t, int, int>, size_t> per_kind_;  ///< Cap counters.
  /// Incidents kept per (attempt, pid, rank): each may keep kIncidentsPerProcess past the
  /// shared kMaxIncidents.
  std::map<std::tuple<int, int64_t, int>, size_t> per_process_;
  std::vector<AttemptInfo> attempts_;
  std::set<std::pair<int, int>> peer_closes_;  ///< (instance, peer local rank) recorded.
  /// WarnKey of every NCCL WARN incident kept: PyTorch's "Last error:" copy of one is not a
  /// second incident (a lookup, not a scan of the incidents per copy: a failed job of thousands
  /// of ranks prints one per rank).
  std::unordered_set<uint64_t> warn_keys_;
  /// A WARN's message (trimmed) in its attempt, as a 64-bit hash.
  static uint64_t WarnKey(int attempt, std::string_view message);
  std::map<InstanceKey, ConnectionRank> connection_rank_;
  BannerRank banner_rank_;  ///< Rank 0 of processes that printed NCCL's bare version banner.
  /// NoteConnectionRank's entries by the builder's process index (a process is one host:pid;
  /// std::map entries stay put). A copy of the recorder (a snapshot) starts without them.
  struct ConnectionCache {
    std::vector<ConnectionRank*> by_proc;
    ConnectionCache() = default;
    ConnectionCache(const ConnectionCache&) {}
    ConnectionCache& operator=(const ConnectionCache&) {
      by_proc.clear();
      return *this;
    }
  };
  ConnectionCache connection_cache_;
  std::string last_host_;  ///< InstanceOf's one-entry cache.
  uint32_t last_pid_ = 0;
  int last_instance_ = -1;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_INCIDENT_RECORDER_H_
