// rank-inconsistency: a property that should be the same on every rank differs (CUDA driver,
// network, NIC counts, GDR, channel counts of a communicator). The minority are the suspects.
#include <algorithm>
#include <map>

#include "ncclscope/model/rank_ranges.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// value → processes printing it, for one property.
using ValueMap = std::map<std::string, std::vector<int>>;

std::string NicCount(size_t n, std::string_view what) {
  return std::to_string(n) + " " + std::string(what) + (n == 1 ? "" : "s");
}

std::string ChannelText(const ChannelCounts& c) {
  return std::to_string(c.coll) + " coll / " + std::to_string(c.nvls) + " nvls / " +
         std::to_string(c.p2p) + " p2p channels";
}

class RankInconsistencyRule : public BasicRule {
 public:
  RankInconsistencyRule()
      : BasicRule("rank-inconsistency", Severity::kWarning,
                  "Ranks of one job differ in driver, network, NICs or channels",
                  "Ranks of one job should run on identically configured nodes: the same CUDA "
                  "driver, the same network plugin and NICs (check the odd nodes' "
                  "`ibv_devices`/`fi_info`, device plugin resources and NCCL_SOCKET_IFNAME), "
                  "GPUDirect RDMA (nvidia-peermem) loaded everywhere. NCCL sizes communicators by "
                  "the weakest rank, and mismatches can hang or slow the whole job: drain or fix "
                  "the suspect nodes.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    ValueMap driver, network, ib, sock, gdr;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      const int pi = static_cast<int>(i);
      if (p.cuda_driver > 0) driver[std::to_string(p.cuda_driver)].push_back(pi);
      if (!p.network.empty()) network[p.network].push_back(pi);
      if (!p.ib_devices.empty() || p.ib_no_device) {
        ib[NicCount(p.ib_devices.size(), "IB device")].push_back(pi);
      }
      if (!p.socket_devices.empty()) {
        sock[NicCount(p.socket_devices.size(), "socket device")].push_back(pi);
      }
      int nics = p.gdr_enabled_nics + p.gdr_disabled_nics;
      if (nics > 0) {
        gdr["GDR enabled on " + std::to_string(p.gdr_enabled_nics) + " of " + std::to_string(nics) +
            " NICs"]
            .push_back(pi);
      }
    }
    Finding f = NewFinding(*this);
    std::vector<std::string> parts;
    Compare(job, "CUDA driver", driver, nullptr, &f, &parts);
    Compare(
        job, "network", network, [](const Process& p) { return p.network_evidence; }, &f, &parts);
    Compare(job, "IB devices", ib, nullptr, &f, &parts);
    Compare(job, "socket devices", sock, nullptr, &f, &parts);
    Compare(
        job, "GPUDirect RDMA", gdr, [](const Process& p) { return p.gdr_evidence; }, &f, &parts);
    for (size_t ci = 0; ci < job.comms.size(); ++ci) {
      const Communicator& c = job.comms[ci];
      ValueMap channels;
      for (const auto& [r, cr] : c.ranks) {
        if (cr.channel_counts && cr.process >= 0) {
          channels[ChannelText(*cr.channel_counts)].push_back(cr.process);
        }
      }
      if (channels.size() > 1) AddComm(&f, c.id);
      Compare(job, "channels of comm " + c.id, channels, nullptr, &f, &parts);
    }
    if (parts.empty()) return;
    f.message = JoinStrings(parts, "; ") + ".";
    out->push_back(std::move(f));
  }

 private:
  using EvidenceOf = Evidence (*)(const Process&);

  /// Adds a part for a property with more than one value; the values held by fewer processes
  /// than the most common one name the suspects (none on a tie).
  static void Compare(const Job& job, const std::string& what, const ValueMap& values,
                      EvidenceOf evidence, Finding* f, std::vector<std::string>* parts) {
    if (values.size() < 2) return;
    size_t majority = 0, at_majority = 0;
    for (const auto& [v, procs] : values) majority = std::max(majority, procs.size());
    for (const auto& [v, procs] : values) at_majority += procs.size() == majority ? 1 : 0;
    std::vector<std::string> held;
    for (const auto& [v, procs] : values) {
      const bool odd = procs.size() < majority || at_majority > 1;
      std::vector<int> ranks;
      std::vector<std::string> hosts;
      for (int p : procs) {
        AddProcess(job, p, f);
        if (job.processes[p].global_rank >= 0) ranks.push_back(job.processes[p].global_rank);
        if (procs.size() < majority) {
          AddSuspectRank(f, job.processes[p].global_rank);
          AddSuspectHost(f, HostName(job, p));
          if (hosts.size() < 3) hosts.push_back(HostName(job, p));
        }
      }
      if (evidence != nullptr && (odd || f->evidence.empty())) {
        AddEvidence(f, evidence(job.processes[procs.front()]));
      }
      std::string text = v + " on " + std::to_string(procs.size()) + " process(es)";
      if (!ranks.empty()) text += " (ranks " + RankRanges(ranks) + ")";
      if (procs.size() < majority) text += " <- suspect(s) on " + JoinStrings(hosts, ", ");
      held.push_back(text);
    }
    parts->push_back(what + " differs: " + JoinStrings(held, ", "));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeRankInconsistencyRule() {
  return std::make_unique<RankInconsistencyRule>();
}

}  // namespace ncclscope::rules_internal
