// ByteSource implementations: plain file descriptors (files, stdin), gzip streams (sniffed by the
// magic bytes 1f 8b, possibly several concatenated members) and in-memory buffers.
#include "ncclscope/input/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

namespace ncclscope {
namespace {

constexpr size_t kGzipInputSize = 256 * 1024;

std::string ErrnoMessage(const std::string& path, int err) {
  return path + ": " + std::strerror(err);
}

/// Reads a file descriptor with plain read(2). A few bytes sniffed at open time are handed out
/// first. Closes the descriptor unless it is stdin.
class FdByteSource : public ByteSource {
 public:
  FdByteSource(int fd, std::string path, int64_t size)
      : fd_(fd), path_(std::move(path)), size_(size) {}
  ~FdByteSource() override {
    if (fd_ > STDERR_FILENO) close(fd_);
  }
  FdByteSource(const FdByteSource&) = delete;
  FdByteSource& operator=(const FdByteSource&) = delete;

  Status Read(char* buf, size_t cap, size_t* n) override {
    *n = 0;
    if (cap == 0) return Status::Ok();
    if (pending_begin_ < pending_.size()) {
      size_t k = std::min(cap, pending_.size() - pending_begin_);
      std::memcpy(buf, pending_.data() + pending_begin_, k);
      pending_begin_ += k;
      *n = k;
      return Status::Ok();
    }
    ssize_t r = read(fd_, buf, cap);
    if (r >= 0) {
      *n = static_cast<size_t>(r);
      return Status::Ok();
    }
    // EINTR only reaches a read when a signal handler was installed without SA_RESTART: that is
    // how `analyze --follow` stops a blocking read on Ctrl-C. It ends the input (not an error),
    // so everything read so far is still analysed and reported.
    if (errno == EINTR) return Status::Ok();
    return Status::IoError(ErrnoMessage(path_, errno));
  }

  int64_t SizeHint() const override { return size_; }

  /// Reads until `want` bytes or end of input and keeps them to be returned by Read() again.
  /// Returns them through *head; a read error is returned as non-ok.
  Status Peek(size_t want, std::string_view* head) {
    pending_.resize(want);
    size_t got = 0;
    while (got < want) {
      ssize_t r = read(fd_, pending_.data() + got, want - got);
      if (r == 0) break;
      if (r < 0) {
        if (errno == EINTR) break;  // Interrupted (see Read): keep what was read.
        pending_.resize(got);
        return Status::IoError(ErrnoMessage(path_, errno));
      }
      got += static_cast<size_t>(r);
    }
    pending_.resize(got);
    *head = std::string_view(pending_.data(), pending_.size());
    return Status::Ok();
  }

 private:
  int fd_;
  std::string path_;
  int64_t size_;
  std::vector<char> pending_;
  size_t pending_begin_ = 0;
};

/// Decompresses a gzip stream read from another ByteSource. Concatenated members are decoded one
/// after the other; trailing zero padding is ignored.
class GzipByteSource : public ByteSource {
 public:
  GzipByteSource(std::unique_ptr<ByteSource> raw, std::string path)
      : raw_(std::move(raw)), path_(std::move(path)), in_(kGzipInputSize) {
    std::memset(&zs_, 0, sizeof(zs_));
    init_ok_ = inflateInit2(&zs_, 15 + 32) == Z_OK;
  }
  ~GzipByteSource() override {
    if (init_ok_) inflateEnd(&zs_);
  }
  GzipByteSource(const GzipByteSource&) = delete;
  GzipByteSource& operator=(const GzipByteSource&) = delete;

  Status Read(char* buf, size_t cap, size_t* n) override {
    *n = 0;
    if (!init_ok_) return Status::IoError(path_ + ": cannot initialise zlib");
    if (!deferred_.ok()) return deferred_;
    if (done_ || cap == 0) return Status::Ok();
    zs_.next_out = reinterpret_cast<Bytef*>(buf);
    zs_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    const uInt out_cap = zs_.avail_out;
    Status damage;
    while (zs_.avail_out > 0) {
      const bool produced = zs_.avail_out < out_cap;
      if (zs_.avail_in == 0 && !in_eof_) {
        if (produced) break;  // Hand out what we have before blocking on more input.
        damage = FillInput();
        if (!damage.ok()) break;
        continue;
      }
      if (!in_member_) {
        if (zs_.avail_in == 0) {  // End of input right after a complete member.
          done_ = true;
          break;
        }
        damage = StartNextMember();
        if (!damage.ok() || done_) break;
        continue;
      }
      int rc = inflate(&zs_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        continue;
      }
      if (rc == Z_OK) continue;
      if (rc == Z_BUF_ERROR && zs_.avail_in == 0) {
        if (!in_eof_) continue;  // Needs more input: the loop reads it.
        damage = Status::InvalidInput(path_ + ": truncated gzip stream");
        break;
      }
      const char* what = zs_.msg != nullptr ? zs_.msg : "corrupt data";
      damage = Status::InvalidInput(path_ + ": damaged gzip stream: " + what);
      break;
    }
    *n = out_cap - zs_.avail_out;
    if (!damage.ok()) {
      done_ = true;
      deferred_ = damage;
      // Return the good bytes now and the damage on the next call.
      return *n > 0 ? Status::Ok() : damage;
    }
    return Status::Ok();
  }

