// Incidents: the lines that tell how a job ended, kept in the order they were printed with a
// normalised time, the process/rank they concern and the restart attempt they belong to. Built
// by JobBuilder from every event (src/model/incident_recorder.cc); the root-cause analysis
// (src/triage/) reads them. Bounded: a few per process and kind, see IncidentCap.
#ifndef NCCLSCOPE_MODEL_INCIDENT_H_
#define NCCLSCOPE_MODEL_INCIDENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/chunked_vector.h"
#include "ncclscope/base/shared_text.h"
#include "ncclscope/model/evidence.h"
#include "ncclscope/model/log_time.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

enum class IncidentKind : uint8_t {
  kExit,             ///< A process ended: launcher, scheduler, kernel, or its own fatal signal.
  kSignalSent,       ///< The launcher signalled a process ("Sending process N closing signal").
  kException,        ///< A Python exception (type, message, innermost frame).
  kCppTerminate,     ///< "terminate called after throwing an instance of '...'".
  kNcclWarn,         ///< An NCCL WARN line (or PyTorch's "Last error:" copy of one).
  kNcclError,        ///< ProcessGroupNCCL "NCCL error in: ..." / async NCCL error.
  kWatchdogTimeout,  ///< "Watchdog caught collective operation timeout: WorkNCCL(...)".
  kProgress,         ///< "last enqueued work: 4, last completed work: 3" of a rank.
  kTeardown,         ///< "taking the entire process down", watchdog terminated, comm aborted.
  kHeartbeat,        ///< Heartbeat monitor / watchdog stuck.
  kInitTimeout,      ///< "NCCL timeout in communicator initialization".
  kRestart,          ///< The launcher restarts the worker group.
  kJobCancelled,     ///< Slurm cancelled the job (time limit, node failure, preemption).
  kOomEvent,         ///< Slurm's cgroup saw an oom_kill.
  kLauncherGaveUp,   ///< mpirun abort notice, torchelastic ChildFailedError.
  /// The process's proxy service saw a local peer's connection close ("[Service thread]
  /// Connection closed by localRank N"): that peer destroyed its communicator or ended. One per
  /// (process, peer) and attempt.
  kPeerClosed,
  /// PyTorch's desync report blames this rank: it joined but did not finish collective `seq`,
  /// did not join it (`message` says which), or never joined any. Printed by another rank.
  kDesyncCulprit,
  /// The process is leaving and says nothing of an error: PyTorch's "destroy_process_group() was
  /// not called before program exit" (ProcessGroupNCCL's destructor at interpreter exit), or
  /// NCCL's end of its world communicator ("comm 0x.. rank 1 nRanks 2 ... - Abort START",
  /// "- Destroy COMPLETE"; the first per process). After an exception, an NCCL error or a
  /// timeout of the same process it is that failure's teardown; before any, the process left
  /// while its peers may still wait for it.
  kOrderlyExit,
};

/// Incident::type of a kDesyncCulprit: the rank joined a collective and did not finish it, did
/// not join the next one, or never joined any.
inline constexpr std::string_view kDesyncJoinedNotFinished = "joined-not-finished";
inline constexpr std::string_view kDesyncNotJoined = "not-joined";
inline constexpr std::string_view kDesyncNeverJoined = "never-joined";
/// Incident::type of a kDesyncCulprit from Horovod's stall inspector: the rank did not submit a
/// tensor every other rank submitted.
inline constexpr std::string_view kStallMissingRank = "stall-missing";

/// Incident::type of a kOrderlyExit: what said the process was leaving: PyTorch's exit warning,
/// or NCCL's destroy or abort of its world communicator.
inline constexpr std::string_view kExitWarning = "exit-warning";
inline constexpr std::string_view kExitDestroy = "destroy";
inline constexpr std::string_view kExitAbort = "abort";

