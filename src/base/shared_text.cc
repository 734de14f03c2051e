#include "ncclscope/base/shared_text.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <new>
#include <ostream>

namespace ncclscope {

SharedText::SharedText(std::string_view s) {
  if (s.empty()) return;
  // Lines are cut far below 4 GiB by the line reader; a longer text keeps its first 4 GiB.
  const size_t n = std::min<size_t>(s.size(), std::numeric_limits<uint32_t>::max());
  void* memory = ::operator new(sizeof(Block) + n);
  block_ = new (memory) Block{1, static_cast<uint32_t>(n)};
  std::memcpy(reinterpret_cast<char*>(block_ + 1), s.data(), n);
}

SharedText::SharedText(const SharedText& other) noexcept : block_(other.block_) {
  if (block_ != nullptr)
    std::atomic_ref<uint32_t>(block_->refs).fetch_add(1, std::memory_order_relaxed);
}

SharedText& SharedText::operator=(const SharedText& other) noexcept {
  // Counted before the old text is released: `other` may be this text, or a copy of it whose
  // count the release would otherwise take to zero.
  Block* const block = other.block_;
  if (block != nullptr)
    std::atomic_ref<uint32_t>(block->refs).fetch_add(1, std::memory_order_relaxed);
  Release();
  block_ = block;
  return *this;
}

SharedText& SharedText::operator=(SharedText&& other) noexcept {
  if (this != &other) {
    Release();
    block_ = other.block_;
    other.block_ = nullptr;
  }
  return *this;
}

void SharedText::Release() noexcept {
  if (block_ == nullptr) return;
  if (std::atomic_ref<uint32_t>(block_->refs).fetch_sub(1, std::memory_order_acq_rel) == 1) {
    block_->~Block();
    ::operator delete(block_);
  }
  block_ = nullptr;
}

std::ostream& operator<<(std::ostream& out, const SharedText& text) { return out << text.view(); }

}  // namespace ncclscope
