// LineStream: one input opened, split into lines, container records decoded (CRI, docker
// json-file, JSON exports; partial records joined), lines split again at inner CRs and newlines
// (progress bars, multi-line JSON messages), and prefixes stripped, yielding Line values with
// their metadata, number and source index. Problems are counted in InputDiagnostics rather than
// stopping the stream: only an open failure or a damaged stream sets the Status.
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
#include "ncclscope/input/container_record.h"
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
  uint64_t container_records = 0;   ///< CRI / JSON log records decoded.
  uint64_t malformed_records = 0;   ///< Lines that looked like JSON records but were not valid
                                    ///< JSON (passed through as they are).
  uint64_t joined_records = 0;      ///< Partial records (CRI `P`, split docker lines) joined.
  uint64_t split_lines = 0;         ///< Physical lines split at inner CRs or newlines.
  /// A small input hard-wrapped at a fixed width (HardWrapWidth): that width, and the physical
  /// lines joined back onto the line they continue.
  uint64_t wrap_width = 0;
  uint64_t rejoined_lines = 0;
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

  /// Lines stay valid after later reads when their bytes came straight from the reader's buffer
  /// (LineReader::set_recycler); lines the stream rewrote (decoded records, colours removed) lie
  /// in its own scratch space, which the next line reuses.
  void set_recycler(BufferRecycler* recycler) {
    if (reader_) reader_->set_recycler(recycler);
  }
  /// The reader's current buffer (empty without a reader): bytes of a line inside it are the
  /// reader's own, kept by the recycler.
  std::string_view reader_buffer() const {
    return reader_ ? reader_->buffer() : std::string_view();
  }

  /// Counters so far; status is final once Next() returned false.
  const InputDiagnostics& diagnostics() const { return diag_; }

 private:
  /// Reads one physical line from the reader and counts it (lines, truncation, NUL and invalid
  /// UTF-8 bytes). False at end of input.
  bool ReadPhysical(std::string_view* raw, bool* truncated);
  /// The reader ended (end of input or a damaged stream): the final byte count and status.
  void NoteEnd();
  /// Reads the next logical line (records decoded and joined) into pending_/record_, starting
  /// with `first` when it is not null (a physical line Next() already read and counted).
  bool ReadLogical(std::string_view first, bool first_truncated);
  /// A physical line that is no container record becomes pending_ as it is; `counted`: it is the
  /// reader's current line (its "NC" count applies).
  void SetPlainPending(std::string_view raw, bool counted);
  /// Emits the next piece of pending_ (up to an inner CR or newline) as *line.
  void EmitSegment(Line* line);
  /// At construction: a small input of known size (at most 32 KB) is buffered whole
  /// and checked for a hard wrap (HardWrapWidth); if it has one, Next() reads through
  /// NextUnwrapped.
  void DetectHardWrap();
  /// Next() for a hard-wrapped input: a line of the wrap width and the lines that continue it
  /// are one line (numbered as its first); every line is plain text (no container records).
  bool NextUnwrapped(Line* line);

  std::unique_ptr<ByteSource> source_;
  std::optional<LineReader> reader_;
  std::string scratch_;
  ContainerDecoder decoder_;
  ContainerRecord record_;      ///< The record of the current logical line (format kPlain if none).
  std::string joined_;          ///< Partial records joined so far.
  std::string_view pending_;    ///< What is left of the current logical line.
  bool pending_plain_ = false;  ///< pending_ holds no ESC, CR or newline: no split, no ANSI.
  bool pending_one_nc_ = false;  ///< pending_ is a plain reader line with at most one "NC".
  bool has_pending_ = false;
  bool split_counted_ = false;  ///< The current logical line was counted in split_lines.
  bool last_plain_ = false;     ///< LineReader::line_is_plain() of the last physical line.
  /// A line read while joining partial records that turned out not to continue them: it is the
  /// next logical line (copied, since the reader's buffer moves on).
  std::string deferred_;
  std::string_view deferred_view_;
  bool deferred_truncated_ = false;
  bool has_deferred_ = false;
  uint64_t number_ = 0;  ///< Physical line number of the current logical line.
  size_t wrap_width_ = 0;        ///< 0: not a hard-wrapped input.
  uint64_t deferred_number_ = 0;  ///< Line number of the deferred line (NextUnwrapped).
  std::string unwrapped_;        ///< A wrapped line's pieces joined (NextUnwrapped).
  bool truncated_ = false;
  uint32_t source_index_;
  size_t max_line_;
  InputDiagnostics diag_;
};

/// True if `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
/// With `allow_cut_end`, an incomplete sequence at the very end is accepted (a cut line).
bool IsValidUtf8(std::string_view s, bool allow_cut_end = false);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_LINE_STREAM_H_
