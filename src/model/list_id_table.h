// ListIdTable: MembershipIndex's recency lists by key (process, kind, rank, size), in one
// open-addressed array. A job of thousands of ranks has tens of thousands of these lists; a
// node-based hash map spent a heap block and a bucket on each (~56 bytes), this spends a
// 20-byte slot at three quarters full at most.
#ifndef NCCLSCOPE_SRC_MODEL_LIST_ID_TABLE_H_
#define NCCLSCOPE_SRC_MODEL_LIST_ID_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ncclscope {

struct ListKey {
  int proc = 0, kind = 0, rank = 0, nranks = 0;
  bool operator==(const ListKey&) const = default;
};

class ListIdTable {
 public:
  /// The id stored under `key`, or -1.
  int Find(const ListKey& key) const;
  /// The id stored under `key`; if there is none, stores `fresh_id` (>= 0) under it, sets
  /// `*added` and returns it.
  int FindOrAdd(const ListKey& key, int fresh_id, bool* added);
  size_t size() const { return size_; }

 private:
  struct Slot {
    ListKey key;
    int id = -1;  ///< -1: empty.
  };
  static uint64_t Hash(const ListKey& key);
  /// Index of the slot holding `key`, or of the empty slot where it would go.
  size_t Probe(const ListKey& key) const;
  void Grow();

  std::vector<Slot> slots_;  ///< Empty, or a power of two in size.
  int shift_ = 64;           ///< 64 - log2(slots_.size()): a hash's top bits index the slots.
  size_t size_ = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_LIST_ID_TABLE_H_
