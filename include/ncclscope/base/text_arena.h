// TextArena: copies of many short strings in large blocks that never move. A view returned by
// Add stays valid as long as the arena lives, also after the arena (or its owner) is moved; the
// arena cannot be copied. One allocation per block instead of one per string.
#ifndef NCCLSCOPE_BASE_TEXT_ARENA_H_
#define NCCLSCOPE_BASE_TEXT_ARENA_H_

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace ncclscope {

class TextArena {
 public:
  TextArena() = default;
  TextArena(TextArena&&) noexcept = default;
  TextArena& operator=(TextArena&&) noexcept = default;
  TextArena(const TextArena&) = delete;
  TextArena& operator=(const TextArena&) = delete;

  /// A copy of `s` in the arena (an empty view for an empty string).
  std::string_view Add(std::string_view s);
  /// Bytes of the blocks allocated so far.
  size_t bytes() const { return allocated_; }

 private:
  static constexpr size_t kFirstBlock = 4 * 1024;
  static constexpr size_t kBlock = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;  ///< Free space of the current block.
  size_t left_ = 0;
  size_t allocated_ = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_TEXT_ARENA_H_
