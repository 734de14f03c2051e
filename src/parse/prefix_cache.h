// PrefixCache: the parsed "host:pid:tid [dev] NCCL INFO " prefixes of recently seen threads.
//
// Every line of a thread starts with the same prefix, and a log interleaves a few dozen threads,
// so most lines can skip the prefix parser: a line whose first bytes equal a remembered prefix
// gets that prefix's host, pid, tid and device. The result of the prefix parser depends only on
// those bytes, and a hit compares all of them, so a hit gives exactly what the parser would.
// Only INFO lines without a timestamp are remembered (timestamps differ on every line).
#ifndef NCCLSCOPE_SRC_PARSE_PREFIX_CACHE_H_
#define NCCLSCOPE_SRC_PARSE_PREFIX_CACHE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "ncclscope/parse/events.h"

namespace ncclscope::parse_internal {

class PrefixCache {
 public:
  PrefixCache();

  /// If `text` starts with a remembered prefix: fills the prefix fields of *ctx (host, pid, tid,
  /// dev, level, body) as ParseNcclPrefix would, sets ctx->prefix_id, and returns true.
  bool Lookup(std::string_view text, EventContext* ctx) const;

  /// Remembers the prefix ParseNcclPrefix just parsed from `text` into *ctx, when it is a plain
  /// INFO prefix of 24 to kMaxLength bytes, under a new id (set in ctx->prefix_id; ids are never
  /// reused by one cache).
  void Remember(std::string_view text, EventContext* ctx);

  /// Longer prefixes (very long host names) are not kept.
  static constexpr size_t kMaxLength = 96;

 private:
  static constexpr size_t kMinLength = 24;  ///< Three words, the hash key; shorter are not kept.
  /// The cache starts small (a parser per input file: thousands of small files must not pay for
  /// a large table each) and grows fourfold while half of its slots are in use, up to 4,096
  /// slots (jobs of a thousand ranks interleave a few thousand threads).
  static constexpr int kFirstSlotBits = 6;
  static constexpr int kMaxSlotBits = 12;
  struct Entry {
    uint64_t words[kMaxLength / 8] = {};  ///< The prefix bytes, zero after `length`.
    uint16_t length = 0;                  ///< 0: empty slot.
    uint16_t host_length = 0;
    uint32_t pid = 0;
    uint32_t tid = 0;
    int32_t dev = -1;
    uint32_t id = 0;
  };
  static uint64_t Hash(const char* p);
  size_t Slot(const char* p) const { return static_cast<size_t>(Hash(p) >> (64 - slot_bits_)); }
  /// Fourfold table; remembered prefixes are moved to their new slots (ids kept).
  void Grow();

  std::vector<Entry> slots_;
  int slot_bits_ = kFirstSlotBits;
  size_t filled_ = 0;  ///< Slots in use.
  uint32_t last_id_ = 0;
};

}  // namespace ncclscope::parse_internal

#endif  // NCCLSCOPE_SRC_PARSE_PREFIX_CACHE_H_
