#include "ncclscope/model/link_summary.h"

namespace ncclscope {
namespace {

bool IsCollectiveLink(const Link& l) {
  return l.conn_indexes.empty() || l.conn_indexes.count(0) > 0;
}

void Add(CommLinkSummary* s, const Link& l, int index) {
  ++s->links;
  s->link_indexes.push_back(index);
  ++s->by_class[l.cls];
  if (!l.intra_node.has_value()) {
    ++s->unknown_locality;
  } else if (*l.intra_node) {
    ++s->intra;
    ++s->intra_by_class[l.cls];
  } else {
    ++s->inter;
    ++s->inter_by_class[l.cls];
  }
  if (l.cls == TransportClass::kP2P && l.path == P2pPath::kUnknown) ++s->p2p_path_unknown;
}

void SetBottleneck(const Job& job, CommLinkSummary* s) {
  std::optional<TransportClass> ring, any;
  for (int idx : s->link_indexes) {
    const Link& l = job.links[idx];
    if (l.cls == TransportClass::kUnknown) continue;
    auto slower = [&](std::optional<TransportClass>& cur) {
      if (!cur || TransportClassSpeedRank(l.cls) < TransportClassSpeedRank(*cur)) cur = l.cls;
    };
    slower(any);
    if (IsCollectiveLink(l)) slower(ring);
  }
  s->bottleneck = ring ? ring : any;
}

}  // namespace

std::vector<CommLinkSummary> SummarizeLinks(const Job& job) {
  std::vector<CommLinkSummary> out(job.comms.size());
  CommLinkSummary unknown;
  unknown.comm = -1;
  for (size_t i = 0; i < out.size(); ++i) out[i].comm = static_cast<int>(i);
  for (size_t i = 0; i < job.links.size(); ++i) {
    const Link& l = job.links[i];
    Add(l.comm >= 0 ? &out[l.comm] : &unknown, l, static_cast<int>(i));
  }
  std::vector<CommLinkSummary> result;
  for (auto& s : out) {
    if (s.links == 0) continue;
    SetBottleneck(job, &s);
    result.push_back(std::move(s));
  }
  if (unknown.links > 0) {
    SetBottleneck(job, &unknown);
    result.push_back(std::move(unknown));
  }
  return result;
}

int GlobalRank(const Job& job, int comm, int rank) {
  if (comm < 0 || comm >= static_cast<int>(job.comms.size())) return -1;
  const auto& ranks = job.comms[comm].ranks;
  auto it = ranks.find(rank);
  if (it == ranks.end() || it->second.process < 0) return -1;
  return job.processes[it->second.process].global_rank;
}

int HostOfRank(const Job& job, int comm, int rank) {
  if (comm < 0 || comm >= static_cast<int>(job.comms.size())) return -1;
  const auto& ranks = job.comms[comm].ranks;
  auto it = ranks.find(rank);
  if (it == ranks.end() || it->second.process < 0) return -1;
  return job.processes[it->second.process].host;
}

}  // namespace ncclscope
