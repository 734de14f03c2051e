// net-plugin-failed: a requested or expected network plugin failed to load or initialise.
#include <map>
#include <string_view>

#include "net_expectation.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

/// libfabric providers that carry the traffic over the kernel's TCP/UDP stack ("tcp",
/// "tcp;ofi_rxm", "sockets", "udp;ofi_rxd").
bool IsTcpProvider(std::string_view provider) {
  for (std::string_view p : {"tcp", "sockets", "udp"}) {
    if (provider.starts_with(p)) return true;
  }
  return false;
}

/// One kind of failure, accumulated over processes.
struct Failure {
  Severity severity = Severity::kWarning;
  std::vector<int> processes;
  std::vector<Evidence> evidence;
};

/// An external NET plugin (a library path or name, not NCCL's internal IB/Socket) that a process
/// loaded ("NET/Plugin: Loaded net plugin ...", HPC-X's "Plugin Path : ..."), or empty.
std::string_view ExternalNetPlugin(const PluginNote& n) {
  if (n.kind != "NET" || n.action != PluginAction::kLoaded || n.name.empty()) return {};
  if (IsSocketNetName(n.name) || n.name == "IB") return {};
  return n.name;
}

/// Hosts of one job that disagree on the NET plugin: a library loaded on some, "Could not find:
/// libnccl-net.so ... Using internal network plugin" on others (NVIDIA/nccl#1634: HPC-X's
/// plugin on part of the nodes). The hosts run different images or library paths; their ranks
/// may choose transports that do not match, which hangs or slows the traffic between them.
template <typename Add>
void AddPluginOnSomeHostsOnly(const Job& job, const Add& add) {
  std::map<std::string, std::pair<int, Evidence>> loaded, missing;  // host → a process
  std::string name;
  for (size_t i = 0; i < job.processes.size(); ++i) {
    const Process& p = job.processes[i];
    if (p.host < 0) continue;
    const std::string host = HostName(job, static_cast<int>(i));
    for (const PluginNote& n : p.plugins) {
      if (n.kind != "NET") continue;
      if (const std::string_view ext = ExternalNetPlugin(n); !ext.empty()) {
        loaded.emplace(host, std::make_pair(static_cast<int>(i), n.evidence));
        if (name.empty()) name = std::string(ext);
      } else if (n.action == PluginAction::kNotFound || n.action == PluginAction::kUsingInternal) {
        missing.emplace(host, std::make_pair(static_cast<int>(i), n.evidence));
      }
    }
  }
  for (auto it = missing.begin(); it != missing.end();) {
    it = loaded.count(it->first) > 0 ? missing.erase(it) : std::next(it);
  }
  if (loaded.empty() || missing.empty()) return;
  auto hosts = [](const auto& m) {
    std::vector<std::string> h;
    for (const auto& [host, where] : m) h.push_back(host);
    if (h.size() > 4) h.resize(4), h.push_back("...");
    return JoinStrings(h, ", ");
  };
  const std::string what = "the hosts disagree on the NET plugin: " + name + " is loaded on " +
                           hosts(loaded) + " but not found on " + hosts(missing) +
                           ", which use NCCL's internal one (different images or library paths "
                           "on the nodes): make every node load the same plugin";
  for (const auto& [host, where] : loaded) add(what, Severity::kWarning, where.first, where.second);
  for (const auto& [host, where] : missing)
    add(what, Severity::kWarning, where.first, where.second);
}