struct Incident {
  IncidentKind kind = IncidentKind::kExit;
  int attempt = 0;      ///< Restart attempt (0 = first).
  int rank = -1;        ///< Global rank when known.
  /// `rank` is a launcher's tag before the line (srun's `3: `, mpirun's `[1,3]`), not a rank the
  /// line states: the recorder drops it when the tag turns out to cover several processes.
  bool rank_from_tag = false;
  int local_rank = -1;  ///< Launcher's local rank when printed.
  int peer_local_rank = -1;  ///< kPeerClosed: the local rank whose connection closed.
  int64_t pid = -1;     ///< The process's id when known (NCCL prefix, launcher line).
  std::string host;     ///< Printing host (NCCL) or the node a launcher names.
  // kExit
  ExitReporter reporter = ExitReporter::kTorchrun;
  std::optional<int> exit_code;
  int signal = 0;
  bool oom = false;
  bool fatal_signal = false;     ///< ProcessExit::fatal_signal: a crash even when signal is 0.
  bool timed_out = false;        ///< ProcessExit::timed_out: still running at the time limit.
  bool from_table = false;       ///< An entry of torchelastic's ChildFailedError table.
  bool table_root_cause = false; ///< The table's "Root Cause (first observed failure)" entry.
  // kException, kCppTerminate, kNcclWarn, kNcclError, kExit (reason), kDesyncCulprit,
  // kOrderlyExit
  /// Exception type, signal name, warning location; for kDesyncCulprit which of the desync
  /// report's lines named the rank (kDesyncJoinedNotFinished, ...); for kOrderlyExit what said
  /// so (kExitWarning, kExitDestroy, kExitAbort).
  SharedText type;
  SharedText message;  ///< Whole message (never cut).
  SharedText frame;    ///< Innermost frame: "train.py:49 in train_step".
  /// kNcclError: the detail PyTorch prints after "Last error:" (NCCL's last WARN, e.g.
  /// "socketStartConnect: Connect to 10.0.0.2<45763> failed : No route to host"), on the next
  /// lines or glued to the same line; empty when none was printed. It names the cause more
  /// precisely than the summary ("unhandled system error").
  SharedText detail;
  Evidence detail_evidence;  ///< The line that holds `detail`, quoted whole.
  // kWatchdogTimeout, kProgress
  int pg = -1;
  int64_t seq = -1, last_enqueued = -1, last_completed = -1;
  int64_t numel = -1;  ///< WorkNCCL NumelIn of a timeout.
  SharedText op;
  bool cascade = false;  ///< The text says a peer went away (remote exited, connection closed).
  Evidence evidence;     ///< The line, with its timestamp as printed.
  /// Normalised time key (LogTime::Key); nullopt when neither the line nor its neighbours in
  /// the same input carry a timestamp.
  std::optional<int64_t> time;
  bool time_inherited = false;  ///< `time` was taken from an earlier line of the same input.
  std::string time_text;        ///< Normalised display ("2026-11-23 09:26:08.661").
  std::optional<LogTime> stamp;  ///< The line's own timestamp, parsed (no year: glog, c10).
};

/// A process of one attempt: an NCCL (host, pid), with the rank it held in its world
/// communicator.
struct ProcessInstance {
  std::string host;
  uint32_t pid = 0;
  int attempt = 0;
  int rank = -1;           ///< Rank in the largest top-level communicator it initialised.
  int world = 0;           ///< That communicator's size.
  std::string world_comm;  ///< Its commId ("0xeaa174d3949f004f"), empty when not printed.
  Evidence first;          ///< First line of the process in this attempt.
  Evidence world_init;     ///< Its Init START line of that communicator.
  /// It destroyed a communicator ("- Destroy COMPLETE"): an orderly end, not an abort.
  bool destroyed_comm = false;
  /// It ended (destroyed or aborted) its world communicator, or said it exits: an kOrderlyExit
  /// incident was recorded (one per process and attempt).
  bool exit_noted = false;
};

/// One restart attempt of the job.
struct AttemptInfo {
  int index = 0;
  Evidence started_by;  ///< The restart marker or first line of the attempt.
};

struct IncidentLog {
  /// In input order per source; sorted by time on demand. Chunked: a failed job of thousands of
  /// ranks keeps tens of thousands, which a vector would copy as it doubles.
  ChunkedVector<Incident> incidents;
  std::vector<ProcessInstance> instances;
  std::vector<AttemptInfo> attempts;  ///< At least one when any event was seen.
  uint64_t dropped = 0;               ///< Incidents not kept (caps).
};

/// Caps that keep the log bounded by the job, not by the length of its log: at most
/// kMaxIncidentsPerProcessKind per process and kind; kMaxIncidents shared by all, and past them
/// kIncidentsPerProcess more for every process (a hang of 4,096 ranks has a timeout and a
/// progress line on every rank: a fixed total would drop the later ranks' lines and the triage
/// would take those ranks for silent). In all at most IncidentCap(processes).
inline constexpr size_t kMaxIncidents = 4000;
inline constexpr size_t kIncidentsPerProcess = 3;
inline constexpr size_t kMaxIncidentsPerProcessKind = 12;
inline constexpr size_t IncidentCap(size_t processes) {
  return kMaxIncidents + kIncidentsPerProcess * processes;
}

std::string_view IncidentKindName(IncidentKind kind);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_INCIDENT_H_
