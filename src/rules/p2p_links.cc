// p2p-read-mode and p2p-path-unknown: informational facts about P2P links.
#include <algorithm>
#include <map>

#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// Reports P2P links matching a predicate, one finding for the job.
class P2pLinkRule : public BasicRule {
 public:
  using Pred = bool (*)(const Job&, const Link&);
  P2pLinkRule(std::string_view id, std::string_view title, std::string_view fix,
              std::string_view what, Pred pred)
      : BasicRule(id, Severity::kInfo, title, fix), what_(what), pred_(pred) {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    Finding f = NewFinding(*this);
    uint64_t n = 0, p2p = 0, weighted_comms = 0;
    // Communicators by index, sorted once at the end: a job can have tens of thousands of them,
    // and inserting each id into a sorted list would cost the square of that.
    std::vector<bool> seen(job.comms.size());
    std::vector<std::string> comms;
    for (const Link& l : job.links) {
      if (l.cls != TransportClass::kP2P && l.cls != TransportClass::kNVL) continue;
      const uint64_t weight = CommWeight(job, l.comm);
      p2p += weight;
      if (!pred_(job, l)) continue;
      n += weight;
      AddRank(&f, GlobalRank(job, l.comm, l.src));
      AddRank(&f, GlobalRank(job, l.comm, l.dst));
      if (l.reporter >= 0) AddHost(&f, HostName(job, l.reporter));
      if (l.comm >= 0 && !seen[l.comm] && !job.comms[l.comm].id.empty()) {
        seen[l.comm] = true;
        comms.push_back(job.comms[l.comm].id);
        weighted_comms += weight;
      }
      if (f.evidence.size() < 2) AddEvidence(&f, l.first);
    }
    if (n == 0) return;
    std::sort(comms.begin(), comms.end());
    comms.erase(std::unique(comms.begin(), comms.end()), comms.end());
    f.comms = std::move(comms);
    f.message = std::to_string(n) + " of " + std::to_string(p2p) + " P2P links " +
                std::string(what_) + " (" +
                std::to_string(std::max<uint64_t>(weighted_comms, f.comms.size())) +
                " communicator(s)).";
    out->push_back(std::move(f));
  }

 private:
  std::string_view what_;
  Pred pred_;
};

}  // namespace

std::unique_ptr<Rule> MakeP2pReadModeRule() {
  return std::make_unique<P2pLinkRule>(
      "p2p-read-mode", "P2P links use read mode",
      "Nothing to fix: NCCL uses P2P read (the receiver pulls data) by default on NVLink "
      "between Ampere/Hopper GPUs, or when NCCL_P2P_READ_ENABLE=1. If it was forced for "
      "experiments, compare bandwidth with and without NCCL_P2P_READ_ENABLE.",
      "run in read mode (/read)", [](const Job&, const Link& l) { return l.read; });
}

std::unique_ptr<Rule> MakeP2pPathUnknownRule() {
  return std::make_unique<P2pLinkRule>(
      "p2p-path-unknown", "P2P links: NVLink or PCIe not established",
      "Pass `--topo` with the output of `nvidia-smi topo -m` from the node, or run with "
      "NCCL_DEBUG_SUBSYS=INIT,GRAPH so NCCL prints the path types (NVL/PIX/SYS) of its graph.",
      "have no known path (NVLink or PCIe); the log alone does not show it",
      [](const Job& job, const Link& l) { return l.path == P2pPath::kUnknown && !job.topo_given; });
}

}  // namespace ncclscope::rules_internal
