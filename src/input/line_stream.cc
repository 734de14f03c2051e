// LineStream: OpenByteSource + LineReader + StripPrefixes, with per-line sanity counters.
#include "ncclscope/input/line_stream.h"

#include <cstring>
#include <utility>

#include "ncclscope/input/hard_wrap.h"
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
    : source_index_(source_index), max_line_(max_line) {
  source_ = OpenByteSource(path, &diag_.status);
  if (source_ != nullptr) reader_.emplace(source_.get(), max_line);
  if (reader_) DetectHardWrap();
}

LineStream::LineStream(std::unique_ptr<ByteSource> source, uint32_t source_index, size_t max_line)
    : source_(std::move(source)), source_index_(source_index), max_line_(max_line) {
  if (source_ != nullptr) reader_.emplace(source_.get(), max_line);
  if (reader_) DetectHardWrap();
}

namespace {

bool MayBeRecord(std::string_view raw) {
  if (raw.empty()) return false;
  const char c = raw.front();
  return c == '{' || (c >= '0' && c <= '9');
}

/// True if `s` holds none of the bytes that need a split or ANSI removal.
bool NeedsNoSplit(std::string_view s) {
  return s.empty() || (std::memchr(s.data(), '\r', s.size()) == nullptr &&
                       std::memchr(s.data(), '\n', s.size()) == nullptr &&
                       std::memchr(s.data(), '\x1b', s.size()) == nullptr);
}

}  // namespace

void LineStream::SetPlainPending(std::string_view raw, bool counted) {
  record_.format = RecordFormat::kPlain;
  pending_ = raw;
  pending_plain_ = last_plain_;
  pending_one_nc_ = counted && last_plain_ && reader_->line_nc_pairs() <= 1;
  has_pending_ = true;
}

inline bool LineStream::ReadPhysical(std::string_view* raw, bool* truncated) {
  if (!reader_->Next(raw, truncated)) return false;
  diag_.bytes = reader_->bytes_read();
  ++diag_.lines;
  last_plain_ = reader_->line_is_plain();
  if (*truncated) ++diag_.truncated_lines;
  if (!last_plain_) {
    if (!raw->empty() && std::memchr(raw->data(), '\0', raw->size()) != nullptr) ++diag_.nul_lines;
    if (!IsAscii(*raw) && !IsValidUtf8(*raw, *truncated)) ++diag_.invalid_utf8_lines;
  }
  return true;
}

void LineStream::NoteEnd() {
  diag_.bytes = reader_->bytes_read();
  if (diag_.status.ok()) diag_.status = reader_->status();
}

bool LineStream::ReadLogical(std::string_view first, bool first_truncated) {
  bool joining = false;
  bool have_first = first.data() != nullptr;  // Next() read the first physical line already
  joined_.clear();
  for (;;) {
    std::string_view raw;
    bool truncated = false;
    bool counted = false;  // raw is the reader's line, whose "NC" pairs were counted
    if (have_first) {
      raw = first;
      truncated = first_truncated;
      have_first = false;
      counted = true;
    } else if (has_deferred_) {
      raw = deferred_view_;
      truncated = deferred_truncated_;
      has_deferred_ = false;
    } else if (!ReadPhysical(&raw, &truncated)) {
      NoteEnd();
      if (!joining) return false;
      // Input ended inside a partial record: what was joined is the last line.
      pending_ = joined_;
      pending_plain_ = NeedsNoSplit(pending_);
      has_pending_ = true;
      return true;
    } else {
      counted = true;
    }
    if (!joining) {
      number_ = reader_->lines_read();
      truncated_ = truncated;
    } else {
      truncated_ = truncated_ || truncated;
    }
    if (!joining && !MayBeRecord(raw)) {  // the common case: a plain line, no record to decode
      SetPlainPending(raw, counted);
      return true;
    }
    ContainerRecord rec;
    const ContainerDecoder::Result r =
        MayBeRecord(raw) ? decoder_.Decode(raw, &rec) : ContainerDecoder::Result::kPlain;
    if (r == ContainerDecoder::Result::kMalformed) ++diag_.malformed_records;
    if (r != ContainerDecoder::Result::kRecord) {
      if (joining) {  // A partial record not continued: emit it, and this line after it.
        deferred_.assign(raw);
        deferred_view_ = deferred_;
        deferred_truncated_ = truncated;
        has_deferred_ = true;
        pending_ = joined_;
        pending_plain_ = NeedsNoSplit(pending_);
        has_pending_ = true;
        return true;
      }
      SetPlainPending(raw, counted);
      return true;
    }
    ++diag_.container_records;
    if (rec.partial || joining) {
      if (joining) ++diag_.joined_records;
      const size_t room = max_line_ > joined_.size() ? max_line_ - joined_.size() : 0;
      if (rec.text.size() > room) truncated_ = true;
      joined_.append(rec.text.substr(0, room));
      record_ = rec;
      if (rec.partial) {
        joining = true;
        continue;
      }
      pending_ = joined_;
    } else {
      record_ = rec;
      pending_ = rec.text;
    }
    pending_plain_ = NeedsNoSplit(pending_);
    has_pending_ = true;
    return true;
  }
}

