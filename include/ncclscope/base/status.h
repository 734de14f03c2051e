// Status: the one error type for operational failures (unreadable input, bad policy file, ...).
// A value type: ok() or a code plus a message that already names the file (and line) involved.
#ifndef NCCLSCOPE_BASE_STATUS_H_
#define NCCLSCOPE_BASE_STATUS_H_

#include <string>
#include <utility>

namespace ncclscope {

class Status {
 public:
  enum class Code { kOk, kNotFound, kIoError, kInvalidInput, kUsage };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status InvalidInput(std::string msg) {
    return Status(Code::kInvalidInput, std::move(msg));
  }
  static Status Usage(std::string msg) { return Status(Code::kUsage, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_STATUS_H_
