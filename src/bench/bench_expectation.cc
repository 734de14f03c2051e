#include "ncclscope/bench/bench_expectation.h"

#include <fmt/format.h>

#include <array>

namespace ncclscope {
namespace {

struct ExpectedRow {
  TransportClass cls;
  ExpectedBusBw bw;
};

// Peak busbw of a large collective (all_reduce, all_gather, ...) or sendrecv, GB/s. The low bound
// decides "healthy"; half of it decides "far below" (exit 1). Base: IndicativeBandwidth() in
// transport_class.cc, corrected by the real 4 x H200 runs in testdata/corpus/nccl-tests/.
constexpr std::array<ExpectedRow, 10> kExpected = {{
    {TransportClass::kNVL,
     {100, 500,
      "4xH200 NV18: all_reduce peak 360 GB/s, all_gather 332, sendrecv 148 at 32 MiB (corpus); "
      "NVLink 4 is 450 GB/s per direction; above 100 GB/s no PCIe Gen5 x16 link (64 GB/s) fits"}},
    {TransportClass::kNVLS, {100, 500, "as NVL (NVLink SHARP adds in-switch reduction)"}},
    {TransportClass::kP2P,
     {10, 64, "PCIe P2P: Gen4 x16 ~25 GB/s, Gen5 x16 ~50-64 GB/s per direction"}},
    {TransportClass::kSHM,
     {8, 40,
      "4xH200 NCCL_P2P_DISABLE=1: all_reduce peak 31.4 GB/s, plateau ~25 (corpus); host copies "
      "bounded by PCIe"}},
    {TransportClass::kNetIB,
     {10, 400, "one 100 Gbit/s NIC ~10 GB/s at the low end; 8 x 400 Gbit/s NDR per node ~400"}},
    {TransportClass::kNetLibfabric,
     {10, 400, "EFA: p4d 4 x 100 Gbit/s, p5 32 x 100 Gbit/s (3200 Gbit/s) per node"}},
    {TransportClass::kCollNet, {10, 400, "as NET/IB (SHARP in the IB switches)"}},
    {TransportClass::kNetOther, {1, 400, "unknown net plugin: wide range"}},
    {TransportClass::kNetSocket,
     {0.5, 8,
      "4xH200 P2P+SHM disabled: all_reduce over TCP peak 3.65 GB/s (corpus); TCP rarely passes "
      "~8 GB/s even on 100 GbE"}},
    {TransportClass::kUnknown, {0, 0, "no expectation"}},
}};

// Speed tiers, fastest first; cut points as in the table above (100: beyond any PCIe link; 8:
// beyond what the socket transport reaches).
constexpr double kNvlinkTierGbps = 100;
constexpr double kPcieTierGbps = 8;

// A peak more than this factor above the class's high bound is "above".
constexpr double kAboveFactor = 1.25;

}  // namespace

ExpectedBusBw ExpectedBusBandwidth(TransportClass c) {
  for (const ExpectedRow& row : kExpected) {
    if (row.cls == c) return row.bw;
  }
  return kExpected.back().bw;
}

std::string_view SpeedTier(double peak_busbw_gbps) {
  if (peak_busbw_gbps >= kNvlinkTierGbps) return "nvlink-speed";
  if (peak_busbw_gbps >= kPcieTierGbps) return "pcie-speed";
  return "socket-speed";
}

std::string_view BenchVerdictLevelName(BenchVerdictLevel level) {
  switch (level) {
    case BenchVerdictLevel::kHealthy:
      return "healthy";
    case BenchVerdictLevel::kAbove:
      return "above";
    case BenchVerdictLevel::kBelow:
      return "below";
    case BenchVerdictLevel::kFarBelow:
      return "far-below";
    case BenchVerdictLevel::kNotComparable:
      return "not-comparable";
  }
  return "not-comparable";
}

BenchVerdict CompareWithClass(const BenchMetrics& m, TransportClass expected) {
  BenchVerdict v;
  v.expected = expected;
  const std::string_view cls = TransportClassName(expected);
  const ExpectedBusBw bw = ExpectedBusBandwidth(expected);
  const double peak = m.peak_busbw_gbps;
  if (bw.high_gbps <= 0) {
    v.message = fmt::format("no expected bandwidth for class {}", cls);
    return v;
  }
  if (m.max_size_bytes < kMinComparableBytes) {
    v.message = fmt::format(
        "not comparable with {}: largest size {} B is below {} MiB, bandwidth cannot saturate", cls,
        m.max_size_bytes, kMinComparableBytes >> 20);
    return v;
  }
  if (peak >= bw.low_gbps) {
    if (peak > bw.high_gbps * kAboveFactor) {
      v.level = BenchVerdictLevel::kAbove;
      v.message = fmt::format(
          "faster than {}: peak busbw {:.2f} GB/s > {:g} GB/s ({}); the run did not use {} only",
          cls, peak, bw.high_gbps, SpeedTier(peak), cls);
    } else {
      v.level = BenchVerdictLevel::kHealthy;
      v.message = fmt::format("healthy for {}: peak busbw {:.2f} GB/s >= {:g} GB/s", cls, peak,
                              bw.low_gbps);
    }
  } else if (peak >= kFarBelowFraction * bw.low_gbps) {
    v.level = BenchVerdictLevel::kBelow;
    v.message = fmt::format("below {}: peak busbw {:.2f} GB/s < {:g} GB/s expected ({})", cls, peak,
                            bw.low_gbps, SpeedTier(peak));
  } else {
    v.level = BenchVerdictLevel::kFarBelow;
    v.failing = true;
    v.message = fmt::format(
        "far below {}: peak busbw {:.2f} GB/s < {:g} GB/s ({:g} % of the {:g} GB/s expected), "
        "{}",
        cls, peak, kFarBelowFraction * bw.low_gbps, kFarBelowFraction * 100, bw.low_gbps,
        SpeedTier(peak));
  }
  return v;
}

}  // namespace ncclscope
