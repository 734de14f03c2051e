// Per-communicator link summary: counts per transport class, intra vs inter node, bottleneck.
#ifndef NCCLSCOPE_MODEL_LINK_SUMMARY_H_
#define NCCLSCOPE_MODEL_LINK_SUMMARY_H_

#include <map>
#include <optional>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

struct CommLinkSummary {
  int comm = -1;  ///< Index into Job::comms; -1 = links whose communicator is unknown.
  int links = 0;
  int intra = 0, inter = 0, unknown_locality = 0;
  std::map<TransportClass, int> by_class;        ///< All links.
  std::map<TransportClass, int> intra_by_class;  ///< Intra-node links.
  std::map<TransportClass, int> inter_by_class;  ///< Inter-node links.
  int p2p_path_unknown = 0;  ///< P2P links whose NVLink/PCIe path is not established.
  /// Slowest class on collective (connIndex 0 / ring) links, else on all links. nullopt: none.
  std::optional<TransportClass> bottleneck;
  std::vector<int> link_indexes;  ///< Indexes into Job::links.
};

/// One summary per communicator that has links (in Job::comms order), then one for links with
/// unknown communicator if any.
std::vector<CommLinkSummary> SummarizeLinks(const Job& job);

/// Global rank of a communicator-local rank (through the process that holds it), or -1.
int GlobalRank(const Job& job, int comm, int rank);
/// Host index of a communicator-local rank, or -1.
int HostOfRank(const Job& job, int comm, int rank);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_LINK_SUMMARY_H_
