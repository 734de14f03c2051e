// PyTorch watchdog/progress state merged per (process group, rank), with the ranks that reported
// nothing and the suspects: the triage view of a collective timeout.
#ifndef NCCLSCOPE_MODEL_WATCHDOG_TABLE_H_
#define NCCLSCOPE_MODEL_WATCHDOG_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// One rank of a process group, as its watchdog/progress lines describe it.
struct WatchdogRow {
  int rank = -1;         ///< Rank in the group as PyTorch prints it.
  int process = -1;      ///< Index into Job::processes (by global rank), -1 if unknown.
  bool reported = true;  ///< False for a rank of the world that printed no watchdog line.
  bool timed_out = false;
  int64_t timeout_seq = -1;
  std::string op_type;
  int64_t timeout_ms = -1;
  int64_t last_enqueued = -1, last_completed = -1;
  bool suspect = false;
  std::string why;  ///< Why it is a suspect ("reported no timeout; ..."), empty otherwise.
  std::vector<Evidence> evidence;
};

/// One process group (pg_id -1: timeouts whose group is not known).
struct WatchdogGroup {
  int pg_id = -1;
  std::string pg_desc;
  std::vector<WatchdogRow> rows;  ///< Sorted by rank; silent world ranks included.
  int64_t timeout_seq = -1;       ///< Highest timed-out SeqNum.
  std::string op_type;
  int64_t timeout_ms = -1;
  std::vector<int> timed_out;  ///< Ranks that timed out.
  std::vector<int> silent;     ///< World ranks that reported nothing (default group only).
  std::vector<int> suspects;   ///< Ranks at fault most likely.
};

/// Groups of Job::torch_ranks. A WatchdogTimeout record (pg -1) is merged into the group whose
/// progress line of the same rank names the same failed SeqNum, else into the rank's only group.
std::vector<WatchdogGroup> BuildWatchdogGroups(const Job& job);

/// Ranks of the largest top-level communicator (the world), 0 when none.
int WorldSize(const Job& job);

/// "vm pid 3889" for a process, "rank N" style callers add the rank themselves.
std::string HostPid(const Job& job, int process);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_WATCHDOG_TABLE_H_
