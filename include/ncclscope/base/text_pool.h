// TextPool: one SharedText per distinct string. Fields whose values come from a small vocabulary
// (a link's transport "P2P/CUMEM/read", its devices, its network's name) repeat across tens of
// thousands of records; interned, every record holds a pointer to one buffer (8 bytes) where a
// std::string spent 32.
#ifndef NCCLSCOPE_BASE_TEXT_POOL_H_
#define NCCLSCOPE_BASE_TEXT_POOL_H_

#include <cstddef>
#include <string_view>
#include <unordered_map>

#include "ncclscope/base/shared_text.h"

namespace ncclscope {

class TextPool {
 public:
  /// The pool's copy of `s` (an empty text for an empty string, not kept).
  SharedText Intern(std::string_view s);
  /// Distinct non-empty texts kept.
  size_t size() const { return texts_.size(); }

 private:
  /// Keys view the bytes of their values, which never move.
  std::unordered_map<std::string_view, SharedText> texts_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_TEXT_POOL_H_
