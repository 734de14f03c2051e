#include "ncclscope/base/text_pool.h"

namespace ncclscope {

SharedText TextPool::Intern(std::string_view s) {
  if (s.empty()) return SharedText();
  auto it = texts_.find(s);
  if (it != texts_.end()) return it->second;
  SharedText text(s);
  texts_.emplace(text.view(), text);
  return text;
}

}  // namespace ncclscope
