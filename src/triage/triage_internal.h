// Internal pieces of the root-cause analysis, shared by the files of src/triage/.
#ifndef NCCLSCOPE_SRC_TRIAGE_TRIAGE_INTERNAL_H_
#define NCCLSCOPE_SRC_TRIAGE_TRIAGE_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ncclscope/model/incident.h"
#include "ncclscope/model/job.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope::triage_internal {

/// One attempt's incidents in time order, its processes and world size.
struct AttemptView {
  const Job* job = nullptr;
  int attempt = 0;
  std::vector<const Incident*> incidents;
  std::vector<const ProcessInstance*> processes;
  int world = 0;  ///< Largest top-level communicator of the attempt (0 when unknown).
  /// The first of `processes` with each rank (ProcessOfRank without a scan).
  std::unordered_map<int, const ProcessInstance*> by_rank;
  /// The last of `processes` with each pid.
  std::unordered_map<uint32_t, const ProcessInstance*> last_by_pid;
  /// Per host: the last of `processes` on it and how many there are.
  std::unordered_map<std::string, std::pair<const ProcessInstance*, int>> by_host;

  /// The process of a rank, nullptr when unknown.
  const ProcessInstance* ProcessOfRank(int rank) const;
  /// The last process of the attempt with `pid`, nullptr when none (or pid <= 0).
  const ProcessInstance* LastProcessWithPid(int64_t pid) const;
  /// The attempt's one process on `host`, nullptr when there are none or several.
  const ProcessInstance* OnlyProcessOnHost(const std::string& host) const;
  /// A culprit for `rank`, with its process's host and pid when known.
  Culprit CulpritOfRank(int rank) const;
  /// Orders two incidents: by time when both have one, else by input position.
  static bool Before(const Incident* a, const Incident* b);
};

/// One rank's own end (or own error that ended it).
struct RankFailure {
  int rank = -1;
  std::string host;
  int64_t pid = -1;
  CauseClass cls = CauseClass::kNone;
  std::string what;    ///< "was killed by SIGKILL (signal 9)", "raised ValueError: ..."
  std::string detail;  ///< What that usually means ("the OOM killer or an external kill -9").
  int signal = 0;
  const Incident* first = nullptr;          ///< Earliest line of this failure.
  std::vector<const Incident*> lines;       ///< Its lines, earliest first.
  /// Lines of `lines` that came after its own NCCL error and report it again (the framework's
  /// exception, the exit): consequences of the cause, not the cause.
  std::vector<const Incident*> echoes;
  bool fallout = false;                     ///< A consequence of another failure.
  /// Fallout of PyTorch's own teardown: ended by SIGABRT after "we are taking the entire process
  /// down" (its watchdog found a failed or timed-out collective).
  bool torn_down = false;
  std::string fallout_what;                 ///< How it suffered: "SIGTERM from the launcher".
  bool table_root_cause = false;            ///< torchelastic's "first observed failure".
  bool stale_id = false;                    ///< Joined an older attempt's NCCL id.
  /// The class is the likeliest reading of an end that the input does not explain (an executor
  /// saw its worker die), or the rank is where a failure showed rather than began (it could not
  /// reach rank 0's store): medium confidence at most.
  bool class_guessed = false;
  /// The class rests on an exit code alone (python-exception from "exit code 1"): medium
  /// confidence at most, unless several ranks ended the same way at once.
  bool exit_code_only = false;
  std::string stale_comm;
};

/// Every rank's own failure in the attempt, fallout marked, earliest first.
std::vector<RankFailure> CollectRankFailures(const AttemptView& view);

/// The class of an NCCL/PyTorch error text: kCudaOom, kNetwork or kNcclError.
CauseClass ClassOfErrorText(std::string_view text);
/// The class of an NCCL error raised in Python: from its "Last error:" detail when that is
/// more specific than the summary, else from the summary.
CauseClass ClassOfRaisedNcclError(const Incident& error);
/// "rank 1 (vm pid 631)".
std::string RankText(int rank, const std::string& host, int64_t pid);
/// "09:26:08.776" style display time of an incident ("" when none).
std::string ShortTime(const Incident& i);

