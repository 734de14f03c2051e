// The per-process/rank table (`ncclscope ranks`, and `ranks` in the JSON report): host, pid,
// GPU, busId, communicators, NCCL version, state and the last NCCL line of each process.
#ifndef NCCLSCOPE_REPORT_RANK_TABLE_H_
#define NCCLSCOPE_REPORT_RANK_TABLE_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "ncclscope/model/job.h"
#include "ncclscope/report/json_stream.h"

namespace ncclscope {

struct RankRow {
  int process = -1;
  int global_rank = -1;
  std::string host;
  uint32_t pid = 0;
  std::vector<int> cuda_devs;
  std::vector<std::string> bus_ids;
  int comms = 0;             ///< Communicators this process joined.
  int comms_incomplete = 0;  ///< ... whose init it started but never completed.
  std::string nccl_version;
  std::string state;  ///< "ok", "init-incomplete", "timed-out", "error", "no-init"
  double bootstrap_seconds = -1;
  double init_seconds = -1;  ///< Slowest Init timings total.
  Evidence last_line;
};

/// One row per process, sorted by global rank (unknown ranks last).
std::vector<RankRow> BuildRankTable(const Job& job);
/// The rows as a JSON array (JSON report "ranks", `ncclscope ranks -f json`).
void WriteRankTableJson(const Job& job, JsonStream* js);
void WriteRankTableText(const Job& job, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_RANK_TABLE_H_
