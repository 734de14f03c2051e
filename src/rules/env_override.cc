// env-override: NCCL_* settings that disable fast paths or force algorithms/protocols.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ncclscope/rules/error_trail.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// What a notable setting does; `disables` says whether a value turns a fast path off (or
/// narrowed it until it failed: `failed` then says how).
struct Notable {
  std::string_view name;
  std::string_view effect;
  bool (*disables)(std::string_view value, const Job& job);
  std::string_view failed = {};
  /// What the log shows of how the value disables the path (empty: the generic words).
  std::string (*why)(std::string_view value, const Job& job) = nullptr;
};

bool Never(std::string_view, const Job&) { return false; }

bool HasIntraNodePeers(const Job& job) {
  for (const Communicator& c : job.comms) {
    if (c.local_ranks > 1) return true;
  }
  for (const Link& l : job.links) {
    if (l.intra_node.value_or(false) || l.same_physical_host.value_or(false)) return true;
  }
  return false;
}

/// InfiniBand/RoCE setup failed in NCCL's IB code with no WARN saying why (`net_ib.cc:282 -> 2`):
/// what NCCL does when no GID of the HCA matches the GID settings.
bool IbSetupFailed(std::string_view, const Job& job) {
  for (const ErrorTrailRecord* t : SilentFailingTrails(job)) {
    if (AreaOfTrail(t->location, t->code) == TrailArea::kInfiniBand) return true;
  }
  return false;
}

/// A process that selected HCAs with NCCL_IB_HCA then found no IB device ("NET/IB : No device
/// found."): the names match none the machine (or its container or VM) has.
bool HcaMatchedNothing(std::string_view, const Job& job) {
  for (const Process& p : job.processes) {
    if (p.ib_no_device && FindEnv(p, "NCCL_IB_HCA") != nullptr) return true;
  }
  return false;
}

constexpr std::string_view kHcaMatchedNothing =
    "and NET/IB then found no device (`NET/IB : No device found.`): the names match no HCA this "
    "machine, container or VM has, so NCCL left InfiniBand/RoCE out. List the HCAs with "
    "`ibv_devices` (or `ls /sys/class/infiniband`) where the job runs and set NCCL_IB_HCA to "
    "them (`=mlx5_0` for an exact name, `^mlx5_1` to exclude one), or unset it";

constexpr std::string_view kGidFailed =
    "and InfiniBand/RoCE setup then failed in NCCL's IB code with no WARN saying why (a "
    "return-code trail from net_ib.cc), which is how NCCL fails when no GID of the HCA matches "
    "what the GID settings ask for. Check `show_gids` on the node: pick a RoCE v2 GID with an "
    "IPv4 address that the settings allow, or unset them to let NCCL choose";

/// NCCL's path types from nearest to farthest (graph/topo.h; C2C since 2.19, P2C since 2.23):
/// NCCL_P2P_LEVEL and NCCL_NET_GDR_LEVEL allow paths up to the one named.
constexpr std::string_view kPathOrder[] = {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB",
                                           "PXN", "P2C", "PHB", "SYS"};

int PathRank(std::string_view type) {
  for (size_t i = 0; i < std::size(kPathOrder); ++i) {
    if (type == kPathOrder[i]) return static_cast<int>(i);
  }
  return -1;
}

/// The path types of some host's GPU pairs that lie beyond NCCL_P2P_LEVEL=`level` (named by its
/// path type): P2P is off between those GPUs. Empty when the log has no path dump.
std::vector<std::string> PathsBeyond(std::string_view level, const Job& job) {
  const int limit = PathRank(level);
  std::set<std::string> beyond;
  if (limit < 0) return {};
  for (const Host& h : job.hosts) {
    for (const std::string& t : h.gpu_path_types) {
      if (PathRank(t) > limit) beyond.insert(t);
    }
  }
  return {beyond.begin(), beyond.end()};
}

/// Ranks share a node: NCCL says so, or the log shows two processes on one host or a process
/// driving two GPUs.
bool RanksShareANode(const Job& j) {
  if (HasIntraNodePeers(j) || ProcessDrivesSeveralGpus(j)) return true;
  for (const Host& h : j.hosts) {
    if (h.processes.size() >= 2) return true;
  }
  return false;
}

