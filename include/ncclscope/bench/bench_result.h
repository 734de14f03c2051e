// BenchTest: one nccl-tests run (all_reduce_perf, sendrecv_perf, ...) as read from its text or
// -J JSON output, and the figures derived from it.
#ifndef NCCLSCOPE_BENCH_BENCH_RESULT_H_
#define NCCLSCOPE_BENCH_BENCH_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ncclscope {

/// One "#  Rank  0 Group  0 Pid 1733 on vm device  0 [0000:00:06] NVIDIA H200" line.
struct BenchDevice {
  int rank = 0;
  int group = 0;
  int64_t pid = 0;
  std::string host;
  int device = 0;
  std::string bus_id;  ///< "0000:00:06"
  std::string name;    ///< "NVIDIA H200"
};

/// Time and bandwidths of one placement (out-of-place or in-place); nullopt where "N/A".
struct BenchPlacement {
  std::optional<double> time_us;
  std::optional<double> algbw_gbps;
  std::optional<double> busbw_gbps;
  std::optional<double> wrong;  ///< #wrong elements (older versions print a float error).
};

/// One row of the results table.
struct BenchRow {
  int64_t size_bytes = 0;
  int64_t count = 0;
  std::string type;             ///< "float"
  std::string redop;            ///< "sum", "none"; empty when the table has no redop column
  std::optional<int64_t> root;  ///< -1 for rootless collectives
  BenchPlacement out_of_place;
  BenchPlacement in_place;
};

/// One nccl-tests run.
struct BenchTest {
  std::string name;           ///< "all_reduce_perf"; empty if the output does not say.
  std::string source_format;  ///< "text" or "json"
  int first_line = 0;         ///< 1-based line where the run starts in a text file (0 for JSON).
  std::string nccl_tests_version;  ///< "2.19.6" when printed.
  int nthreads = 0;                ///< From the "# nThread 1 nGpus 4 ..." header; 0 if absent.
  int ngpus = 0;
  int64_t min_bytes = 0;
  int64_t max_bytes = 0;
  std::vector<BenchDevice> devices;
  std::vector<BenchRow> rows;
  std::optional<int64_t> out_of_bounds;  ///< "# Out of bounds values : 0 OK"
  std::optional<double> avg_busbw_gbps;  ///< "# Avg bus bandwidth    : 108.423"
  bool concluded = false;                ///< A summary line was seen (the run finished).
  std::vector<std::string> errors;       ///< "Test NCCL failure ..." lines and JSON "errors".

  /// Ranks: the larger of the device-line count and nThread × nGpus from the header.
  int Ranks() const;
};

/// Figures derived from the table.
struct BenchMetrics {
  double peak_busbw_gbps = 0;                    ///< Max busbw over both placements.
  int64_t peak_size_bytes = 0;                   ///< Size of the row holding the peak.
  bool peak_in_place = false;                    ///< The peak is from the in-place columns.
  std::optional<int64_t> saturation_size_bytes;  ///< First size with busbw ≥ 90 % of peak.
  int64_t max_size_bytes = 0;                    ///< Largest size measured.
  double wrong_total = 0;                        ///< Sum of #wrong over all rows and placements.
};

/// Fraction of the peak at which bandwidth counts as saturated.
inline constexpr double kSaturationFraction = 0.9;

/// Computes the metrics of one run (all zero for a run without rows).
BenchMetrics ComputeBenchMetrics(const BenchTest& test);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BENCH_BENCH_RESULT_H_
