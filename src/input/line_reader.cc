// LineReader: memchr-based line splitting over one fixed buffer.
#include "ncclscope/input/line_reader.h"

#include <algorithm>
#include <cstring>

namespace ncclscope {

LineReader::LineReader(ByteSource* source, size_t max_line)
    : source_(source),
      max_line_(std::max<size_t>(max_line, 1)),
      buf_(std::max(kBufferSize, max_line_ + 1)) {}

bool LineReader::Fill() {
  if (eof_) return false;
  size_t n = 0;
  Status s = source_->Read(buf_.data() + end_, buf_.size() - end_, &n);
  end_ += n;
  bytes_read_ += n;
  if (!s.ok()) {
    status_ = s;
    eof_ = true;
  } else if (n == 0) {
    eof_ = true;
  }
  return n > 0;
}

bool LineReader::SkipRestOfLine() {
  for (;;) {
    const char* p = buf_.data() + begin_;
    const void* nl = std::memchr(p, '\n', end_ - begin_);
    if (nl != nullptr) {
      begin_ = static_cast<const char*>(nl) - buf_.data() + 1;
      skipping_ = false;
      return true;
    }
    begin_ = end_ = 0;
    if (!Fill()) return false;
  }
}

bool LineReader::Next(std::string_view* line, bool* truncated) {
  *truncated = false;
  if (skipping_ && !SkipRestOfLine()) {
    skipping_ = false;
    return false;
  }
  for (;;) {
    const size_t avail = end_ - begin_;
    const size_t window = std::min(avail, max_line_ + 1);
    char* start = buf_.data() + begin_;
    if (window > scanned_) {
      const void* nl = std::memchr(start + scanned_, '\n', window - scanned_);
      if (nl != nullptr) {
        size_t len = static_cast<const char*>(nl) - start;
        begin_ += len + 1;
        scanned_ = 0;
        if (len > 0 && start[len - 1] == '\r') --len;
        *line = std::string_view(start, len);
        ++lines_read_;
        return true;
      }
      scanned_ = window;
    }
    if (avail > max_line_) {  // No newline within max_line + 1 bytes: cut the line.
      *line = std::string_view(start, max_line_);
      *truncated = true;
      begin_ += max_line_;
      scanned_ = 0;
      skipping_ = true;
      ++lines_read_;
      return true;
    }
    if (eof_) {
      if (avail == 0) return false;
      size_t len = avail;
      begin_ = end_;
      scanned_ = 0;
      if (start[len - 1] == '\r') --len;
      *line = std::string_view(start, len);
      ++lines_read_;
      return true;
    }
    if (begin_ > 0) {  // Make room: move the partial line to the front.
      std::memmove(buf_.data(), start, avail);
      begin_ = 0;
      end_ = avail;
    }
    Fill();
  }
}

}  // namespace ncclscope
