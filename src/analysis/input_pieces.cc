// PlanPieces: large regular files cut at line boundaries; OpenPieceBytes: a byte range of a file.
#include "ncclscope/analysis/input_pieces.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "ncclscope/input/line_reader.h"

namespace ncclscope {
namespace {

/// A read-only file descriptor, closed at the end of its scope.
class File {
 public:
  explicit File(const std::string& path) {
    do {
      fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd_ < 0 && errno == EINTR);
  }
  ~File() {
    if (fd_ >= 0) close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int fd() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

  /// Reads up to `n` bytes at `offset` (fewer at the end of the file); false on an error.
  bool ReadAt(uint64_t offset, size_t n, std::string* out) const {
    out->resize(n);
    size_t got = 0;
    while (got < n) {
      ssize_t r = pread(fd_, out->data() + got, n - got, static_cast<off_t>(offset + got));
      if (r == 0) break;
      if (r < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      got += static_cast<size_t>(r);
    }
    out->resize(got);
    return true;
  }

 private:
  int fd_ = -1;
};

/// The bytes [begin, end) of a file, by pread(2).
class FileRangeSource : public ByteSource {
 public:
  FileRangeSource(int fd, std::string path, uint64_t begin, uint64_t end)
      : fd_(fd), path_(std::move(path)), pos_(begin), end_(end) {}
  ~FileRangeSource() override { close(fd_); }
  FileRangeSource(const FileRangeSource&) = delete;
  FileRangeSource& operator=(const FileRangeSource&) = delete;

  Status Read(char* buf, size_t cap, size_t* n) override {
    *n = 0;
    const uint64_t left = end_ - pos_;
    if (cap == 0 || left == 0) return Status::Ok();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(cap, left));
    for (;;) {
      ssize_t r = pread(fd_, buf, want, static_cast<off_t>(pos_));
      if (r >= 0) {
        *n = static_cast<size_t>(r);
        pos_ += static_cast<uint64_t>(r);
        return Status::Ok();
      }
      if (errno != EINTR) return Status::IoError(path_ + ": " + std::strerror(errno));
    }
  }
  int64_t SizeHint() const override {
    return end_ == InputPiece::kToEnd ? -1 : static_cast<int64_t>(end_ - pos_);
  }

 private:
  int fd_;
  std::string path_;
  uint64_t pos_;
  uint64_t end_;
};

/// Window read around a candidate cut: enough for the longest line the reader keeps whole.
constexpr size_t kWindow = LineReader::kDefaultMaxLine + 2;

/// The first line boundary at or after `from` whose preceding line is at most the line limit
/// long (so it can be primed from a window), with that line's bytes; nullopt if none before
/// `limit`.
std::optional<std::pair<uint64_t, std::string>> CutAfter(const File& f, uint64_t from,
                                                         uint64_t limit) {
  std::string ahead, behind;
  uint64_t pos = from;
  while (pos < limit) {
    if (!f.ReadAt(pos, kWindow, &ahead) || ahead.empty()) return std::nullopt;
    const void* nl = std::memchr(ahead.data(), '\n', ahead.size());
    if (nl == nullptr) {
      pos += ahead.size();
      continue;
    }
    const uint64_t cut = pos + static_cast<uint64_t>(static_cast<const char*>(nl) - ahead.data()) + 1;
    if (cut >= limit) return std::nullopt;
    // The line ending at `cut`: its start is after the previous newline, within the window.
    const uint64_t back = std::min<uint64_t>(cut, kWindow);
    if (!f.ReadAt(cut - back, static_cast<size_t>(back), &behind)) return std::nullopt;
    const size_t last = behind.size() - 1;  // the newline at cut - 1
    const size_t prev = last == 0 ? std::string::npos : behind.rfind('\n', last - 1);
    if (prev != std::string::npos || back == cut) {
      const size_t start = prev == std::string::npos ? 0 : prev + 1;
      if (behind.size() - start <= LineReader::kDefaultMaxLine + 1)
        return std::make_pair(cut, behind.substr(start));
    }
    pos = cut;  // too long a line before this cut: try the next one
  }
  return std::nullopt;
}

}  // namespace

std::vector<InputPiece> PlanPieces(const std::vector<InputPath>& inputs, unsigned jobs,
                                   uint64_t piece_bytes) {
  std::vector<InputPiece> pieces;
  for (size_t i = 0; i < inputs.size(); ++i) {
    InputPiece whole;
    whole.input = i;
    const std::string& path = inputs[i].path;
    struct stat st;
    if (jobs < 2 || piece_bytes == 0 || path == "-" || stat(path.c_str(), &st) != 0 ||
        !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) < 2 * piece_bytes) {
      pieces.push_back(whole);
      continue;
    }
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    File f(path);
    std::string head;
    if (f.fd() < 0 || !f.ReadAt(0, 2, &head) ||
        (head.size() == 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b)) {
      pieces.push_back(whole);  // unreadable (reported when read whole) or gzip
      continue;
    }
    const size_t first = pieces.size();
    InputPiece part;
    part.input = i;
    part.whole = false;
    part.begin = 0;
    for (uint64_t at = piece_bytes; at < size; at += piece_bytes) {
      if (at <= part.begin) continue;
      auto cut = CutAfter(f, at, size);
      if (!cut) break;
      part.end = cut->first;
      pieces.push_back(part);
      part = InputPiece{};
      part.input = i;
      part.whole = false;
      part.first = false;
      part.begin = cut->first;
      part.primer = std::move(cut->second);
    }
    part.end = InputPiece::kToEnd;
    pieces.push_back(std::move(part));
    if (pieces.size() - first == 1) {
      pieces.back() = whole;  // no cut found: one piece is the whole input
    }
  }
  return pieces;
}

std::unique_ptr<ByteSource> OpenPieceBytes(const InputPath& input, const InputPiece& piece,
                                           Status* err) {
  File f(input.path);
  if (f.fd() < 0) {
    const int e = errno;
    *err = Status::IoError(input.path + ": " + std::strerror(e));
    return nullptr;
  }
  return std::make_unique<FileRangeSource>(f.release(), input.path, piece.begin, piece.end);
}

}  // namespace ncclscope
