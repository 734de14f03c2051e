#include "ncclscope/model/process_index.h"

namespace ncclscope {

std::string ProcessIndex::Key(std::string_view hostname, uint64_t pid) {
  std::string key(hostname);
  key += ':';
  key += std::to_string(pid);
  return key;
}

ProcessIndex::ProcessIndex(const Job& job) {
  for (size_t i = 0; i < job.processes.size(); ++i) {
    const Process& p = job.processes[i];
    const int index = static_cast<int>(i);
    if (p.global_rank >= 0) by_rank_.try_emplace(p.global_rank, index);
    by_host_pid_.try_emplace(Key(p.hostname, p.pid), index);
  }
}

int ProcessIndex::OfRank(int rank) const {
  auto it = by_rank_.find(rank);
  return it == by_rank_.end() ? -1 : it->second;
}

int ProcessIndex::OfHostPid(std::string_view hostname, uint64_t pid) const {
  auto it = by_host_pid_.find(Key(hostname, pid));
  return it == by_host_pid_.end() ? -1 : it->second;
}

}  // namespace ncclscope