bool P2pLevelCutsPeers(std::string_view v, const Job& j) {
  return ((v == "LOC" || v == "0") && HasIntraNodePeers(j)) ||
         (!PathsBeyond(v, j).empty() && RanksShareANode(j));
}

/// Why NCCL_P2P_LEVEL disables P2P here: the GPU paths its level excludes, when the log shows
/// them.
std::string P2pLevelWhy(std::string_view v, const Job& j) {
  const std::vector<std::string> beyond = PathsBeyond(v, j);
  if (beyond.empty()) return {};
  return "and NCCL's topology dump shows GPUs of one node connected through " +
         JoinStrings(beyond, "/") +
         ", beyond that level: P2P is off between them, and their traffic goes through host "
         "memory (SHM) instead. Unset it, or set the level to the farthest path P2P should use";
}

constexpr Notable kNotable[] = {
    {"NCCL_P2P_DISABLE", "disables GPU peer-to-peer (NVLink/PCIe) between GPUs of a node",
     [](std::string_view v, const Job& j) { return IsTruthy(v) && HasIntraNodePeers(j); }},
    {"NCCL_SHM_DISABLE", "disables the shared-memory transport",
     [](std::string_view v, const Job& j) { return IsTruthy(v) && HasIntraNodePeers(j); }},
    {"NCCL_IB_DISABLE", "disables InfiniBand/RoCE",
     [](std::string_view v, const Job& j) { return IsTruthy(v) && IsMultiNode(j); }},
    {"NCCL_NET_GDR_LEVEL", "limits GPUDirect RDMA by PCIe distance",
     [](std::string_view v, const Job& j) { return (v == "LOC" || v == "0") && IsMultiNode(j); }},
    {"NCCL_NET_GDR_READ", "controls GPUDirect RDMA reads", Never},
    {"NCCL_P2P_LEVEL", "limits P2P by PCIe/NVLink distance", P2pLevelCutsPeers, {},
     P2pLevelWhy},
    {"NCCL_ALGO", "forces the collective algorithm(s)", Never},
    {"NCCL_PROTO", "forces the protocol(s)", Never},
    {"NCCL_CUMEM_ENABLE", "selects cuMem (0: legacy cudaIpc handles)", Never},
    {"NCCL_NVLS_ENABLE", "enables NVLink SHARP (0: off)", Never},
    {"NCCL_COLLNET_ENABLE", "enables CollNet/SHARP", Never},
    {"NCCL_MNNVL_ENABLE", "enables multi-node NVLink (MNNVL, GB200 NVL72)", Never},
    {"NCCL_P2P_USE_CUDA_MEMCPY", "copies P2P data with the copy engine", Never},
    {"NCCL_P2P_READ_ENABLE", "forces P2P read mode", Never},
    {"NCCL_SHM_USE_CUDA_MEMCPY", "copies SHM data with the copy engine", Never},
    {"NCCL_SOCKET_IFNAME", "selects the socket/bootstrap interfaces", Never},
    {"NCCL_IB_HCA", "selects the IB HCAs", HcaMatchedNothing, kHcaMatchedNothing},
    {"NCCL_IBEXT_DISABLE",
     "disables the HPC-X IBext net plugin only: NCCL's own IB transport stays on unless "
     "NCCL_IB_DISABLE=1",
     Never},
    {"NCCL_IB_GID_INDEX", "forces the RoCE GID index", IbSetupFailed, kGidFailed},
    {"NCCL_IB_ADDR_RANGE", "limits RoCE GIDs to addresses in this range", IbSetupFailed,
     kGidFailed},
    {"NCCL_IB_ADDR_FAMILY", "limits RoCE GIDs to this address family", IbSetupFailed, kGidFailed},
    {"NCCL_IB_ROCE_VERSION_NUM", "limits RoCE GIDs to this RoCE version", IbSetupFailed,
     kGidFailed},
    {"NCCL_NET", "forces the network",
     [](std::string_view v, const Job& j) {
       return ContainsNoCase(v, "Socket") && IsMultiNode(j);
     }},
    {"NCCL_NET_PLUGIN", "selects the net plugin", Never},
    {"NCCL_MIN_NCHANNELS", "sets the minimum channel count", Never},
    {"NCCL_MAX_NCHANNELS", "caps the channel count", Never},
    {"NCCL_BUFFSIZE", "sets the buffer size", Never},
    {"NCCL_CROSS_NIC", "controls cross-NIC rings", Never},
    {"NCCL_TOPO_FILE", "replaces the detected topology", Never},
    {"NCCL_IGNORE_DISABLED_P2P", "hides P2P-disabled messages", Never},
    {"NCCL_NET_SHARED_BUFFERS", "shares network buffers", Never},
    {"NCCL_PXN_DISABLE", "disables PXN", Never},
    {"NCCL_CUMEM_HOST_ENABLE", "selects cuMem host allocations", Never},
    {"NCCL_HOSTID", "overrides the node identity (ranks with different ids are different nodes)",
     Never},
};

