// SharedText: an immutable string whose copies share one allocation. The model quotes log lines
// as evidence (Evidence::text) and copies them into incidents, findings and reports; a copy here
// is a reference count, not a new buffer. Eight bytes (one pointer, null when empty) instead of
// std::string's 32 plus a heap block per copy: a job of thousands of ranks keeps hundreds of
// thousands of these. The count is atomic, so copies may be dropped on other threads.
#ifndef NCCLSCOPE_BASE_SHARED_TEXT_H_
#define NCCLSCOPE_BASE_SHARED_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace ncclscope {

class SharedText {
 public:
  SharedText() = default;
  /// A copy of `s` (no allocation for an empty string). Implicit: a SharedText is assigned and
  /// initialised from lines, literals and strings wherever a text was a std::string.
  SharedText(std::string_view s);  // NOLINT(google-explicit-constructor)
  SharedText(const char* s) : SharedText(std::string_view(s)) {}         // NOLINT
  SharedText(const std::string& s) : SharedText(std::string_view(s)) {}  // NOLINT

  SharedText(const SharedText& other) noexcept;
  SharedText(SharedText&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  SharedText& operator=(const SharedText& other) noexcept;
  SharedText& operator=(SharedText&& other) noexcept;
  ~SharedText() { Release(); }

  std::string_view view() const {
    return block_ == nullptr ? std::string_view() : std::string_view(Bytes(), block_->size);
  }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
  std::string str() const { return std::string(view()); }

  const char* data() const { return view().data(); }
  size_t size() const { return block_ == nullptr ? 0 : block_->size; }
  bool empty() const { return block_ == nullptr; }
  std::string_view substr(size_t pos, size_t n = std::string_view::npos) const {
    return view().substr(pos, n);
  }
  size_t find(std::string_view s, size_t pos = 0) const { return view().find(s, pos); }

  /// Copies that share one buffer (tests, and callers that want to know a copy is free).
  bool SharesBufferWith(const SharedText& other) const {
    return block_ != nullptr && block_ == other.block_;
  }

  friend bool operator==(const SharedText& a, const SharedText& b) {
    return a.block_ == b.block_ || a.view() == b.view();
  }
  friend bool operator==(const SharedText& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const SharedText& a, const char* b) { return a.view() == b; }
  friend bool operator==(const SharedText& a, const std::string& b) { return a.view() == b; }
  friend auto operator<=>(const SharedText& a, const SharedText& b) {
    return a.view() <=> b.view();
  }

 private:
  /// The reference count and the length, followed by the bytes (no terminating NUL).
  struct Block {
    uint32_t refs;  ///< Changed through std::atomic_ref.
    uint32_t size;
  };
  const char* Bytes() const { return reinterpret_cast<const char*>(block_ + 1); }
  void Release() noexcept;

  Block* block_ = nullptr;
};

std::ostream& operator<<(std::ostream& out, const SharedText& text);

inline std::string operator+(const std::string& a, const SharedText& b) {
  std::string out;
  out.reserve(a.size() + b.size());
  return out.append(a).append(b.view());
}
inline std::string operator+(const SharedText& a, const std::string& b) {
  std::string out;
  out.reserve(a.size() + b.size());
  return out.append(a.view()).append(b);
}
inline std::string operator+(const char* a, const SharedText& b) { return std::string(a) + b; }
inline std::string operator+(const SharedText& a, const char* b) { return a + std::string(b); }

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_SHARED_TEXT_H_
