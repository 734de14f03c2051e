#include "ncclscope/report/link_graph.h"

#include <fmt/format.h>

#include "ncclscope/model/link_summary.h"
#include "ncclscope/report/class_style.h"

namespace ncclscope {
namespace {

constexpr std::string_view kUnknownNode = "unknown node";

/// NCCL node name and physical host name of a process.
std::pair<std::string, std::string> NodeOfProcess(const Job& job, int process) {
  if (process < 0 || process >= static_cast<int>(job.processes.size()))
    return {std::string(kUnknownNode), ""};
  const Process& p = job.processes[process];
  std::string host = p.host >= 0 ? job.hosts[p.host].name : p.hostname;
  std::string node = !p.node.empty() ? p.node : !host.empty() ? host : std::string(kUnknownNode);
  return {node, host == node ? "" : host};
}

/// The process that holds each rank drawn: from the communicator, or, for links with unknown
/// communicator, from the process that printed the line for its own side.
std::map<int, int> RankProcesses(const Job& job, int comm, const std::vector<int>& links) {
  std::map<int, int> out;
  if (comm >= 0) {
    for (const auto& [r, cr] : job.comms[comm].ranks) out[r] = cr.process;
  }
  for (int idx : links) {
    const Link& l = job.links[idx];
    int own = l.send_side || !l.receive_side ? l.src : l.dst;
    for (int r : {l.src, l.dst}) {
      if (r < 0) continue;
      auto [it, fresh] = out.emplace(r, -1);
      if (comm < 0 && r == own && it->second < 0) it->second = l.reporter;
      (void)fresh;
    }
  }
  return out;
}

std::string ClassCountText(const std::map<TransportClass, int>& counts) {
  std::string out;
  for (const auto& [cls, n] : counts)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", TransportClassName(cls), n);
  return out;
}

void AddEdge(std::map<std::pair<int, int>, GraphEdge>* edges, int a, int b, TransportClass cls) {
  bool forward = a < b;
  auto key = forward ? std::make_pair(a, b) : std::make_pair(b, a);
  auto [it, fresh] = edges->emplace(key, GraphEdge{});
  GraphEdge& e = it->second;
  if (fresh) {
    e.a = key.first, e.b = key.second, e.cls = cls;
  } else {
    e.cls = SlowerClass(e.cls, cls);
  }
  ++e.counts[cls];
  (forward ? e.forward : e.backward) = true;
}

}  // namespace

int DefaultGraphComm(const Job& job) {
  std::set<int> with_links;
  bool unknown_links = false;
  for (const auto& l : job.links) {
    if (l.comm >= 0) {
      with_links.insert(l.comm);
    } else {
      unknown_links = true;
    }
  }
  auto largest = [&](bool need_links) {
    int best = -1;
    for (int i = 0; i < static_cast<int>(job.comms.size()); ++i) {
      if (need_links && !with_links.count(i)) continue;
      if (best < 0 || job.comms[i].nranks > job.comms[best].nranks) best = i;
    }
    return best;
  };
  int best = largest(true);
  if (best >= 0 || unknown_links) return best;
  return largest(false);
}

LinkGraph BuildLinkGraph(const Job& job, int comm, const LinkGraphLimits& limits) {
  LinkGraph g;
  g.comm = comm >= 0 && comm < static_cast<int>(job.comms.size()) ? comm : -1;
  std::vector<int> links;
  for (const auto& s : SummarizeLinks(job)) {
    if (s.comm != g.comm) continue;
    links = s.link_indexes;
    g.bottleneck = s.bottleneck;
  }
  g.title = g.comm >= 0 ? fmt::format("communicator {} ({} ranks)", job.comms[g.comm].id,
                                      job.comms[g.comm].nranks)
                        : "links of unknown communicator";

  // Groups in order of their lowest rank.
  std::map<int, int> rank_process = RankProcesses(job, g.comm, links);
  std::map<std::string, int> group_index;
  std::map<int, int> rank_group;
  for (const auto& [r, process] : rank_process) {
    auto [node, host] = NodeOfProcess(job, process);
    auto [it, fresh] = group_index.emplace(node, static_cast<int>(g.groups.size()));
    if (fresh) g.groups.push_back(GraphGroup{node, host, {}, {}});
    rank_group[r] = it->second;
  }
  for (int idx : links) {
    const Link& l = job.links[idx];
    if (l.src >= 0 && l.dst >= 0 && rank_group[l.src] == rank_group[l.dst])
      ++g.groups[rank_group[l.src]].intra[l.cls];
  }
  g.by_host = static_cast<int>(rank_process.size()) > limits.max_ranks ||
              static_cast<int>(g.groups.size()) > limits.max_hosts;

  std::map<int, int> rank_node;  // rank → node index (rank graphs only)
  if (g.by_host) {
    std::map<int, int> ranks_in_group;
    for (const auto& [r, grp] : rank_group) ++ranks_in_group[grp];
    for (int i = 0; i < static_cast<int>(g.groups.size()); ++i) {
      GraphGroup& grp = g.groups[i];
      std::string detail =
          fmt::format("{} rank{}", ranks_in_group[i], ranks_in_group[i] == 1 ? "" : "s");
      if (!grp.intra.empty()) detail += "; within: " + ClassCountText(grp.intra);
      grp.members.push_back(static_cast<int>(g.nodes.size()));
      g.nodes.push_back(GraphNode{fmt::format("h{}", i), grp.name, detail, i, -1});
    }
  } else {
    for (const auto& [r, process] : rank_process) {
      std::string detail;
      if (g.comm >= 0) {
        auto it = job.comms[g.comm].ranks.find(r);
        if (it != job.comms[g.comm].ranks.end()) {
          if (it->second.cuda_dev >= 0) detail = fmt::format("GPU {}", it->second.cuda_dev);
          if (!it->second.bus_id.empty())
            detail += (detail.empty() ? "busId " : ", busId ") + it->second.bus_id;
        }
      }
      int grp = rank_group[r];
      rank_node[r] = static_cast<int>(g.nodes.size());
      g.groups[grp].members.push_back(static_cast<int>(g.nodes.size()));
      g.nodes.push_back(
          GraphNode{fmt::format("r{}", r), fmt::format("rank {}", r), detail, grp, r});
    }
  }

  std::map<std::pair<int, int>, GraphEdge> edges;
  for (int idx : links) {
    const Link& l = job.links[idx];
    if (l.src < 0 || l.dst < 0) continue;
    if (g.by_host) {
      int a = rank_group[l.src], b = rank_group[l.dst];
      if (a != b) AddEdge(&edges, a, b, l.cls);
    } else if (l.src != l.dst) {
      AddEdge(&edges, rank_node[l.src], rank_node[l.dst], l.cls);
    }
  }
  for (auto& [key, e] : edges) {
    e.bottleneck = g.bottleneck && e.cls == *g.bottleneck;
    g.classes.insert(e.cls);
    g.edges.push_back(std::move(e));
  }
  return g;
}

std::string EdgeLabel(const GraphEdge& e, bool by_host, std::string_view times,
                      std::string_view separator) {
  if (!by_host) return std::string(TransportClassName(e.cls));
  std::string out;
  for (const auto& [cls, n] : e.counts) {
    if (!out.empty()) out += separator;
    out += std::string(TransportClassName(cls)) + " " + std::string(times) + std::to_string(n);
  }
  return out;
}

}  // namespace ncclscope
