#include "ncclscope/model/source_owners.h"

#include <algorithm>

namespace ncclscope {

std::vector<SourceOwners> OwnersOfSources(const Job& job) {
  std::vector<SourceOwners> out(job.sources.size());
  for (size_t i = 0; i < job.processes.size(); ++i) {
    const Process& p = job.processes[i];
    for (uint32_t s : p.sources) {
      if (s >= out.size()) continue;
      SourceOwners& o = out[s];
      o.processes.push_back(static_cast<int>(i));
      if (!p.hostname.empty()) o.hosts.push_back(p.hostname);
      if (p.global_rank >= 0) o.ranks.push_back(p.global_rank);
    }
  }
  for (SourceOwners& o : out) {
    std::sort(o.hosts.begin(), o.hosts.end());
    o.hosts.erase(std::unique(o.hosts.begin(), o.hosts.end()), o.hosts.end());
    std::sort(o.ranks.begin(), o.ranks.end());
    o.ranks.erase(std::unique(o.ranks.begin(), o.ranks.end()), o.ranks.end());
  }
  return out;
}

}  // namespace ncclscope
