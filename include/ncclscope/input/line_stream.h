// LineStream: one input opened, split into lines and stripped of prefixes, yielding Line values
// with their metadata, number and source index. Problems are counted in InputDiagnostics rather
// than stopping the stream: only an open failure or a damaged stream sets the Status.
//
// Lifetime: the views in the Line returned by Next() are valid until the next call to Next().
#ifndef NCCLSCOPE_INPUT_LINE_STREAM_H_
#define NCCLSCOPE_INPUT_LINE_STREAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ncclscope/base/status.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/line.h"
#include "ncclscope/input/line_reader.h"

namespace ncclscope {

/// What went wrong while reading one input. All counters are of physical lines.
struct InputDiagnostics {
  uint64_t lines = 0;               ///< Lines returned so far.
  uint64_t bytes = 0;               ///< Bytes read from the source (decompressed for gzip).
  uint64_t truncated_lines = 0;     ///< Lines longer than the limit, cut.
  uint64_t nul_lines = 0;           ///< Lines holding NUL bytes (passed through as data).
  uint64_t invalid_utf8_lines = 0;  ///< Lines that are not valid UTF-8 (passed through).
  Status status;  ///< Non-ok: the input could not be opened or its stream was damaged.
};

class LineStream {
 public:
  /// Opens `path` ("-" = stdin). If that fails, diagnostics().status says why and Next() returns
  /// false at once. `source_index` is copied into every Line.
  LineStream(const std::string& path, uint32_t source_index,
             size_t max_line = LineReader::kDefaultMaxLine);
  /// Reads from an already opened source (tests, in-memory input).
  LineStream(std::unique_ptr<ByteSource> source, uint32_t source_index,
             size_t max_line = LineReader::kDefaultMaxLine);
  LineStream(const LineStream&) = delete;
  LineStream& operator=(const LineStream&) = delete;

  /// Fills *line with the next line. Returns false at end of input, after a damaged stream or
  /// when the input could not be opened: see diagnostics().status.
  bool Next(Line* line);

  /// Counters so far; status is final once Next() returned false.
  const InputDiagnostics& diagnostics() const { return diag_; }

 private:
  std::unique_ptr<ByteSource> source_;
  std::optional<LineReader> reader_;
  std::string scratch_;
  uint32_t source_index_;
  InputDiagnostics diag_;
};

/// True if `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
/// With `allow_cut_end`, an incomplete sequence at the very end is accepted (a cut line).
bool IsValidUtf8(std::string_view s, bool allow_cut_end = false);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_LINE_STREAM_H_