 private:
  /// Moves the unread input to the front and reads more from the raw source.
  Status FillInput() {
    size_t keep = zs_.avail_in;
    if (keep > 0 && zs_.next_in != reinterpret_cast<Bytef*>(in_.data())) {
      std::memmove(in_.data(), zs_.next_in, keep);
    }
    size_t got = 0;
    Status s = raw_->Read(in_.data() + keep, in_.size() - keep, &got);
    if (s.ok() && got == 0) in_eof_ = true;
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(keep + got);
    return s;
  }

  /// Called between members with input available: resets zlib for a new member if the next
  /// bytes are the gzip magic, ends the stream on zero padding, reports anything else.
  Status StartNextMember() {
    while (zs_.avail_in < 2 && !in_eof_) {
      Status s = FillInput();
      if (!s.ok()) return s;
    }
    const unsigned char* p = zs_.next_in;
    if (zs_.avail_in >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
      if (inflateReset(&zs_) != Z_OK) return Status::IoError(path_ + ": cannot reset zlib");
      in_member_ = true;
      return Status::Ok();
    }
    // Anything else after a complete member: accept zero padding, reject the rest.
    for (;;) {
      for (uInt i = 0; i < zs_.avail_in; ++i) {
        if (p[i] != 0) {
          return Status::InvalidInput(path_ + ": trailing garbage after gzip data");
        }
      }
      zs_.avail_in = 0;
      if (in_eof_) break;
      Status s = FillInput();
      if (!s.ok()) return s;
      p = zs_.next_in;
    }
    done_ = true;
    return Status::Ok();
  }

  std::unique_ptr<ByteSource> raw_;
  std::string path_;
  std::vector<char> in_;
  z_stream zs_;
  bool init_ok_ = false;
  bool in_member_ = true;  // The sniffed magic bytes start the first member.
  bool in_eof_ = false;
  bool done_ = false;
  Status deferred_;
};

class MemorySource : public ByteSource {
 public:
  MemorySource(const char* data, size_t size) : data_(data), size_(size) {}
  Status Read(char* buf, size_t cap, size_t* n) override {
    size_t k = std::min(cap, size_ - pos_);
    if (k > 0) std::memcpy(buf, data_ + pos_, k);
    pos_ += k;
    *n = k;
    return Status::Ok();
  }
  int64_t SizeHint() const override { return static_cast<int64_t>(size_); }

 private:
  const char* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Status* err) {
  *err = Status::Ok();
  int fd = STDIN_FILENO;
  std::string name = path;
  if (path == "-") {
    name = "<stdin>";
  } else {
    do {
      fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      int e = errno;
      *err = e == ENOENT ? Status::NotFound(ErrnoMessage(path, e))
                         : Status::IoError(ErrnoMessage(path, e));
      return nullptr;
    }
  }
  int64_t size = -1;
  struct stat st;
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (fd != STDIN_FILENO) close(fd);
      *err = Status::IoError(ErrnoMessage(name, EISDIR));
      return nullptr;
    }
    if (S_ISREG(st.st_mode)) {
      size = static_cast<int64_t>(st.st_size);
      posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    }
  }
  auto raw = std::make_unique<FdByteSource>(fd, name, size);
  std::string_view head;
  Status s = raw->Peek(2, &head);
  if (!s.ok()) {
    *err = s;
    return nullptr;
  }
  if (head.size() == 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b) {
    return std::make_unique<GzipByteSource>(std::move(raw), name);
  }
  return raw;
}

std::unique_ptr<ByteSource> MemoryByteSource(const char* data, size_t size) {
  return std::make_unique<MemorySource>(data, size);
}

}  // namespace ncclscope
