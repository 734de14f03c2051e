#include "prefix_cache.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include "ncclscope/base/byte_words.h"

namespace ncclscope::parse_internal {

using byte_words::Load8;

PrefixCache::PrefixCache() : slots_(size_t{1} << kFirstSlotBits) {}

uint64_t PrefixCache::Hash(const char* p) {
  return Load8(p) * 0x9E3779B97F4A7C15ull + Load8(p + 8) * 0xC2B2AE3D27D4EB4Full +
         Load8(p + 16) * 0x165667B19E3779F9ull;
}

void PrefixCache::Grow() {
  std::vector<Entry> old(size_t{1} << (slot_bits_ + 2));
  old.swap(slots_);
  slot_bits_ += 2;
  filled_ = 0;
  for (const Entry& e : old) {
    if (e.length == 0) continue;
    // The words hold the prefix as Load8 reads it, so they hash like the text they came from.
    const uint64_t h = e.words[0] * 0x9E3779B97F4A7C15ull + e.words[1] * 0xC2B2AE3D27D4EB4Full +
                       e.words[2] * 0x165667B19E3779F9ull;
    Entry& slot = slots_[static_cast<size_t>(h >> (64 - slot_bits_))];
    if (slot.length == 0) ++filled_;
    slot = e;  // two old entries in one new slot: the later one stays, as on a collision
  }
}

bool PrefixCache::Lookup(std::string_view text, EventContext* ctx) const {
  // A hit needs the line to extend at least a word past the prefix: whole-word compares.
  if (text.size() < kMinLength + 8) return false;
  const char* p = text.data();
  const Entry& e = slots_[Slot(p)];
  const size_t length = e.length;
  if (length == 0 || text.size() < length + 8) return false;
  const size_t full = length / 8;
  for (size_t i = 0; i < full; ++i) {
    if (Load8(p + 8 * i) != e.words[i]) return false;
  }
  if (const size_t rest = length % 8; rest != 0) {
    const uint64_t mask = (uint64_t{1} << (8 * rest)) - 1;
    if ((Load8(p + 8 * full) & mask) != e.words[full]) return false;
  }
  ctx->host = std::string_view(p, e.host_length);
  ctx->pid = e.pid;
  ctx->tid = e.tid;
  ctx->dev = e.dev;
  ctx->level = Level::kInfo;
  ctx->body = text.substr(length);
  ctx->prefix_id = e.id;
  return true;
}

void PrefixCache::Remember(std::string_view text, EventContext* ctx_out) {
  const EventContext& ctx = *ctx_out;
  if (ctx.level != Level::kInfo || ctx.attention || !ctx.timestamp.empty() || !ctx.location.empty() ||
      !ctx.function.empty() || ctx.host.data() != text.data()) {
    return;
  }
  const size_t length = static_cast<size_t>(ctx.body.data() - text.data());
  if (length < kMinLength || length > kMaxLength || text.size() < kMinLength + 8) return;
  if (last_id_ == UINT32_MAX) return;  // 4 billion distinct prefixes: stop naming new ones
  if (slot_bits_ < kMaxSlotBits && 2 * filled_ >= slots_.size()) Grow();
  Entry& e = slots_[Slot(text.data())];
  if (e.length == 0) ++filled_;
  std::memset(e.words, 0, sizeof e.words);
  std::memcpy(e.words, text.data(), length);
  if constexpr (std::endian::native == std::endian::big) {
    for (uint64_t& w : e.words) w = __builtin_bswap64(w);  // as Load8 reads them
  }
  e.length = static_cast<uint16_t>(length);
  e.host_length = static_cast<uint16_t>(ctx.host.size());
  e.pid = ctx.pid;
  e.tid = ctx.tid;
  e.dev = ctx.dev;
  e.id = ++last_id_;
  ctx_out->prefix_id = e.id;
}

}  // namespace ncclscope::parse_internal
