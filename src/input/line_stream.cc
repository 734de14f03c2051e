// LineStream: OpenByteSource + LineReader + StripPrefixes, with per-line sanity counters.
#include "ncclscope/input/line_stream.h"

#include <cstring>
#include <utility>

#include "ncclscope/input/prefix.h"

namespace ncclscope {
namespace {

/// True if every byte of `s` is below 0x80. Checks eight bytes at a time.
bool IsAscii(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t acc = 0;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    acc |= w;
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    acc |= static_cast<unsigned char>(*p++);
    --n;
  }
  return (acc & 0x8080808080808080ULL) == 0;
}

}  // namespace

bool IsValidUtf8(std::string_view s, bool allow_cut_end) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;  // Allowed range of the second byte.
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c == 0xe0) lo = 0xa0;  // overlong
      if (c == 0xed) hi = 0x9f;  // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c == 0xf0) lo = 0x90;  // overlong
      if (c == 0xf4) hi = 0x8f;  // above U+10FFFF
    } else {
      return false;
    }
    for (size_t k = 1; k < len; ++k) {
      if (i + k >= n) return allow_cut_end;
      const unsigned char b = p[i + k];
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xbf)) return false;
    }
    i += len;
  }
  return true;
}

LineStream::LineStream(const std::string& path, uint32_t source_index, size_t max_line)
    : source_index_(source_index) {
  source_ = OpenByteSource(path, &diag_.status);
  if (source_ != nullptr) reader_.emplace(source_.get(), max_line);
}

LineStream::LineStream(std::unique_ptr<ByteSource> source, uint32_t source_index, size_t max_line)
    : source_(std::move(source)), source_index_(source_index) {
  if (source_ != nullptr) reader_.emplace(source_.get(), max_line);
}

bool LineStream::Next(Line* line) {
  if (!reader_.has_value()) return false;
  std::string_view raw;
  bool truncated = false;
  if (!reader_->Next(&raw, &truncated)) {
    diag_.bytes = reader_->bytes_read();
    if (diag_.status.ok()) diag_.status = reader_->status();
    return false;
  }
  diag_.bytes = reader_->bytes_read();
  ++diag_.lines;
  if (truncated) ++diag_.truncated_lines;
  if (reader_->line_is_plain()) {  // ASCII without NUL or ESC: nothing to check or remove.
    line->text = StripPrefixesNoAnsi(raw, &line->meta);
  } else {
    if (!raw.empty() && std::memchr(raw.data(), '\0', raw.size()) != nullptr) ++diag_.nul_lines;
    if (!IsAscii(raw) && !IsValidUtf8(raw, truncated)) ++diag_.invalid_utf8_lines;
    line->text = StripPrefixes(raw, &line->meta, &scratch_);
  }
  line->number = reader_->lines_read();
  line->source = source_index_;
  line->truncated = truncated;
  return true;
}

}  // namespace ncclscope