void LineStream::EmitSegment(Line* line) {
  std::string_view seg = pending_;
  if (pending_plain_) {
    has_pending_ = false;
  } else {
    for (;;) {
      size_t cut = 0;
      while (cut < pending_.size() && pending_[cut] != '\r' && pending_[cut] != '\n') ++cut;
      seg = pending_.substr(0, cut);
      if (cut == pending_.size()) {
        has_pending_ = false;
        break;
      }
      if (!split_counted_) {
        ++diag_.split_lines;
        split_counted_ = true;
      }
      size_t next = cut + 1;
      if (pending_[cut] == '\r' && next < pending_.size() && pending_[next] == '\n') ++next;
      pending_ = pending_.substr(next);
      if (pending_.empty()) has_pending_ = false;
      if (!seg.empty() || !has_pending_) break;  // Empty pieces between two CRs are skipped.
    }
  }
  if (!has_pending_) split_counted_ = false;
  if (pending_plain_) {
    line->text = StripPrefixesNoAnsi(seg, &line->meta);
  } else {
    line->text = StripPrefixes(seg, &line->meta, &scratch_);
  }
  if (record_.format != RecordFormat::kPlain) {
    // The record's own fields are the outermost prefix: its time wins; identity fills gaps.
    if (!record_.time.empty()) line->meta.timestamp = record_.time;
    if (line->meta.pod.empty()) line->meta.pod = record_.pod;
    if (line->meta.origin_host.empty()) line->meta.origin_host = record_.host;
    if (line->meta.origin_pid == 0) line->meta.origin_pid = record_.pid;
  }
  line->number = number_;
  line->source = source_index_;
  line->truncated = truncated_;
  // Only a plain physical line taken whole was counted (a record's text, a joined or split
  // line were not).
  line->nc_at_most_once = pending_one_nc_ && record_.format == RecordFormat::kPlain;
  pending_one_nc_ = false;
}

void LineStream::DetectHardWrap() {
  // Only a small input whose size is known: buffering a pipe to its end would stall a live one,
  // and a paste in a ticket is a few KB (per-rank logs of a real job, larger, are not scanned).
  constexpr int64_t kMaxPaste = 32 * 1024;
  const int64_t size = source_ ? source_->SizeHint() : -1;
  if (size <= 0 || size > kMaxPaste) return;
  std::string_view all;
  if (!reader_->ReadAhead(&all)) return;
  wrap_width_ = HardWrapWidth(all);
  diag_.wrap_width = wrap_width_;
}

bool LineStream::NextUnwrapped(Line* line) {
  if (has_pending_) {  // the rest of a line split at an inner CR
    EmitSegment(line);
    return true;
  }
  std::string_view raw;
  bool truncated = false;
  if (has_deferred_) {
    raw = deferred_view_;
    truncated = deferred_truncated_;
    number_ = deferred_number_;
    has_deferred_ = false;
  } else {
    if (!ReadPhysical(&raw, &truncated)) {
      NoteEnd();
      return false;
    }
    number_ = reader_->lines_read();
  }
  // The whole input is in the reader's buffer (DetectHardWrap): views of earlier lines stay
  // valid while later ones are read.
  bool joined = false;
  std::string_view piece = raw;
  bool first = number_ == 1;  // PasteLineWidth: the paste's first line may carry a backtick
  while (PasteLineWidth(piece, first) == wrap_width_ && !EndsInPadding(piece)) {
    first = false;
    std::string_view next;
    bool next_truncated = false;
    if (!ReadPhysical(&next, &next_truncated)) break;
    if (!ContinuesLine(piece, next)) {
      deferred_view_ = next;
      deferred_truncated_ = next_truncated;
      deferred_number_ = reader_->lines_read();
      has_deferred_ = true;
      break;
    }
    if (!joined) {
      unwrapped_.assign(raw);
      joined = true;
    }
    unwrapped_.append(next);
    truncated = truncated || next_truncated;
    ++diag_.rejoined_lines;
    piece = next;
  }
  record_.format = RecordFormat::kPlain;
  pending_ = joined ? std::string_view(unwrapped_) : raw;
  pending_plain_ = NeedsNoSplit(pending_);
  pending_one_nc_ = false;
  truncated_ = truncated;
  has_pending_ = true;
  EmitSegment(line);
  return true;
}

bool LineStream::Next(Line* line) {
  if (!reader_.has_value()) return false;
  if (wrap_width_ != 0) return NextUnwrapped(line);
  if (!has_pending_ && !has_deferred_) {
    // The common case, taken without the logical-line machinery: a whole physical line that
    // holds no special byte and cannot be a container record is one line, prefixes stripped.
    std::string_view raw;
    bool truncated = false;
    if (!ReadPhysical(&raw, &truncated)) {
      NoteEnd();
      return false;
    }
    if (!truncated && last_plain_ && !MayBeRecord(raw)) {
      line->text = StripPrefixesNoAnsi(raw, &line->meta);
      line->number = reader_->lines_read();
      line->source = source_index_;
      line->truncated = false;
      line->nc_at_most_once = reader_->line_nc_pairs() <= 1;
      return true;
    }
    if (!ReadLogical(raw, truncated)) return false;
  } else if (!has_pending_ && !ReadLogical({}, false)) {
    return false;
  }
  EmitSegment(line);
  return true;
}

}  // namespace ncclscope
