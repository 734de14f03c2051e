// Whether the job expected a fast (RDMA) network, and why: shared by socket-fallback and
// net-plugin-failed.
#ifndef NCCLSCOPE_SRC_RULES_NET_EXPECTATION_H_
#define NCCLSCOPE_SRC_RULES_NET_EXPECTATION_H_

#include <string>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope::rules_internal {

/// One reason to believe a fast network was wanted.
struct NetExpectation {
  std::string reason;          ///< "aws-ofi-nccl found no EFA provider (No eligible providers)"
  bool plugin_failed = false;  ///< A net plugin failed (vs. only a platform hint).
  /// Only says that NCCL looked for a network (NET/IB found no device): enough with inter-node
  /// socket links in the log, not to predict a fallback from "Using network Socket" alone.
  bool weak = false;
  Evidence evidence;
};

/// All reasons (deduplicated by reason text), most specific first.
std::vector<NetExpectation> ExpectedFastNetwork(const Job& job);

/// True if `ifname` names an IPoIB interface (ib0, ibp12s0, ibs1; also "ib0:10.0.0.1<0>").
bool IsIpoibName(std::string_view ifname);

/// True if a NET plugin's name says it drives InfiniBand/RoCE verbs ("IBext_v8", "RDMA",
/// "GPUDirectTCPX" not; "Libfabric" not: EFA is not InfiniBand).
bool IsRdmaPluginName(std::string_view name);

/// True if `name` (NCCL's net name) is the internal socket transport.
bool IsSocketNetName(std::string_view name);

/// True if the note says a net plugin library was found but offers no plugin API version this
/// NCCL supports (NCCL then ignores it).
bool IsPluginApiUnsupported(const PluginNote& n);

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_NET_EXPECTATION_H_
