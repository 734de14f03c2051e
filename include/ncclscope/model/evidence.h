// Evidence: one input line that shows something, by input index and line number.
#ifndef NCCLSCOPE_MODEL_EVIDENCE_H_
#define NCCLSCOPE_MODEL_EVIDENCE_H_

#include <cstdint>
#include <string>

namespace ncclscope {

/// One line that shows something: input index, 1-based line number, the line's text.
struct Evidence {
  uint32_t source = 0;
  uint64_t line = 0;
  std::string text;
  /// Timestamp of the line as printed (kubectl --timestamps, NCCL `[timestamp]`, c10 `MMDD
  /// HH:MM:SS.frac`); kept only for error records (warnings, trails, framework), else empty.
  std::string time;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_EVIDENCE_H_
