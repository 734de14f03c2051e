// The link graph of one communicator, shared by the graphical writers (dot, mermaid, html):
// ranks grouped by NCCL node, one edge per rank pair carrying the slowest class between them;
// for large jobs one node per NCCL node and one edge per node pair.
#ifndef NCCLSCOPE_REPORT_LINK_GRAPH_H_
#define NCCLSCOPE_REPORT_LINK_GRAPH_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// One NCCL node (host id or hostname) and the graph nodes drawn inside it.
struct GraphGroup {
  std::string name;          ///< NCCL node name, or "unknown node".
  std::string host;          ///< Physical host name where it differs from name, else empty.
  std::vector<int> members;  ///< Indexes into LinkGraph::nodes.
  std::map<TransportClass, int> intra;  ///< Links between ranks of this group, per class.
};

/// A rank (or, when aggregated by host, a whole NCCL node).
struct GraphNode {
  std::string id;      ///< Identifier safe in dot and mermaid: "r3", "h1".
  std::string label;   ///< "rank 3" or the node name.
  std::string detail;  ///< "GPU 3, 0000:1b:00.0", or "4 ranks" for a host node.
  int group = -1;      ///< Index into LinkGraph::groups.
  int rank = -1;       ///< Communicator-local rank; -1 for a host node.
};

/// One edge per unordered pair of graph nodes.
struct GraphEdge {
  int a = -1, b = -1;                             ///< Indexes into LinkGraph::nodes, a < b.
  TransportClass cls = TransportClass::kUnknown;  ///< Slowest class between the two.
  std::map<TransportClass, int> counts;           ///< Links aggregated into this edge, per class.
  bool forward = false, backward = false;         ///< Links seen a→b, b→a.
  bool bottleneck = false;                        ///< cls is the communicator's bottleneck.
};

struct LinkGraph {
  int comm = -1;         ///< Index into Job::comms; -1 = links whose communicator is unknown.
  std::string title;     ///< "communicator 0x… (4 ranks)".
  bool by_host = false;  ///< Aggregated: one node per NCCL node.
  std::optional<TransportClass> bottleneck;
  std::vector<GraphGroup> groups;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  std::set<TransportClass> classes;  ///< Classes on the edges (for the legend).
};

/// Beyond these sizes the graph is aggregated by host.
struct LinkGraphLimits {
  int max_ranks = 64;
  int max_hosts = 8;
};

/// The communicator drawn by default: the largest (most ranks) that has links, else the largest;
/// -1 when there is no communicator (then the links with unknown communicator are drawn).
int DefaultGraphComm(const Job& job);

/// The graph of one communicator (or of the unknown-communicator links for comm == -1).
LinkGraph BuildLinkGraph(const Job& job, int comm, const LinkGraphLimits& limits = {});

/// The class of an edge, or for host-aggregated graphs the per-class counts ("NET/IB ×3"),
/// joined with `separator`.
std::string EdgeLabel(const GraphEdge& e, bool by_host, std::string_view times,
                      std::string_view separator);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_LINK_GRAPH_H_
