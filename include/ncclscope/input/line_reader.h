// LineReader: splits a ByteSource into lines over a fixed buffer, without a heap allocation per
// line. Handles CRLF, a last line without newline, and over-long lines (cut at max_line bytes, the
// rest of the physical line skipped and reported as truncated). The newline search (SSE2 where
// available) also notes whether a line holds any byte that needs a closer look (NUL, ESC or a
// byte >= 0x80, or a CR inside the line), so that clean ASCII lines skip the later per-line checks.
//
// Lifetime: the view returned by Next() is valid until the next call to Next().
#ifndef NCCLSCOPE_INPUT_LINE_READER_H_
#define NCCLSCOPE_INPUT_LINE_READER_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/input/buffer_recycler.h"
#include "ncclscope/input/byte_source.h"

namespace ncclscope {

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = 64 * 1024;
  /// Size of the read buffer (grown to max_line + 1 when max_line is larger).
  static constexpr size_t kBufferSize = 256 * 1024;

  /// Reads from `source`, which must outlive the reader. `max_line` must be at least 1.
  explicit LineReader(ByteSource* source, size_t max_line = kDefaultMaxLine);

  /// Returns false at end of input (or after a read error: see status()). *truncated is set when
  /// the physical line was longer than max_line.
  bool Next(std::string_view* line, bool* truncated);

  /// True if the line last returned by Next() is plain: no NUL, no ESC, no CR (a CRLF ending
  /// counts) and no byte >= 0x80.
  /// False means "maybe not" (the caller then checks the line itself).
  bool line_is_plain() const { return line_plain_; }
  /// How many times the bytes "NC" occur in the line last returned (an upper bound; large when
  /// not counted): a line with at most one holds at most one NCCL message.
  unsigned line_nc_pairs() const { return line_nc_pairs_; }

  /// With a recycler, a line returned stays valid after the next reads: the reader never writes
  /// into a buffer it returned lines from again, but moves on to a buffer the recycler gives and
  /// retires the old one to it. `recycler` must outlive the reader or be reset to nullptr.
  void set_recycler(BufferRecycler* recycler) { recycler_ = recycler; }
  /// The buffer the lines returned since the last retire lie in (data and padding).
  std::string_view buffer() const { return {buf_.get(), capacity_ + kScanPadding}; }

  /// Reads ahead until the input ends or the buffer is full. When the whole rest of the input is
  /// now buffered (a small input), returns true and sets *rest to it: the lines Next() returns
  /// from then on lie in that buffer and stay valid until the reader is destroyed.
  bool ReadAhead(std::string_view* rest);

  /// Non-ok if reading stopped because the source was damaged.
  const Status& status() const { return status_; }
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t lines_read() const { return lines_read_; }

 private:
  /// Reads more bytes after end_. Returns false when nothing was added (end of input or error).
  bool Fill();
  /// Discards the rest of an over-long physical line. Returns false if input ended first.
  bool SkipRestOfLine();
  /// A buffer of `capacity` bytes (plus padding) holding the current data.
  void Allocate(size_t capacity);
  /// Moves the unconsumed bytes [begin_, end_) to the start of the buffer (a fresh one from the
  /// recycler, when there is one, so that returned lines stay intact).
  void Compact();

  ByteSource* source_;
  BufferRecycler* recycler_ = nullptr;
  size_t max_line_;
  /// Bytes after the data area the scanners may read (never interpreted): the AVX2 scanner's
  /// masked last chunk reads up to 33 bytes past the data it was given.
  static constexpr size_t kScanPadding = 64;

  /// The smallest buffer given to a small file.
  static constexpr size_t kSmallBuffer = 4096;

  std::unique_ptr<char[]> buf_;  // data area (capacity_) followed by kScanPadding zero bytes
  size_t full_capacity_;         // max(kBufferSize, max_line_ + 1)
  size_t capacity_;              // full_capacity_, or less for a small file until it grows
  size_t begin_ = 0;             // start of unconsumed data
  size_t end_ = 0;               // end of valid data
  size_t scanned_ = 0;           // bytes after begin_ already known to hold no '\n'
  bool eof_ = false;
  bool skipping_ = false;         // the rest of an over-long line is still to be discarded
  bool scanned_special_ = false;  // the scanned_ bytes hold NUL, ESC or a byte >= 0x80
  bool line_plain_ = false;
  static constexpr unsigned kManyPairs = 1u << 30;
  unsigned line_nc_pairs_ = kManyPairs;
  Status status_;
  uint64_t bytes_read_ = 0;
  uint64_t lines_read_ = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_LINE_READER_H_
