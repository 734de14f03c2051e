#include "ncclscope/base/text_arena.h"

#include <algorithm>
#include <cstring>

namespace ncclscope {

std::string_view TextArena::Add(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > kBlock / 4) {
    // A long line gets a block of its own; the current block keeps its free space.
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(s.size()));
    allocated_ += s.size();
    std::memcpy(blocks_.back().get(), s.data(), s.size());
    return {blocks_.back().get(), s.size()};
  }
  if (s.size() > left_) {
    // Blocks double from 4 KiB to 64 KiB: thousands of small inputs (one file per rank) each
    // hold an arena, and most of them keep a few lines.
    const size_t block = std::max(s.size(), std::clamp(allocated_, kFirstBlock, kBlock));
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block));
    allocated_ += block;
    next_ = blocks_.back().get();
    left_ = block;
  }
  char* at = next_;
  std::memcpy(at, s.data(), s.size());
  next_ += s.size();
  left_ -= s.size();
  return {at, s.size()};
}

}  // namespace ncclscope
