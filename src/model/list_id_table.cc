#include "list_id_table.h"

#include <bit>
#include <utility>

namespace ncclscope {

uint64_t ListIdTable::Hash(const ListKey& k) {
  // Both halves through a multiply; Probe takes the top bits, which mix every input bit.
  const uint64_t a = uint64_t{static_cast<uint32_t>(k.proc)} << 32 | static_cast<uint32_t>(k.rank);
  const uint64_t b =
      uint64_t{static_cast<uint32_t>(k.nranks)} << 32 | static_cast<uint32_t>(k.kind);
  return (a * 0x9E3779B97F4A7C15ull) ^ ((b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full);
}

size_t ListIdTable::Probe(const ListKey& key) const {
  const size_t mask = slots_.size() - 1;
  size_t i = static_cast<size_t>(Hash(key) >> shift_);
  while (slots_[i].id >= 0 && !(slots_[i].key == key)) i = (i + 1) & mask;
  return i;
}

int ListIdTable::Find(const ListKey& key) const {
  if (slots_.empty()) return -1;
  return slots_[Probe(key)].id;
}

int ListIdTable::FindOrAdd(const ListKey& key, int fresh_id, bool* added) {
  *added = false;
  if (!slots_.empty()) {
    const Slot& s = slots_[Probe(key)];
    if (s.id >= 0) return s.id;
  }
  if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
  Slot& s = slots_[Probe(key)];
  s.key = key;
  s.id = fresh_id;
  ++size_;
  *added = true;
  return fresh_id;
}

void ListIdTable::Grow() {
  const size_t size = slots_.empty() ? 64 : slots_.size() * 2;
  shift_ = 64 - std::countr_zero(size);
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(size));
  for (const Slot& s : old) {
    if (s.id >= 0) slots_[Probe(s.key)] = s;
  }
}

}  // namespace ncclscope
