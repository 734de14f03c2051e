// intra-node-net: ranks on the same physical host talk over the network instead of NVLink/PCIe.
#include <map>

#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// GPUs per instance of AWS platforms aws-ofi-nccl names; 0 when unknown.
int PlatformGpus(std::string_view platform) {
  struct Entry {
    std::string_view prefix;
    int gpus;
  };
  static constexpr Entry kEntries[] = {
      {"p4d.24xlarge", 8},  {"p4de.24xlarge", 8},    {"p5.48xlarge", 8},  {"p5e.48xlarge", 8},
      {"p5en.48xlarge", 8}, {"p6-b200.48xlarge", 8}, {"g5.48xlarge", 8},  {"g5.24xlarge", 4},
      {"g5.12xlarge", 4},   {"g6.48xlarge", 8},      {"g6.24xlarge", 4},  {"g6.12xlarge", 4},
      {"g6e.48xlarge", 8},  {"g6e.24xlarge", 4},     {"g6e.12xlarge", 4}, {"p3dn.24xlarge", 8},
  };
  for (const Entry& e : kEntries) {
    if (platform.substr(0, e.prefix.size()) == e.prefix) return e.gpus;
  }
  return 0;
}

class IntraNodeNetRule : public BasicRule {
 public:
  IntraNodeNetRule()
      : BasicRule("intra-node-net", Severity::kWarning, "GPUs of one host talk over the network",
                  "Run one pod (or one Slurm task set) per node with all of its GPUs, so NCCL "
                  "sees them as one node and uses NVLink/P2P: Kubernetes: one pod per node "
                  "requesting all `nvidia.com/gpu` of the node (e.g. 8 on p4d/p5), torchrun "
                  "`--nproc_per_node=<gpus>`, `hostIPC: true` (or a shared memory-backed /dev/shm "
                  "emptyDir) and no per-GPU pods; Slurm: `--gpus-per-node=<n> "
                  "--ntasks-per-node=<n>` on whole nodes. Do not set distinct NCCL_HOSTID values "
                  "for ranks of one machine, and do not disable P2P/SHM "
                  "(NCCL_P2P_DISABLE, NCCL_SHM_DISABLE).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::map<int, std::vector<const Link*>> per_comm;
    for (const Link& l : job.links) {
      if (IsNetClass(l.cls) && l.same_physical_host.value_or(false)) {
        per_comm[l.comm].push_back(&l);
      }
    }
    if (!per_comm.empty()) {
      // One finding for the job: the largest communicator's numbers, the others in a count.
      Finding f = NewFinding(*this);
      int main_comm = per_comm.begin()->first;
      for (const auto& [comm, links] : per_comm) {
        if (comm >= 0 && (main_comm < 0 || job.comms[comm].nranks > job.comms[main_comm].nranks))
          main_comm = comm;
      }
      std::map<std::string, uint64_t> classes;
      uint64_t total = 0, comms = 0;
      for (const auto& [comm, links] : per_comm) {
        if (comm >= 0) AddComm(&f, job.comms[comm].id);
        const uint64_t weight = CommWeight(job, comm);
        comms += weight;
        for (const Link* l : links) {
          total += weight;
          classes[std::string(TransportClassName(l->cls))] += weight;
          AddRank(&f, GlobalRank(job, l->comm, l->src));
          AddRank(&f, GlobalRank(job, l->comm, l->dst));
          if (l->reporter >= 0) AddHost(&f, HostName(job, l->reporter));
          if (comm == main_comm && f.evidence.size() < 3) AddEvidence(&f, l->first);
        }
      }
      std::vector<std::string> cls;
      for (const auto& [name, n] : classes) cls.push_back(std::to_string(n) + " over " + name);
      f.message = std::to_string(total) + " links in " + std::to_string(comms) +
                  " communicator(s) join ranks on the same physical host (" + JoinStrings(f.hosts) +
                  ") but run over the network (" + JoinStrings(cls) + ")";
      if (main_comm >= 0) {
        const Communicator& c = job.comms[main_comm];
        if (c.nnodes > 0 && c.local_ranks > 0) {
          f.message += "; for comm " + c.id + " NCCL sees nNodes " + std::to_string(c.nnodes) +
                       " localRanks " + std::to_string(c.local_ranks) + " for " +
                       std::to_string(c.nranks) + " ranks";
        }
      }
      f.message += Cause(job);
      f.message += NvlinkWastedNote(job, [](const Link& l) {
        return IsNetClass(l.cls) && l.same_physical_host.value_or(false);
      });
      f.message += ".";
      out->push_back(std::move(f));
      return;
    }
    CheckSplitPlatform(ctx, out);
  }

