// Expected nccl-tests bus bandwidth per transport class, and the verdict of a run against it.
#ifndef NCCLSCOPE_BENCH_BENCH_EXPECTATION_H_
#define NCCLSCOPE_BENCH_BENCH_EXPECTATION_H_

#include <string>
#include <string_view>

#include "ncclscope/bench/bench_result.h"
#include "ncclscope/model/transport_class.h"

namespace ncclscope {

/// Peak busbw (GB/s) a healthy run over a class reaches at large sizes: at least low_gbps;
/// more than high_gbps means the run was faster than that class can be.
struct ExpectedBusBw {
  double low_gbps = 0;
  double high_gbps = 0;
  std::string_view source;  ///< Where the numbers come from.
};

/// Expected range for a class; {0, 0} for kUnknown (nothing to compare).
ExpectedBusBw ExpectedBusBandwidth(TransportClass c);

/// Below this fraction of ExpectedBusBw::low_gbps a run is "far below" its class (a failure).
inline constexpr double kFarBelowFraction = 0.5;
/// Runs whose largest size is below this cannot show their peak; they are not compared.
inline constexpr int64_t kMinComparableBytes = 16 << 20;

/// Which speed a peak busbw looks like, whatever was expected: "nvlink-speed" (≥ 100 GB/s),
/// "pcie-speed" (≥ 8 GB/s: PCIe P2P, SHM or an RDMA NIC), "socket-speed" (below).
std::string_view SpeedTier(double peak_busbw_gbps);

/// Outcome of comparing a run with a class.
enum class BenchVerdictLevel {
  kHealthy,        ///< Peak ≥ low bound of the class.
  kAbove,          ///< Peak well above the class's high bound: the run used something faster.
  kBelow,          ///< Between kFarBelowFraction × low and low: slow, worth a look.
  kFarBelow,       ///< Under kFarBelowFraction × low: the run did not get the class's speed.
  kNotComparable,  ///< No rows, unknown class, or sizes too small to reach the peak.
};

/// Stable name: "healthy", "above", "below", "far-below", "not-comparable".
std::string_view BenchVerdictLevelName(BenchVerdictLevel level);

/// The verdict of one run against one class.
struct BenchVerdict {
  TransportClass expected = TransportClass::kUnknown;
  BenchVerdictLevel level = BenchVerdictLevel::kNotComparable;
  bool failing = false;  ///< True for kFarBelow.
  std::string message;   ///< "healthy for NVL: peak busbw 360.01 GB/s >= 100 GB/s"
};

/// Compares the peak busbw of a run with the expected range of `expected`.
BenchVerdict CompareWithClass(const BenchMetrics& metrics, TransportClass expected);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BENCH_BENCH_EXPECTATION_H_
