// One line of input after launcher/collector prefixes were stripped.
//
// Lifetime: every std::string_view in Line and LineMeta points into the reader's buffer and is
// valid only until the next line is read. Consumers copy what they keep.
#ifndef NCCLSCOPE_INPUT_LINE_H_
#define NCCLSCOPE_INPUT_LINE_H_

#include <cstdint>
#include <string_view>

namespace ncclscope {

/// What the stripped prefixes said about a line. Empty views / -1 mean "no such prefix".
struct LineMeta {
  std::string_view timestamp;  ///< kubectl --timestamps (RFC3339) or CloudWatch export time.
  std::string_view pod;        ///< kubectl --prefix `[pod/NAME/CONTAINER]`: "NAME/CONTAINER".
  std::string_view service;    ///< docker compose `svc-1  | `.
  int launcher_rank =
      -1;                 ///< torchrun --tee `[default3]:`, `[rank3]:`, mpirun `[1,3]`, srun `3: `.
  bool had_ansi = false;  ///< ANSI colour codes were removed.

  /// Back to the defaults field by field (GCC copies a whole `LineMeta{}` through a stack
  /// temporary, which costs a store-forwarding stall on every line).
  void Clear() {
    timestamp = {};
    pod = {};
    service = {};
    launcher_rank = -1;
    had_ansi = false;
  }
};

/// A physical input line, prefixes removed. `number` is 1-based within its source.
struct Line {
  std::string_view text;  ///< The line without prefixes, CR/LF and ANSI codes.
  uint64_t number = 0;
  uint32_t source = 0;  ///< Index into the table of inputs (see input/source.h).
  LineMeta meta;
  bool truncated = false;  ///< The physical line was longer than the reader's limit and was cut.
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_LINE_H_