class NetPluginFailedRule : public BasicRule {
 public:
  NetPluginFailedRule()
      : BasicRule("net-plugin-failed", Severity::kError, "Network plugin failed",
                  "Make the plugin NCCL is asked for loadable and working. aws-ofi-nccl/EFA: the "
                  "pod must request `vpc.amazonaws.com/efa` resources (EFA device plugin "
                  "installed, instance type with EFA, security group allowing all traffic to "
                  "itself), run with FI_PROVIDER=efa, and the image must contain libfabric with "
                  "the efa provider (`fi_info -p efa` inside the pod must list devices). A "
                  "NCCL_NET_PLUGIN value must name an existing library (libnccl-net-<name>.so on "
                  "LD_LIBRARY_PATH); NCCL_NET=IB needs /dev/infiniband devices in the container. "
                  "Remove NCCL_NET/NCCL_NET_PLUGIN when the node has no such network.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::map<std::string, Failure> failures;  // description → failure
    bool nodes_use_sockets = false;
    for (const Link& l : job.links) {
      if (l.cls == TransportClass::kNetSocket && !l.intra_node.value_or(false)) {
        nodes_use_sockets = true;
      }
    }
    auto add = [&](const std::string& what, Severity sev, int p, const Evidence& ev) {
      Failure& f = failures[what];
      if (sev > f.severity) f.severity = sev;
      f.processes.push_back(p);
      if (f.evidence.size() < 3) f.evidence.push_back(ev);
    };
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      int pi = static_cast<int>(i);
      const Setting* plugin_env = FindEnv(p, "NCCL_NET_PLUGIN");
      const Setting* net_env = FindEnv(p, "NCCL_NET");
      for (const OfiNote& n : p.ofi) {
        if (n.kind == OfiKind::kNoEligibleProviders) {
          add("aws-ofi-nccl found no eligible libfabric provider (No eligible providers were "
              "found): no EFA device is usable in this container",
              Severity::kError, pi, n.evidence);
        } else if (n.kind == OfiKind::kInitFailed) {
          add("aws-ofi-nccl initialization failed", Severity::kError, pi, n.evidence);
        } else if (n.kind == OfiKind::kProviderSelected && IsTcpProvider(n.value)) {
          // aws-ofi-nccl#803: EFA devices not passed into a container; the plugin settles for
          // libfabric's TCP provider. Between nodes that is a fallback to TCP sockets.
          add("aws-ofi-nccl selected libfabric's " + n.value +
                  " provider (no EFA or verbs device is usable): its traffic goes over TCP, not "
                  "EFA/RDMA",
              job.hosts.size() > 1 ? Severity::kError : Severity::kWarning, pi, n.evidence);
        }
      }
      for (const PluginNote& n : p.plugins) {
        if (n.kind != "NET") continue;
        if (IsPluginApiUnsupported(n)) {
          // Alone it is not a failure (a CollNet-only library such as the SHARP plugin has no
          // net symbols: nccl#1292); a process that then runs on sockets lost its plugin.
          if (IsSocketNetName(p.network)) {
            add("a net plugin library (libnccl-net.so) was found but offers no net plugin API "
                "this NCCL supports (\"Failed to find ncclNetPlugin symbol (>= v5)\"): NCCL "
                "ignored it and the process uses TCP sockets; install the plugin built for this "
                "NCCL version",
                Severity::kWarning, pi, n.evidence);
          }
          continue;
        }
        switch (n.action) {
          case PluginAction::kAllFailed:
            add("no NET plugin could be initialized (Failed to initialize any NET plugin)",
                Severity::kError, pi, n.evidence);
            break;
          case PluginAction::kInitFailed: {
            if (IsSocketNetName(n.name)) {
              add("NET plugin Socket failed to initialize", Severity::kError, pi, n.evidence);
              break;
            }
            bool requested = net_env != nullptr && ContainsNoCase(net_env->value, n.name);
            bool benign_ib = n.name == "IB" && !requested;
            if (benign_ib) break;  // no IB device and not requested: NCCL moves on to Socket.
            add("NET plugin " + n.name + " failed to initialize" +
                    (requested ? " although NCCL_NET=" + net_env->value + " requests it" : ""),
                Severity::kError, pi, n.evidence);
            break;
          }
          case PluginAction::kNotFound:
          case PluginAction::kLoadError:
            if (plugin_env != nullptr) {
              add("the requested net plugin NCCL_NET_PLUGIN=" + plugin_env->value +
                      " could not be loaded",
                  Severity::kError, pi, n.evidence);
            } else if (!p.ofi.empty() || (net_env != nullptr && !IsSocketNetName(net_env->value))) {
              add("the net plugin library (" + n.name + ") could not be loaded", Severity::kWarning,
                  pi, n.evidence);
            }
            break;
          default:
            break;
        }
      }
    }
    AddPluginOnSomeHostsOnly(job, add);
    std::set<int> noted;  // Processes whose failure the plugin/OFI records already show.
    for (const auto& [what, fail] : failures)
      noted.insert(fail.processes.begin(), fail.processes.end());
    for (const WarnRecord& w : job.warnings) {
      if (!IsNetPluginWarning(w)) continue;
      for (int p : w.processes) {
        if (noted.count(p) > 0) continue;
        add("NCCL WARN: " + w.message, Severity::kError, p,
            w.evidence.empty() ? Evidence{} : w.evidence.front());
      }
      if (w.processes.empty()) {
        add("NCCL WARN: " + w.message, Severity::kError, -1,
            w.evidence.empty() ? Evidence{} : w.evidence.front());
      }
    }
    // Other lines the knowledge table gives to this rule: libfabric's own warnings
    // (`fi_getinfo: provider efa output empty list`), which name no NCCL process.
    for (const MessageHit* h : ctx.messages.OfRule(id())) {
      if (h->source != MessageHit::Source::kNotice || h->known == nullptr || h->record == nullptr)
        continue;
      const WarnRecord& n = *h->record;
      const Evidence ev = n.evidence.empty() ? Evidence{} : n.evidence.front();
      const std::string what = std::string(h->known->title) + " (\"" + n.message + "\")";
      if (n.processes.empty()) add(what, h->known->severity, -1, ev);
      for (int p : n.processes) add(what, h->known->severity, p, ev);
    }
    if (failures.empty()) return;
    Finding f = NewFinding(*this);
    f.severity = Severity::kInfo;
    std::vector<std::string> parts;
    for (const auto& [what, fail] : failures) {
      if (fail.severity > f.severity) f.severity = fail.severity;
      std::set<int> procs(fail.processes.begin(), fail.processes.end());
      procs.erase(-1);
      std::string part = what;
      if (!procs.empty()) part += " (" + std::to_string(procs.size()) + " process(es))";
      parts.push_back(part);
      for (int p : procs) AddProcess(job, p, &f);
      for (const Evidence& e : fail.evidence) AddEvidence(&f, e);
    }
    f.message = JoinStrings(parts, "; ") + ".";
    if (nodes_use_sockets) f.message += " Inter-node links then ran over NET/Socket (TCP).";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNetPluginFailedRule() { return std::make_unique<NetPluginFailedRule>(); }

}  // namespace ncclscope::rules_internal
