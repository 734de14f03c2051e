// Root cause: which rank failed first, on which host and pid, when, and why; what the other
// ranks' errors are the fallout of. Computed from the model (Job::incidents, the watchdog
// state, communicators, init timings) per restart attempt. docs/triage.md explains the rules.
#ifndef NCCLSCOPE_TRIAGE_ROOT_CAUSE_H_
#define NCCLSCOPE_TRIAGE_ROOT_CAUSE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/model/incident.h"
#include "ncclscope/model/job.h"

namespace ncclscope {

enum class CauseClass : uint8_t {
  kNone,                ///< Nothing failed (or nothing in the logs says so).
  kProcessKilled,       ///< SIGKILL (OOM killer, kill -9, scheduler), SIGTERM from outside.
  kCrashSignal,         ///< SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL in the process itself.
  kPythonException,     ///< An uncaught Python exception (or an error exit without one).
  kCudaOom,             ///< CUDA out of memory (PyTorch or NCCL's allocations).
  kNcclError,           ///< NCCL reported an error of its own (shm, CUDA, usage, internal).
  kNetwork,             ///< Sockets/IB/plugin failed: connect refused, completion errors.
  kCollectiveMismatch,  ///< Ranks called different collectives.
  kLateStart,           ///< A rank reached init late (or never): the others waited for it.
  kStuckRank,           ///< A rank stopped calling collectives: the others timed out.
  kTimeoutUnknown,      ///< Timeouts or a hang that no rank's state explains.
};
/// "process-killed", "crash-signal", ... (the names in JSON and docs).
std::string_view CauseClassName(CauseClass c);

enum class Confidence : uint8_t { kLow, kMedium, kHigh };
std::string_view ConfidenceName(Confidence c);

/// A rank (or process) at fault.
struct Culprit {
  int rank = -1;
  std::string host;
  int64_t pid = -1;
};

/// A consequence of the root cause on another rank.
struct Fallout {
  int rank = -1;
  std::string what;  ///< "SIGTERM from the launcher", "remote process exited", "timed out ..."
  std::string time_text;
  Evidence evidence;
};

struct RootCause {
  int attempt = 0;
  CauseClass cls = CauseClass::kNone;
  bool job_failed = false;
  std::vector<Culprit> culprits;  ///< The first failing rank(s); empty when unknown.
  std::optional<int64_t> time;    ///< LogTime key of the first failure.
  std::string time_text;          ///< "2026-11-23 09:26:08.776" ("" when no line has a time).
  std::string what;               ///< Short: "killed by SIGKILL (signal 9)".
  std::string reasoning;          ///< One sentence.
  Confidence confidence = Confidence::kLow;
  std::vector<Evidence> evidence;  ///< The lines that show it (file:line).
  std::vector<Fallout> fallout;    ///< What the other ranks suffered because of it.
  /// Incident lines (source, line) that are part of the cause itself, for marking findings.
  std::vector<std::pair<uint32_t, uint64_t>> cause_lines;
  /// Lines of the culprit that report the cause again later (the framework's exception after
  /// its own NCCL WARN): in the evidence, but the findings they make are consequences.
  std::vector<std::pair<uint32_t, uint64_t>> echo_lines;
};

/// One restart attempt: its processes and its own root cause.
struct AttemptCause {
  AttemptInfo info;
  std::vector<ProcessInstance> processes;
  RootCause cause;
};

struct RootCauseReport {
  /// The job's root cause: the last attempt's that failed, else the last attempt's.
  RootCause cause;
  /// Every attempt (one entry when the job was not restarted).
  std::vector<AttemptCause> attempts;
};

/// The root cause of every attempt of the job.
RootCauseReport AnalyzeRootCause(const Job& job);

/// "rank 1 (vm pid 631)" / "host ip-172-31-45-209" / "an unknown rank".
std::string CulpritText(const Culprit& c);

}  // namespace ncclscope

#endif  // NCCLSCOPE_TRIAGE_ROOT_CAUSE_H_
