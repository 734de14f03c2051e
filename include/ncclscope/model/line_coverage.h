// Line coverage: how many of the lines that mention NCCL the parser understood. A line counts when
// it holds a NCCL message (NCCL's head or a `NCCL INFO|WARN|...` anchor anywhere, the version
// line) or otherwise mentions "NCCL" (PyTorch errors, launcher and user output); it is
// understood when it produced an event other than Unrecognized (known-but-unused NCCL messages
// are understood: docs/events.md lists them).
#ifndef NCCLSCOPE_MODEL_LINE_COVERAGE_H_
#define NCCLSCOPE_MODEL_LINE_COVERAGE_H_

#include <cstdint>
#include <string>

#include "ncclscope/model/job.h"

namespace ncclscope {

struct LineCoverage {
  uint64_t read = 0;        ///< NCCL messages plus other lines that mention NCCL.
  uint64_t understood = 0;  ///< Of those, the ones that produced a typed event.
  uint64_t messages = 0;    ///< NCCL messages alone.
  uint64_t unrecognized_messages = 0;
  uint64_t mentions = 0;  ///< Other lines that mention NCCL.
  uint64_t unrecognized_mentions = 0;

  uint64_t not_understood() const { return read - understood; }
  /// understood / read, 1 when nothing was read.
  double ratio() const { return read == 0 ? 1.0 : static_cast<double>(understood) / read; }
};

LineCoverage CoverageOf(const JobStats& stats);
LineCoverage CoverageOf(const SourceInfo& source);

/// "4,812 read, 4,790 understood (99.5%)"; the percentage is never rounded up to 100 % while a
/// line is not understood.
std::string CoverageSummary(const LineCoverage& c);

/// 4812 → "4,812".
std::string GroupThousands(uint64_t n);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_LINE_COVERAGE_H_
