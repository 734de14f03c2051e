// socket-fallback: links between nodes run over NET/Socket (TCP).
#include <algorithm>
#include <array>
#include <functional>
#include <map>

#include "net_expectation.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class SocketFallbackRule : public BasicRule {
 public:
  SocketFallbackRule()
      : BasicRule("socket-fallback", Severity::kWarning,
                  "Inter-node traffic runs over TCP sockets (NET/Socket)",
                  "Give NCCL its RDMA network. AWS/EKS: install aws-ofi-nccl (and the EFA "
                  "installer) in the image, request `vpc.amazonaws.com/efa: <n>` in every pod's "
                  "resources (with the EFA device plugin), set FI_PROVIDER=efa and make sure "
                  "`NET/OFI Selected provider is efa` appears. InfiniBand/RoCE: expose the HCAs "
                  "to the container (RDMA device plugin or host devices /dev/infiniband, "
                  "`IPC_LOCK` capability), check `ibv_devinfo` inside the pod, and do not set "
                  "NCCL_IB_DISABLE=1 or NCCL_NET=Socket. Slurm: make sure the nodes' HCAs are "
                  "visible to the job. If the cluster only has Ethernet, set NCCL_SOCKET_IFNAME to "
                  "the fastest interface and NCCL_SOCKET_NTHREADS/NCCL_NSOCKS_PERTHREAD.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    // Per communicator: socket links between nodes / all links between nodes.
    std::map<int, std::pair<size_t, size_t>> per_comm;
    std::vector<const Link*> socket_links;
    uint64_t same_host = 0;
    for (const Link& l : job.links) {
      bool inter = l.intra_node.has_value() ? !*l.intra_node : l.cls == TransportClass::kNetSocket;
      if (!inter) continue;
      auto& c = per_comm[l.comm];
      ++c.second;
      if (l.cls != TransportClass::kNetSocket) continue;
      ++c.first;
      socket_links.push_back(&l);
      if (l.same_physical_host.value_or(false)) same_host += CommWeight(job, l.comm);
    }
    if (socket_links.empty()) {
      // Socket links within a node are intra-node-net's; the prediction is for logs without
      // any socket link yet.
      const bool any_socket_link = std::any_of(job.links.begin(), job.links.end(), [](const Link& l) {
        return l.cls == TransportClass::kNetSocket;
      });
      if (!any_socket_link) PredictedFallback(job, out);
      return;
    }
    Finding f = NewFinding(*this);
    // Largest communicator first in words; the others summed, so big jobs stay one line.
    std::string counts;
    int shown = 0;
    uint64_t rest_socket = 0, rest_total = 0, rest_comms = 0;
    std::vector<std::pair<int, int>> order;  // (nranks, comm)
    for (const auto& [comm, c] : per_comm) {
      if (c.first == 0) continue;
      order.emplace_back(comm >= 0 ? job.comms[comm].nranks : 0, comm);
      AddComm(&f, comm >= 0 ? job.comms[comm].id : "");
    }
    std::sort(order.begin(), order.end(), std::greater<>());
    for (const auto& [nranks, comm] : order) {
      const auto& c = per_comm.at(comm);
      if (shown++ < 2) {
        if (!counts.empty()) counts += "; ";
        counts += std::to_string(c.first) + " of " + std::to_string(c.second) +
                  " inter-node links of comm " + CommName(job, comm);
        if (CommWeight(job, comm) > 1)
          counts += " (and of each of its " + std::to_string(CommWeight(job, comm) - 1) +
                    " repeats)";
      } else {
        const uint64_t weight = CommWeight(job, comm);
        rest_socket += c.first * weight;
        rest_total += c.second * weight;
        rest_comms += weight;
      }
    }
    if (rest_comms > 0) {
      counts += "; " + std::to_string(rest_socket) + " of " + std::to_string(rest_total) + " in " +
                std::to_string(rest_comms) + " more communicator(s)";
    }
    for (const Link* l : socket_links) {
      AddRank(&f, GlobalRank(job, l->comm, l->src));
      AddRank(&f, GlobalRank(job, l->comm, l->dst));
      if (l->reporter >= 0) AddHost(&f, HostName(job, l->reporter));
      if (f.evidence.size() < 2) AddEvidence(&f, l->first);
    }
    f.message = counts + " run over NET/Socket (TCP)";
    auto expectations = ExpectedFastNetwork(job);
    if (!expectations.empty()) {
      f.severity = Severity::kError;
      std::vector<std::string> reasons;
      for (const NetExpectation& e : expectations) {
        reasons.push_back(e.reason);
        AddEvidence(&f, e.evidence);
      }
      f.message += ", although the job expected a fast network: " + JoinStrings(reasons, "; ");
    }
    f.message += ".";
    if (same_host > 0) {
      f.message += " " + std::to_string(same_host) +
                   " of these links join ranks on the same physical host (see intra-node-net).";
    }
    out->push_back(std::move(f));
  }

 private:
  /// NCCL before 2.4.8 printed no "Bootstrap : Using" line: its bootstrap listed its interfaces
  /// as "NET/Socket : Using", before the NET plugin probe that precedes the choice of transport.
  /// Told by the version, or by such a line ahead of its process's plugin probe.
  static bool BootstrapListsSocketInterfaces(const Job& job) {
    bool all_old = !job.nccl_versions.empty();
    for (const std::string& v : job.nccl_versions) {
      const auto parsed = ParseNcclVersion(v);
      all_old = all_old && parsed && *parsed < std::array<int, 3>{2, 4, 8};
    }
    if (all_old) return true;
    for (const Process& p : job.processes) {
      const Evidence& s = p.socket_devices_evidence;
      if (s.text.empty()) continue;
      for (const PluginNote& n : p.plugins) {
        const bool probe = n.action == PluginAction::kNotFound ||
                           n.action == PluginAction::kLoadError || n.action == PluginAction::kLoaded;
        if (probe && n.kind == "NET" && n.evidence.source == s.source && s.line < n.evidence.line)
          return true;
      }
    }
    return false;
  }

  /// Before any `via` line: "Using network Socket" / "NET/Socket : Using ..." tell which
  /// transport NCCL chose for inter-node traffic; with a failed plugin, an absent HCA or a
  /// setting that asks for RDMA, that choice is the fallback.
  void PredictedFallback(const Job& job, std::vector<Finding>* out) const {
    Finding f = NewFinding(*this);
    size_t socket_procs = 0;
    const bool bootstrap_lists = BootstrapListsSocketInterfaces(job);
    bool any_network = false;  // some process states its network ("Using network X")
    for (const Process& p : job.processes) any_network = any_network || !p.network.empty();
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      // Before 2.6.4 there is no "Using network" line: NCCL lists socket interfaces only when
      // it uses the socket transport (no IB device, no plugin provider).
      bool provider = false;
      for (const OfiNote& n : p.ofi) provider = provider || n.kind == OfiKind::kProviderSelected;
      // Before 2.4.8 the bootstrap's own interface list is a "NET/Socket : Using" line too: then
      // only an IB probe that found nothing (or IB switched off) makes it the transport's.
      const bool socket_listed =
          !p.socket_devices.empty() && (!bootstrap_lists || p.ib_no_device ||
                                       FindEnvOn(p, "NCCL_IB_DISABLE") != nullptr);
      const bool socket_net = IsSocketNetName(p.network) ||
                              (!any_network && socket_listed && p.ib_devices.empty() && !provider);
      if (!socket_net) continue;
      ++socket_procs;
      AddProcess(job, static_cast<int>(i), &f);
      AddEvidence(&f, p.network_evidence.text.empty() ? p.socket_devices_evidence
                                                      : p.network_evidence);
    }
    if (socket_procs == 0) return;
    const std::optional<bool> nccl_multi = NcclSaysMultiNode(job);
    if (nccl_multi == false && job.hosts.size() <= 1) return;  // no network within one node
    // NCCL's own nNodes wins; without it, the launcher's prefixes may tell.
    LaunchSpread spread =
        nccl_multi.has_value() || job.hosts.size() > 1 ? LaunchSpread{} : LauncherSaysMultiNode(job);
    if (!nccl_multi.has_value() && job.hosts.size() <= 1 && spread.reason.empty()) {
      spread = CommSizeSaysMultiNode(job);
    }
    const bool multi = nccl_multi.value_or(false) || job.hosts.size() > 1 || !spread.reason.empty();
    if (!spread.reason.empty()) AddEvidence(&f, spread.evidence);
    auto expectations = ExpectedFastNetwork(job);
    std::vector<std::string> reasons;
    for (const NetExpectation& e : expectations) {
      if (e.weak) continue;
      reasons.push_back(e.reason);
      AddEvidence(&f, e.evidence);
    }
    std::string deliberate;
    for (const Process& p : job.processes) {
      if (const Setting* s = FindEnvOn(p, "NCCL_IB_DISABLE")) {
        deliberate = "NCCL_IB_DISABLE=" + s->value;
        AddEvidence(&f, s->evidence);
      } else if (const Setting* n = FindEnv(p, "NCCL_NET"); n != nullptr &&
                                                             IsSocketNetName(n->value)) {
        deliberate = "NCCL_NET=" + n->value;
        AddEvidence(&f, n->evidence);
      }
    }
    f.title = "NCCL chose TCP sockets (NET/Socket) for traffic between nodes";
    f.message = std::to_string(socket_procs) +
                " process(es) use NCCL's socket transport (\"Using network Socket\", \"NET/Socket : "
                "Using\"): traffic between nodes will run "
                "over TCP (a few GB/s instead of 25-400 GB/s)";
    if (!deliberate.empty()) {
      // Chosen on purpose: a cost to point out, not a failure.
      f.severity = multi || !reasons.empty() ? Severity::kWarning : Severity::kInfo;
      f.message += "; " + deliberate + " asks for it";
      if (!reasons.empty()) f.message += " although " + JoinStrings(reasons, "; ");
    } else if (!reasons.empty()) {
      f.severity = Severity::kError;
      f.message += ", although the job expected a fast network: " + JoinStrings(reasons, "; ");
    } else {
      f.severity = multi ? Severity::kWarning : Severity::kInfo;
    }
    if (!spread.reason.empty()) f.message += "; the job spans several nodes: " + spread.reason;
    f.message += multi ? "." : ". The log does not show whether the job spans several nodes: "
                                "within one node this does not matter.";
    f.message += " No connection (`via`) line shows it yet: this is NCCL's choice, predicted.";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeSocketFallbackRule() { return std::make_unique<SocketFallbackRule>(); }

}  // namespace ncclscope::rules_internal
