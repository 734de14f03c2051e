// costly-setting: NCCL_* settings that silently cost speed or stability: channel caps, forced
// algorithms or protocols, extreme buffer sizes, a graph file, deprecated variables, and the
// settings NCCL itself says it could not apply (an unreadable topology or graph file, an
// invalid value).
#include <map>
#include <optional>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

struct Deprecated {
  std::string_view name;
  std::string_view instead;
};

constexpr Deprecated kDeprecated[] = {
    {"NCCL_IB_GDR_LEVEL", "NCCL_NET_GDR_LEVEL"},
    {"NCCL_IB_CUDA_SUPPORT", "NCCL_NET_GDR_LEVEL"},
    {"NCCL_MAX_NRINGS", "NCCL_MAX_NCHANNELS"},
    {"NCCL_MIN_NRINGS", "NCCL_MIN_NCHANNELS"},
    {"NCCL_NRINGS", "NCCL_MIN_NCHANNELS/NCCL_MAX_NCHANNELS"},
    {"NCCL_LL_THRESHOLD", "nothing: NCCL's tuner picks the protocol (NCCL_PROTO forces it)"},
    {"NCCL_TREE_THRESHOLD", "nothing: NCCL's tuner picks the algorithm (NCCL_ALGO forces it)"},
    {"NCCL_SINGLE_RING_THRESHOLD", "nothing (removed)"},
    {"NCCL_LAUNCH_MODE", "nothing (removed in 2.12)"},
};

std::optional<long long> ParseNumber(std::string_view v) {
  long long n = 0;
  bool any = false;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
    any = true;
    if (n > (1LL << 50)) return std::nullopt;
  }
  return any ? std::optional<long long>(n) : std::nullopt;
}

/// Values aws-ofi-nccl set itself (NAME → value): those are the platform's tuning, not costs.
std::map<std::string, std::string> OfiAdded(const Job& job) {
  std::map<std::string, std::string> out;
  for (const Process& p : job.processes) {
    for (const OfiNote& n : p.ofi) {
      if (n.kind != OfiKind::kEnvAdded) continue;
      auto eq = n.value.find('=');
      if (eq != std::string::npos) out[n.value.substr(0, eq)] = n.value.substr(eq + 1);
    }
  }
  return out;
}

/// What a setting costs, or "" when its value is harmless.
std::string CostOf(std::string_view name, std::string_view value) {
  auto num = ParseNumber(value);
  if ((name == "NCCL_MAX_NCHANNELS" || name == "NCCL_MAX_NRINGS") && num && *num <= 4) {
    return "caps NCCL at " + std::string(value) +
           " channel(s): fewer parallel rings/trees, so large messages cannot use the full "
           "NVLink/network bandwidth (NCCL uses 16-32 on current GPUs)";
  }
  if (name == "NCCL_BUFFSIZE" && num) {
    if (*num < (1 << 20)) {
      return "shrinks NCCL's per-channel buffer below 1 MiB (default 4 MiB): more steps per "
             "message and lower bandwidth";
    }
    if (*num > (64LL << 20)) {
      return "raises NCCL's per-channel buffer above 64 MiB (default 4 MiB): every channel and "
             "peer allocates it on the GPU and in /dev/shm, which can run out of memory or crash";
    }
  }
  // "^NVLS", "^LL128": excluding one choice is a common workaround, not a forced choice.
  if ((name == "NCCL_ALGO" || name == "NCCL_PROTO") && value.starts_with("^")) return "";
  if (name == "NCCL_ALGO") {
    return "forces the collective algorithm for every message size: NCCL's tuner cannot pick "
           "the fastest one per size (e.g. Tree for small, Ring for large, NVLS on NVSwitch)";
  }
  if (name == "NCCL_PROTO") {
    return "forces the protocol for every message size: without LL/LL128 small messages are "
           "slow, without Simple large ones";
  }
  if (name == "NCCL_GRAPH_FILE") {
    return "replaces NCCL's graph search with a precomputed graph: a debugging aid that breaks "
           "or slows the job on any other machine shape";
  }
  if ((name == "NCCL_NTHREADS" && num && *num < 128)) {
    return "lowers the threads per CUDA block: lower bandwidth";
  }
  return "";
}

