#include "net_expectation.h"

#include <algorithm>
#include <cctype>

#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

void Add(std::vector<NetExpectation>* out, std::string reason, bool failed, const Evidence& ev,
         bool weak = false) {
  for (const NetExpectation& e : *out) {
    if (e.reason == reason) return;
  }
  NetExpectation e;
  e.reason = std::move(reason);
  e.plugin_failed = failed;
  e.evidence = ev;
  e.weak = weak;
  out->push_back(std::move(e));
}

}  // namespace

bool IsSocketNetName(std::string_view name) { return ContainsNoCase(name, "Socket"); }

bool IsPluginApiUnsupported(const PluginNote& n) {
  // "NET/Plugin: Failed to find ncclNetPlugin symbol (>= v5). ncclNetPlugin symbols v4 and lower
  // are not supported." names no version: none was found. A versioned miss
  // ("ncclNetPlugin_v7") is NCCL trying the next older API.
  return n.kind == "NET" && n.action == PluginAction::kSymbolMissing && n.name == "ncclNetPlugin";
}

bool IsIpoibName(std::string_view ifname) {
  return ifname.size() >= 3 && ifname.starts_with("ib") &&
         (std::isdigit(static_cast<unsigned char>(ifname[2])) || ifname[2] == 'p' ||
          ifname[2] == 's');
}

bool IsRdmaPluginName(std::string_view name) {
  return ContainsNoCase(name, "RDMA") || name.starts_with("IB") || ContainsNoCase(name, "IBext") ||
         ContainsNoCase(name, "SHARP");
}

std::vector<NetExpectation> ExpectedFastNetwork(const Job& job) {
  std::vector<NetExpectation> out;
  for (const Process& p : job.processes) {
    const Setting* plugin_env = FindEnv(p, "NCCL_NET_PLUGIN");
    for (const OfiNote& n : p.ofi) {
      switch (n.kind) {
        case OfiKind::kNoEligibleProviders:
          Add(&out, "aws-ofi-nccl found no eligible (EFA) provider", true, n.evidence);
          break;
        case OfiKind::kInitFailed:
          Add(&out, "aws-ofi-nccl initialization failed", true, n.evidence);
          break;
        default:
          break;
      }
    }
    for (const PluginNote& n : p.plugins) {
      if (n.kind != "NET") continue;
      if (n.action == PluginAction::kAllFailed) {
        Add(&out, "no NET plugin could be initialized", true, n.evidence);
      } else if (n.action == PluginAction::kInitFailed && !IsSocketNetName(n.name)) {
        // NCCL's own IB plugin fails to initialize wherever there is no IB device or no verbs
        // library (2.20+ says so after "NET/IB : No device found." / "Failed to open
        // libibverbs"): the probe's result, weak evidence that IB was meant to be there.
        const bool probe = p.ib_no_device && n.name.starts_with("IB");
        Add(&out, "NET plugin " + n.name + " failed to initialize", true, n.evidence, probe);
      } else if (IsPluginApiUnsupported(n)) {
        Add(&out,
            "a net plugin library is installed but offers no plugin API this NCCL supports, so "
            "NCCL ignored it",
            true, n.evidence);
      } else if ((n.action == PluginAction::kNotFound || n.action == PluginAction::kLoadError) &&
                 plugin_env != nullptr) {
        Add(&out,
            "the requested net plugin NCCL_NET_PLUGIN=" + plugin_env->value + " was not found",
            true, n.evidence);
      }
    }
    for (const OfiNote& n : p.ofi) {
      if (n.kind == OfiKind::kPlatform) {
        Add(&out, "aws-ofi-nccl runs on an EFA platform (" + n.value + ")", false, n.evidence);
      } else if (n.kind == OfiKind::kProviderFilter && ContainsNoCase(n.value, "efa")) {
        Add(&out, "aws-ofi-nccl is configured for EFA (provider_filter efa)", false, n.evidence);
      }
    }
    if (const Setting* s = FindEnv(p, "FI_PROVIDER"); s != nullptr && s->value == "efa") {
      Add(&out, "FI_PROVIDER=efa is set", false, s->evidence);
    }
    if (const Setting* s = FindEnv(p, "NCCL_NET"); s != nullptr && !IsSocketNetName(s->value)) {
      Add(&out, "NCCL_NET=" + s->value + " is set", false, s->evidence);
    }
    for (const char* name : {"NCCL_IB_HCA", "NCCL_IB_GID_INDEX"}) {
      if (const Setting* s = FindEnv(p, name); s != nullptr && !s->value.starts_with("^")) {
        Add(&out, std::string(name) + "=" + s->value + " is set (InfiniBand/RoCE intended)", false,
            s->evidence);
      }
    }
    // TCP over an IPoIB interface (ib0, ibp12s0): the nodes have InfiniBand that NCCL does not
    // use through verbs.
    for (const std::string& dev : p.socket_devices) {
      if (IsIpoibName(dev)) {
        Add(&out,
            "NCCL's sockets run over the IPoIB interface " + dev.substr(0, dev.find(':')) +
                ": the nodes have InfiniBand",
            false, p.network_evidence);
        break;
      }
    }
    const bool socket_ipoib = std::any_of(p.socket_devices.begin(), p.socket_devices.end(),
                                          [](const std::string& d) { return IsIpoibName(d); });
    if (!socket_ipoib && IsIpoibName(p.bootstrap_if) && p.ib_devices.empty()) {
      Add(&out,
          "bootstrap runs over the IPoIB interface " + p.bootstrap_if +
              ": the nodes have InfiniBand",
          false, p.bootstrap_evidence);
    }
    for (const PluginNote& n : p.plugins) {
      // A library path (HPC-X's "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/...") is
      // what the image ships, also on nodes without RDMA: only a plugin NCCL names as it loads
      // it ("Loaded net plugin IBext_v8") says the job set out to use one.
      if (n.kind == "NET" && n.action == PluginAction::kLoaded && IsRdmaPluginName(n.name) &&
          n.name.find('/') == std::string::npos) {
        Add(&out, "an RDMA network plugin is loaded (" + n.name + ")", false, n.evidence);
      }
    }
    if (p.ib_no_device) {
      Add(&out, "NET/IB found no device", false, p.ib_no_device_evidence, /*weak=*/true);
    }
  }
  // HCAs that NCCL could not open (inside a container without the RDMA devices).
  for (const WarnRecord& w : job.warnings) {
    if (ContainsNoCase(w.message, "ibv_open_device") ||
        ContainsNoCase(w.message, "NET/IB : Unable to open device")) {
      Add(&out, "NCCL could not open the InfiniBand/RoCE device", true,
          w.evidence.empty() ? Evidence{} : w.evidence.front());
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const NetExpectation& a, const NetExpectation& b) {
    return a.plugin_failed > b.plugin_failed;
  });
  return out;
}

}  // namespace ncclscope::rules_internal