/// Watchdog timeouts compared across ranks; nullopt when the attempt has none.
std::optional<RootCause> CompareTimeouts(const AttemptView& view);
/// The ranks PyTorch's desync report blames (stuck-rank, high confidence); nullopt when the
/// attempt has no such report.
std::optional<RootCause> FromDesyncReport(const AttemptView& view);
/// PyTorch's "[14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d
/// key-value store ..., but store->get('0') got error: ...".
bool IsUniqueIdFetchFailure(std::string_view message);
/// The first sentence or two of a long message (the whole one stays in the evidence).
std::string Headline(std::string_view s);
/// A rank that reached init late or never; nullopt when init was on time.
std::optional<RootCause> FindLateStart(const AttemptView& view, bool job_failed);
/// A rank that timed out fetching the NCCL unique id from a creator rank that printed no NCCL
/// init line and failed only as fallout: the creator was late (late-start, medium), else nullopt.
std::optional<RootCause> FromUniqueIdWait(const AttemptView& view,
                                          const std::vector<RankFailure>& failures,
                                          const RankFailure& head);
/// The first NCCL error that is not a consequence of a peer's end, or the peer that cascade
/// errors name; nullopt when there is none.
std::optional<RootCause> FromNcclErrors(const AttemptView& view);
/// The first NCCL error line of a rank's own (not a peer's end, not a proxy's report of a
/// failed operation; a local error soon after a network one wins), nullptr when none: what
/// FromNcclErrors blames first.
const Incident* FirstOwnNcclError(const AttemptView& view);
/// The root cause `first` (a FirstOwnNcclError) gives.
RootCause FromOwnNcclError(const AttemptView& view, const Incident& first);

/// A failed NCCL call shown only by its return-code trail (no WARN or error line in words):
/// the process of the first failing trail line, with the class its location implies; nullopt
/// when no trail of the attempt reports a failure.
std::optional<RootCause> FromErrorTrails(const AttemptView& view);

/// A failure whose NCCL error says only "unhandled system error" takes the network class when its
/// process's silent return-code trail starts with code 2 in NCCL's network or IB code
/// (`transport/net_ib.cc:282 -> 2`); its detail then says so.
void RefineByTrails(const AttemptView& view, std::vector<RankFailure>* failures);

/// The one local peer that every process of a host saw leave ("[Service thread] Connection
/// closed by localRank N"), as the process that went away first; nullopt when no host's
/// witnesses agree on one peer, or two hosts each lost one.
std::optional<RootCause> FromPeerCloses(const AttemptView& view);

/// A failing rank that names no host (PyTorch's `[rank2]:` exception) is on the host whose proxy
/// services saw local rank `rank` close its connection, when one host's did and `rank` is below
/// eight (on the job's first node a process's local rank is its rank): its host is filled in.
void HostsFromPeerCloses(const AttemptView& view, std::vector<RankFailure>* failures);

/// Processes whose output ends in a connect retry ("connect to 10.0.0.2<4242> returned Connection
/// refused, retrying"): the job stalled on that peer, named as the culprit when the line names
/// it; nullopt when no process of the attempt ends so.
std::optional<RootCause> FromStalledConnects(const AttemptView& view);

/// A job stopped from outside (`stop`) with no error or timeout of its own: ranks whose last COLL
/// line (NCCL_DEBUG_SUBSYS=COLL) is behind the others' on a communicator that all its ranks
/// logged stopped calling collectives (stuck-rank, medium); nullopt when no rank is behind, or
/// every rank is behind somewhere.
std::optional<RootCause> FromCollectiveProgress(const AttemptView& view, const Incident& stop);

/// The first line of the attempt saying that the job was stopped from outside: the launcher
/// itself got a death signal ("Received 15 death signal, shutting down workers"), or the
/// scheduler cancelled the job; nullptr when none.
const Incident* FirstExternalStop(const AttemptView& view);

/// PyTorch's collective-mismatch check (TORCH_DISTRIBUTED_DEBUG=DETAIL) across ranks; nullopt
/// when no rank raised it.
std::optional<RootCause> MismatchFromDetector(const AttemptView& view);

/// What the other ranks suffered: their first consequence each.
std::vector<Fallout> CollectFallout(const AttemptView& view, const RootCause& cause);

}  // namespace ncclscope::triage_internal

#endif  // NCCLSCOPE_SRC_TRIAGE_TRIAGE_INTERNAL_H_