 private:
  /// Why NCCL thinks the ranks are on different nodes.
  static std::string Cause(const Job& job) {
    std::set<std::string> hostids, hostnames;
    bool p2p_off = false;
    for (const Process& p : job.processes) {
      if (!p.host_id.empty()) hostids.insert(p.host_id);
      hostnames.insert(p.hostname);
      if (FindEnvOn(p, "NCCL_P2P_DISABLE") != nullptr) p2p_off = true;
    }
    if (hostids.size() > 1) return "; cause: processes set different NCCL_HOSTID values";
    if (hostnames.size() > 1) {
      return "; cause: the ranks run in different pods/containers (different hostnames) on one "
             "machine";
    }
    if (p2p_off) return "; cause: P2P/SHM are disabled by the environment";
    return "";
  }

  /// A platform with several GPUs per instance where every NCCL node holds one GPU
  /// (e.g. 4 single-GPU pods on one p4d.24xlarge).
  void CheckSplitPlatform(const RuleContext& ctx, std::vector<Finding>* out) const {
    const Job& job = ctx.job;
    std::string platform;
    Evidence platform_ev;
    std::string nics;
    for (const Process& p : job.processes) {
      for (const OfiNote& n : p.ofi) {
        if (n.kind == OfiKind::kPlatform && platform.empty()) {
          platform = n.value;
          platform_ev = n.evidence;
        }
        // "NET/OFI NCCL_OFI_TUNER is not available for platform : g6e.48xlarge, ..." names it
        // too (aws-ofi-nccl 1.13+, when the platform line itself is not in the log).
        std::string_view t = n.evidence.text;
        if (size_t at = t.find("for platform : "); platform.empty() && at != t.npos) {
          std::string rest(t.substr(at + 15));
          platform = rest.substr(0, rest.find_first_of(", "));
          platform_ev = n.evidence;
        }
        if (n.kind == OfiKind::kProviderSelected && n.nics >= 0) nics = std::to_string(n.nics);
      }
    }
    int gpus = PlatformGpus(platform);
    if (gpus <= 1) return;
    for (const Communicator& c : job.comms) {
      if (c.nranks < 2 || c.local_ranks != 1 || c.nnodes != c.nranks) continue;
      if (!c.parent_id.empty()) continue;
      Finding f = NewFinding(*this);
      AddComm(&f, c.id);
      for (const auto& [r, cr] : c.ranks) {
        AddProcess(job, cr.process, &f);
        AddEvidence(&f, cr.start_evidence);
      }
      AddEvidence(&f, platform_ev);
      size_t net_links = 0;
      for (const Link& l : job.links) {
        if (l.comm >= 0 && job.comms[l.comm].id == c.id && IsNetClass(l.cls)) {
          ++net_links;
          if (f.evidence.size() < 4) AddEvidence(&f, l.first);
        }
      }
      f.message = "comm " + c.id + ": " + std::to_string(c.nranks) + " ranks on " +
                  std::to_string(c.nnodes) + " NCCL nodes with localRanks 1 each, on " + platform +
                  " instances that have " + std::to_string(gpus) + " NVLink-connected GPUs each";
      if (!nics.empty()) f.message += " (aws-ofi-nccl found " + nics + " NIC(s) per process)";
      f.message += ": if these single-GPU pods share an instance, all " +
                   std::to_string(net_links) +
                   " network links between them bypass NVLink (run one pod per instance with "
                   "all GPUs).";
      out->push_back(std::move(f));
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeIntraNodeNetRule() { return std::make_unique<IntraNodeNetRule>(); }

}  // namespace ncclscope::rules_internal
