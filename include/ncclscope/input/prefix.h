// Recognises and strips the prefixes that collectors and launchers put in front of log lines,
// keeping what they say as LineMeta: kubectl --timestamps (RFC3339 with nanoseconds), kubectl
// --prefix `[pod/NAME/CONTAINER] `, torchrun --tee `[default0]:`, PyTorch `[rank0]:`, mpirun
// `[1,3]<stdout>:`, srun --label `0: `, CloudWatch `  | 2025-05-16T16:39:55.218-07:00 | `, docker
// compose `svc-1  | `, ANSI colour codes and CR. Prefixes may stack, in any order.
#ifndef NCCLSCOPE_INPUT_PREFIX_H_
#define NCCLSCOPE_INPUT_PREFIX_H_

#include <string>
#include <string_view>

#include "ncclscope/input/line.h"

namespace ncclscope {

/// Strips prefixes from `raw`. Returns the remaining text; fills *meta. When ANSI codes must be
/// removed the result is built in *scratch (so it lives as long as *scratch); otherwise the result
/// and meta views point into `raw`.
std::string_view StripPrefixes(std::string_view raw, LineMeta* meta, std::string* scratch);

/// StripPrefixes for a line known to hold no ESC byte (LineReader::line_is_plain): skips the
/// ANSI search; the result and meta views point into `raw`.
std::string_view StripPrefixesNoAnsi(std::string_view raw, LineMeta* meta);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_PREFIX_H_
