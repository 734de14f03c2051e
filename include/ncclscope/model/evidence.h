// Evidence: one input line that shows something, by input index and line number.
#ifndef NCCLSCOPE_MODEL_EVIDENCE_H_
#define NCCLSCOPE_MODEL_EVIDENCE_H_

#include <cstdint>
#include <string>

#include "ncclscope/base/shared_text.h"

namespace ncclscope {

/// One line that shows something: input index, 1-based line number, the line's text. 32 bytes;
/// copies share the texts (SharedText), so the same line quoted by a process, an incident and
/// a finding is kept once.
struct Evidence {
  uint32_t source = 0;
  uint64_t line = 0;
  SharedText text;
  /// Timestamp of the line as printed (kubectl --timestamps, NCCL `[timestamp]`, c10 `MMDD
  /// HH:MM:SS.frac`); kept only for error records (warnings, trails, framework), else empty.
  SharedText time;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_EVIDENCE_H_