class EnvOverrideRule : public BasicRule {
 public:
  EnvOverrideRule()
      : BasicRule("env-override", Severity::kInfo, "NCCL settings override defaults",
                  "Check that every listed setting is intended for this cluster; settings that "
                  "disable a fast path (P2P, SHM, IB, GDR) should only be used for debugging. "
                  "Settings added by aws-ofi-nccl for the platform are expected.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    // Settings aws-ofi-nccl added itself: NAME → value.
    std::map<std::string, std::string> ofi_added;
    for (const Process& p : job.processes) {
      for (const OfiNote& n : p.ofi) {
        if (n.kind != OfiKind::kEnvAdded) continue;
        auto eq = n.value.find('=');
        if (eq != std::string::npos) ofi_added[n.value.substr(0, eq)] = n.value.substr(eq + 1);
      }
    }
    Finding info = NewFinding(*this);
    std::vector<std::string> info_items;
    for (const Notable& n : kNotable) {
      std::map<std::string, std::vector<int>> values;  // value → processes
      const Setting* first = nullptr;
      for (size_t i = 0; i < job.processes.size(); ++i) {
        if (const Setting* s = FindEnv(job.processes[i], n.name)) {
          values[s->value].push_back(static_cast<int>(i));
          if (first == nullptr) first = s;
        }
      }
      if (values.empty()) continue;
      for (const auto& [value, procs] : values) {
        std::string item = std::string(n.name) + "=" + value;
        auto added = ofi_added.find(std::string(n.name));
        bool by_ofi = added != ofi_added.end() && added->second == value;
        if (n.disables(value, job)) {
          Finding f = NewFinding(*this);
          f.severity = Severity::kWarning;
          f.title =
              std::string(n.name) + (n.failed.empty() ? " disables a fast path this job would use"
                                                      : " narrowed a fast path that then failed");
          for (int p : procs) AddProcess(job, p, &f);
          AddEvidence(&f, job.processes[procs.front()].env.at(std::string(n.name)).evidence);
          std::string why = n.why != nullptr ? n.why(value, job) : std::string();
          if (why.empty()) {
            why = n.failed.empty() ? "although the job has ranks that would use it"
                                   : std::string(n.failed);
          }
          f.message = item + " (" + std::string(n.effect) + ") on " + std::to_string(procs.size()) +
                      " process(es), " + why + ".";
          out->push_back(std::move(f));
          continue;
        }
        for (int p : procs) AddProcess(job, p, &info);
        AddEvidence(&info, job.processes[procs.front()].env.at(std::string(n.name)).evidence);
        // `NCCL_IB_DISABLE=0` keeps the path on: NCCL's default, not what the name says.
        const bool keeps_default = std::string_view(n.name).ends_with("_DISABLE") && IsFalsy(value);
        item += " (" + std::string(keeps_default ? "the default: not disabled" : n.effect) +
                (by_ofi ? "; added by aws-ofi-nccl" : "") + ")";
        info_items.push_back(item);
      }
    }
    if (info_items.empty()) return;
    info.message = "NCCL settings in effect: " + JoinStrings(info_items, "; ") + ".";
    out->push_back(std::move(info));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeEnvOverrideRule() { return std::make_unique<EnvOverrideRule>(); }

}  // namespace ncclscope::rules_internal
