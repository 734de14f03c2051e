// ProcessIndex: the processes of a finished Job by global rank and by (hostname, pid), for the
// report-time passes that name a row's or a line's process (watchdog table, timeline): one
// lookup each instead of a walk over the processes (a job of one file per rank has thousands).
#ifndef NCCLSCOPE_MODEL_PROCESS_INDEX_H_
#define NCCLSCOPE_MODEL_PROCESS_INDEX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ncclscope/model/job.h"

namespace ncclscope {

class ProcessIndex {
 public:
  explicit ProcessIndex(const Job& job);
  /// Index into Job::processes of the first process whose global rank is `rank`, or -1.
  int OfRank(int rank) const;
  /// Index of the first process printed as `hostname`:`pid`, or -1.
  int OfHostPid(std::string_view hostname, uint64_t pid) const;

 private:
  /// "hostname:pid" (as NCCL's head prints them) → index.
  static std::string Key(std::string_view hostname, uint64_t pid);

  std::unordered_map<int, int> by_rank_;
  std::unordered_map<std::string, int> by_host_pid_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_PROCESS_INDEX_H_
