// ByteSource: a stream of bytes from a file, stdin or a gzip member. Opening sniffs the gzip magic
// bytes (1f 8b), not the file name.
#ifndef NCCLSCOPE_INPUT_BYTE_SOURCE_H_
#define NCCLSCOPE_INPUT_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ncclscope/base/status.h"

namespace ncclscope {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `cap` bytes into `buf`. Sets *n to the count; *n == 0 with ok() means end of
  /// input. A damaged stream (truncated gzip, read error) returns a non-ok Status; bytes read
  /// before the damage were already returned.
  virtual Status Read(char* buf, size_t cap, size_t* n) = 0;
  /// Total size in bytes if known (regular files), else -1. Used for progress display.
  virtual int64_t SizeHint() const { return -1; }
};

/// Opens `path` ("-" = stdin). Returns nullptr and sets *err if it cannot be opened.
std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Status* err);

/// Wraps an in-memory buffer (tests, fuzzing). The buffer must outlive the source.
std::unique_ptr<ByteSource> MemoryByteSource(const char* data, size_t size);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_BYTE_SOURCE_H_
