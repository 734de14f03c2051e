#include "list_id_table.h"

#include <utility>

namespace ncclscope {

size_t ListIdTable::Hash(const ListKey& k) {
  uint64_t h = (uint64_t{static_cast<uint32_t>(k.proc)} << 32 | static_cast<uint32_t>(k.rank));
  h = (h ^ (uint64_t{static_cast<uint32_t>(k.nranks)} << 2 | static_cast<uint32_t>(k.kind))) *
      0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h ^ (h >> 31));
}

size_t ListIdTable::Probe(const ListKey& key) const {
  const size_t mask = slots_.size() - 1;
  size_t i = Hash(key) & mask;
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
  std::vector<Slot> old =
      std::exchange(slots_, std::vector<Slot>(slots_.empty() ? 64 : slots_.size() * 2));
  for (const Slot& s : old) {
    if (s.id >= 0) slots_[Probe(s.key)] = s;
  }
}

}  // namespace ncclscope