/// What the job model says about ranks sharing a node: true/false, or nullopt when the log does
/// not show it (an excerpt without init or connection lines).
std::optional<bool> RanksShareNode(const Job& job) {
  for (const Link& l : job.links) {
    if (l.intra_node.value_or(false) || l.same_physical_host.value_or(false)) return true;
  }
  return NcclSaysRanksShareNode(job);
}

/// True/false when the log shows whether the job spans nodes, nullopt otherwise.
std::optional<bool> SpansNodes(const Job& job) {
  if (IsMultiNode(job)) return true;
  return NcclSaysMultiNode(job);
}

/// A setting that turns a fast path off, when the log cannot tell whether the job uses that
/// path (env-override judges it when it can): what it costs if it does, else "".
std::string DisabledPathCost(const Job& job, std::string_view name, std::string_view value) {
  const bool on = IsTruthy(value);
  if ((name == "NCCL_P2P_DISABLE" && on) || (name == "NCCL_P2P_LEVEL" && (value == "LOC" ||
                                                                          value == "0"))) {
    if (RanksShareNode(job).has_value()) return "";
    return "turns GPU peer-to-peer (NVLink/PCIe) off: ranks that share a node then talk through "
           "host shared memory or the network, at a fraction of the bandwidth";
  }
  if (name == "NCCL_SHM_DISABLE" && on) {
    if (RanksShareNode(job).has_value()) return "";
    return "turns the shared-memory transport off: ranks of one node without P2P then talk "
           "over the network";
  }
  if (name == "NCCL_IB_DISABLE" && on) {
    if (SpansNodes(job).has_value()) return "";
    return "turns InfiniBand/RoCE off: traffic between nodes then runs over TCP sockets";
  }
  return "";
}

class CostlySettingRule : public BasicRule {
 public:
  CostlySettingRule()
      : BasicRule("costly-setting", Severity::kWarning,
                  "An NCCL setting costs speed or stability",
                  "Remove the setting unless a measurement on this cluster shows it helps: "
                  "NCCL's defaults adapt to the GPUs, NVLink and network. Keep NCCL_ALGO, "
                  "NCCL_PROTO, channel caps, NCCL_BUFFSIZE and NCCL_GRAPH_FILE for experiments; "
                  "fix files NCCL could not read (NCCL_TOPO_FILE) and values it rejected; use the "
                  "current names of deprecated variables.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (!hits.empty()) ReportHitsByEntry(*this, job, hits, out);
    const auto ofi_added = OfiAdded(job);
    // name=value → processes
    std::map<std::pair<std::string, std::string>, std::vector<int>> settings;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      for (const auto& [name, s] : job.processes[i].env) {
        settings[{name, s.value}].push_back(static_cast<int>(i));
      }
    }
    for (const auto& [key, procs] : settings) {
      const auto& [name, value] = key;
      auto added = ofi_added.find(name);
      if (added != ofi_added.end() && added->second == value) continue;
      std::string cost = CostOf(name, value);
      if (cost.empty()) cost = DisabledPathCost(job, name, value);
      std::string_view instead;
      for (const Deprecated& d : kDeprecated) {
        if (d.name == name) instead = d.instead;
      }
      if (cost.empty() && instead.empty()) continue;
      Finding f = NewFinding(*this);
      for (int p : procs) AddProcess(job, p, &f);
      AddEvidence(&f, job.processes[procs.front()].env.at(name).evidence);
      if (!instead.empty()) {
        f.title = name + " is deprecated";
        f.message = name + "=" + value + " on " + std::to_string(procs.size()) +
                    " process(es) is a deprecated variable: use " + std::string(instead) + ".";
      } else {
        f.title = name + " " + (name == "NCCL_ALGO" || name == "NCCL_PROTO" ? "forces" : "sets") +
                  " what NCCL would tune itself";
        f.message = name + "=" + value + " on " + std::to_string(procs.size()) + " process(es) " +
                    cost + ".";
      }
      out->push_back(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeCostlySettingRule() { return std::make_unique<CostlySettingRule>(); }

}  // namespace ncclscope::rules_internal
