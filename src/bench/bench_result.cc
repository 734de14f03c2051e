#include "ncclscope/bench/bench_result.h"

#include <algorithm>

namespace ncclscope {

int BenchTest::Ranks() const {
  // A -J file from one process with -g N lists only its first device, so take the larger.
  int64_t n = int64_t{nthreads} * ngpus;
  if (n <= 0 || n >= (1 << 30)) n = 0;
  return std::max(static_cast<int>(n), static_cast<int>(devices.size()));
}

BenchMetrics ComputeBenchMetrics(const BenchTest& test) {
  BenchMetrics m;
  for (const BenchRow& row : test.rows) {
    m.max_size_bytes = std::max(m.max_size_bytes, row.size_bytes);
    for (const BenchPlacement* p : {&row.out_of_place, &row.in_place}) {
      if (p->wrong && *p->wrong > 0) m.wrong_total += *p->wrong;
      if (p->busbw_gbps && *p->busbw_gbps > m.peak_busbw_gbps) {
        m.peak_busbw_gbps = *p->busbw_gbps;
        m.peak_size_bytes = row.size_bytes;
        m.peak_in_place = p == &row.in_place;
      }
    }
  }
  if (m.peak_busbw_gbps > 0) {
    const double threshold = kSaturationFraction * m.peak_busbw_gbps;
    for (const BenchRow& row : test.rows) {
      double best =
          std::max(row.out_of_place.busbw_gbps.value_or(0), row.in_place.busbw_gbps.value_or(0));
      if (best >= threshold) {
        m.saturation_size_bytes = row.size_bytes;
        break;
      }
    }
  }
  return m;
}

}  // namespace ncclscope
