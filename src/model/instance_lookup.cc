#include "instance_lookup.h"

#include <limits>

namespace ncclscope {

InstanceLookup::InstanceLookup(const std::vector<ProcessInstance>& instances)
    : instances_(instances) {
  for (size_t k = 0; k < instances.size(); ++k) {
    const ProcessInstance& p = instances[k];
    const int index = static_cast<int>(k);
    by_pid_[Key(p.attempt, p.pid)].push_back(index);
    if (p.rank >= 0) last_by_rank_[Key(p.attempt, static_cast<uint32_t>(p.rank))] = index;
    auto [it, fresh] = by_source_.try_emplace(Key(p.attempt, p.first.source), index);
    if (!fresh) it->second = -1;
    one_host_ = one_host_ && p.host == instances[0].host;
  }
}

const std::vector<int>& InstanceLookup::WithPid(int attempt, int64_t pid) const {
  static const std::vector<int> kNone;
  if (pid < 0 || pid > std::numeric_limits<uint32_t>::max()) return kNone;
  auto it = by_pid_.find(Key(attempt, static_cast<uint32_t>(pid)));
  return it == by_pid_.end() ? kNone : it->second;
}

const ProcessInstance* InstanceLookup::LastWithRank(int attempt, int rank) const {
  if (rank < 0) return nullptr;
  auto it = last_by_rank_.find(Key(attempt, static_cast<uint32_t>(rank)));
  return it == last_by_rank_.end() ? nullptr : &instances_[it->second];
}

const ProcessInstance* InstanceLookup::OnlyInSource(int attempt, uint32_t source) const {
  auto it = by_source_.find(Key(attempt, source));
  return it == by_source_.end() || it->second < 0 ? nullptr : &instances_[it->second];
}

}  // namespace ncclscope
