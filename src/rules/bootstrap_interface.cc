// bootstrap-interface: bootstrap/socket traffic on loopback, docker bridges, veth or link-local
// addresses, or no usable interface at all.
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "known_findings.h"
#include "ncclscope/rules/error_trail.h"
#include "net_expectation.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

constexpr std::string_view kTunnel = "a tunnel device";
constexpr std::string_view kLinkLocal = "a link-local address";
constexpr std::string_view kLinkLocal6 = "an IPv6 link-local address";

/// Why an interface/address is a poor choice, or "" when it is fine.
std::string BadInterface(std::string_view ifname, std::string_view addr) {
  if (ifname == "lo" || addr.substr(0, 4) == "127." || addr == "::1") return "loopback";
  if (ifname.starts_with("docker") || ifname.starts_with("br-")) return "a Docker bridge";
  if (ifname.starts_with("veth")) return "a veth pair end";
  if (ifname.starts_with("virbr")) return "a libvirt bridge";
  if (ifname.starts_with("lxcbr") || ifname.starts_with("lxdbr")) return "an LXC/LXD bridge";
  if (ifname.starts_with("ip6tnl") || ifname.starts_with("tunl") || ifname.starts_with("sit")) {
    return std::string(kTunnel);
  }
  if (ifname.starts_with("tun") || ifname.starts_with("tap")) return "a VPN/tun device";
  if (addr.starts_with("169.254.") || ifname.ends_with(":avahi")) return std::string(kLinkLocal);
  if (addr.starts_with("fe80:") || addr.starts_with("FE80:")) return std::string(kLinkLocal6);
  return "";
}

/// The first unsuitable interface of a "NET/Socket : Using [0]lo:127.0.0.1<0> [1]..." list (or
/// the 2.3-2.4 "NET : Using interface" lines): (name, address, why); empty when all are fine.
std::tuple<std::string, std::string, std::string> BadSocketDevice(const Process& p) {
  for (const std::string& d : p.socket_devices) {
    size_t colon = d.find(':');
    std::string name = d.substr(0, colon);
    std::string addr = colon == std::string::npos ? "" : d.substr(colon + 1);
    addr = addr.substr(0, addr.find('<'));
    std::string why = BadInterface(name, addr);
    if (!why.empty()) return {name, addr, why};
  }
  return {};
}

/// True if the job's connection errors say that ranks could not reach each other.
bool ConnectionsFailed(const RuleContext& ctx) {
  for (const MessageHit* h : ctx.messages.OfRule("connection-error")) {
    if (h->known != nullptr && h->known->side == FailureSide::kNetworkPath) return true;
    if (h->known != nullptr && h->known->side == FailureSide::kPeerDied) return true;
  }
  // No WARN says so, but a failing return-code trail runs through the bootstrap or the socket
  // code (NCCL 2.18's socketPollConnect fails silently).
  for (const ErrorTrailRecord* t : SilentFailingTrails(ctx.job)) {
    if (ContainsNoCase(t->location, "bootstrap") || ContainsNoCase(t->location, "socket"))
      return true;
  }
  return false;
}

/// True if the only connection errors are connections closed or reset by a peer whose address
/// the message names and that is routable: the connection reached across the network, so the
/// bootstrap interface is not the suspect (a stray connection to the bootstrap port, nccl#1612,
/// or a peer that died).
bool OnlyRoutablePeersClosed(const RuleContext& ctx) {
  bool any = false;
  for (const MessageHit* h : ctx.messages.OfRule("connection-error")) {
    if (h->known == nullptr) continue;
    if (h->known->side == FailureSide::kNetworkPath) return false;
    if (h->known->side != FailureSide::kPeerDied) continue;
    if (h->details.peer_host.empty() || !BadInterface("", h->details.peer_host).empty()) return false;
    any = true;
  }
  return any;
}

class BootstrapInterfaceRule : public BasicRule {
 public:
  BootstrapInterfaceRule()
      : BasicRule("bootstrap-interface", Severity::kWarning,
                  "NCCL bootstrap uses an unsuitable network interface",
                  "Set NCCL_SOCKET_IFNAME to the interface that routes between the nodes (e.g. "
                  "`NCCL_SOCKET_IFNAME=eth0`, or exclude bad ones with `^docker0,lo`); check the "
                  "name inside the container (`ip -br addr`): with Kubernetes pod networking it is "
                  "usually eth0, with `hostNetwork: true` the host's interface (e.g. ens5 on "
                  "EKS). A name that matches no interface makes NCCL fail with \"no socket "
                  "interface found\".") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (!hits.empty()) {
      const KnownMessage* lead = hits.front()->known;
      Finding f = FindingForEntry(*this, job, lead, hits);
      std::string ifname;
      for (const Process& p : job.processes) {
        if (const Setting* s = FindEnv(p, "NCCL_SOCKET_IFNAME")) {
          ifname = s->value;
          AddEvidence(&f, s->evidence);
          break;
        }
      }
      if (!ifname.empty() && lead != nullptr && lead->id == "no-socket-interface") {
        f.message += " NCCL_SOCKET_IFNAME=" + ifname + " is set: it matches no usable interface.";
      }
      f.suspect_hosts = f.hosts;
      out->push_back(std::move(f));
    }
    const size_t before = out->size();
    UnsuitableInterfaces(ctx, out);
    DifferentInterfaces(job, out);
    if (hits.empty() && out->size() == before) NoInterfaceInPeerSubnet(ctx, out);
    if (hits.empty() && out->size() == before) BootstrapConnectFailed(ctx, out);
    if (hits.empty() && out->size() == before) AdvertisedAddressUnroutable(ctx, out);
  }

 private:
  /// Bootstrap or socket traffic on loopback, bridges, tunnels or link-local addresses.
  void UnsuitableInterfaces(const RuleContext& ctx, std::vector<Finding>* out) const {
    const Job& job = ctx.job;
    Finding f = NewFinding(*this);
    std::vector<std::string> bad;
    bool socket_transport = false;  // a bad interface is one NCCL's socket transport uses
    // An address no other host can route to (a tunnel, a link-local address), where a loopback,
    // bridge or veth at least means a container or one-host setup.
    bool unroutable = false;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      std::string ifname = p.bootstrap_if, addr = p.bootstrap_addr;
      const Evidence* ev = &p.bootstrap_evidence;
      std::string why = BadInterface(ifname, addr);
      if (why.empty()) {
        // NCCL's socket transport may use other interfaces than the bootstrap.
        std::tie(ifname, addr, why) = BadSocketDevice(p);
        ev = nullptr;
        if (!why.empty() && IsSocketNetName(p.network)) {
          socket_transport = true;
          AddEvidence(&f, p.network_evidence);
        }
      }
      if (why.empty()) continue;
      unroutable = unroutable || why == kTunnel || why == kLinkLocal || why == kLinkLocal6;
      AddProcess(job, static_cast<int>(i), &f);
      if (ev != nullptr) AddEvidence(&f, *ev);
      std::string item = ProcessLabel(job, static_cast<int>(i)) + " on " + ifname;
      if (!addr.empty()) item += " " + addr;
      item += " (" + why + ")";
      bad.push_back(item);
    }
    if (bad.empty()) return;
    const std::optional<bool> nccl_multi = NcclSaysMultiNode(job);
    const bool multi = job.hosts.size() > 1 || IsMultiNode(job) ||
                       nccl_multi.value_or(!LauncherSaysMultiNode(job).reason.empty());
    const bool failing = ConnectionsFailed(ctx);
    // NCCL's socket transport carries only traffic between nodes: a bad interface in the list of
    // a process that uses it is on the inter-node path.
    const bool socket_data = socket_transport && !multi;
    // NCCL picks such an interface first only when it found nothing routable; unless NCCL itself
    // says the job has one node (its nNodes lines), the nodes the excerpt does not show would
    // fail to reach it.
    const bool unroutable_unknown = unroutable && !nccl_multi.has_value();
    f.severity = multi || failing || socket_transport || unroutable_unknown ? Severity::kWarning
                                                                             : Severity::kInfo;
    size_t shown = std::min<size_t>(bad.size(), 4);
    std::vector<std::string> head(bad.begin(), bad.begin() + shown);
    f.message = std::to_string(bad.size()) +
                " process(es) use an unsuitable interface for bootstrap or NCCL's sockets: " +
                JoinStrings(head, "; ") +
                (bad.size() > shown ? "; ..." : "");
    if (multi) {
      f.message += ". Other nodes cannot reach this address.";
    } else if (failing) {
      f.message += ". Ranks failed to connect: other nodes cannot reach this address.";
    } else if (socket_data) {
      f.message += ". NCCL's socket transport (\"Using network Socket\") carries the traffic "
                   "between nodes over these interfaces: other nodes cannot reach such an "
                   "address.";
    } else if (unroutable_unknown) {
      f.message += ". NCCL chose it because it found no routable interface; harmless only if "
                   "all ranks share this host, and the log does not say they do (no nNodes "
                   "line): ranks on other nodes cannot reach this address.";
    } else {
      f.message += ". Harmless while all ranks share one host.";
    }
    out->push_back(std::move(f));
  }

  /// A connection failure during bootstrap (the error trail runs through NCCL's bootstrap code)
  /// when the log names no interface: the bootstrap address is the first suspect.
  void BootstrapConnectFailed(const RuleContext& ctx, std::vector<Finding>* out) const {
    const Job& job = ctx.job;
    if (!ConnectionsFailed(ctx) || OnlyRoutablePeersClosed(ctx)) return;
    Finding f = NewFinding(*this);
    std::set<int> procs;
    for (const ErrorTrailRecord& t : job.error_trails) {
      if (t.code == 0 || !ContainsNoCase(t.location, "bootstrap")) continue;
      if (t.process >= 0 && static_cast<size_t>(t.process) < job.processes.size()) {
        const Process& p = job.processes[t.process];
        // The log says which interface this process used: UnsuitableInterfaces judged it.
        if (!p.bootstrap_if.empty() || !p.socket_devices.empty()) continue;
      }
      if (procs.insert(t.process).second) {
        AddProcess(job, t.process, &f);
        AddEvidence(&f, t.evidence);
      }
    }
    if (procs.empty()) return;
    // The interface NCCL's sockets use on the same hosts, when NET/IB's OOB names IPoIB.
    std::set<std::string> ipoib;
    for (const Process& p : job.processes) {
      if (!IsIpoibName(p.ib_oob_if)) continue;
      for (const std::string& h : f.hosts) {
        if (h == p.hostname) ipoib.insert(p.ib_oob_if + " on " + h);
      }
    }
    f.title = "Ranks failed to connect during bootstrap";
    f.message = "The connection errors of " + std::to_string(procs.size()) +
                " process(es) happened in NCCL's bootstrap (\"" + f.evidence.front().text +
                "\"): ranks could not reach the address another rank advertised. The log does "
                "not show the bootstrap interface (NCCL_DEBUG=INFO prints \"Bootstrap : Using "
                "...\"); most often it is lo, docker0 or another interface the other nodes "
                "cannot route to (NCCL_SOCKET_IFNAME=^docker0 still allows lo), or a firewall; "
                "before NCCL 2.27.3 a stray connection to the bootstrap port (a port scanner, a "
                "health check) also fails bootstrap.";
    if (!ipoib.empty()) {
      f.message += " Other processes of the same host run NCCL's sockets over IPoIB (NET/IB's "
                   "OOB interface: " +
                   JoinStrings(std::vector<std::string>(ipoib.begin(), ipoib.end()), ", ") +
                   "): bootstrap over IPoIB fails when IPoIB does not route between the nodes; "
                   "NCCL_SOCKET_IFNAME set to the Ethernet NIC moves it there (NVIDIA/nccl#1000).";
    }
    out->push_back(std::move(f));
  }

  /// "Net : No interface found in the same subnet as remote address 192.168.0.91<27030>": no
  /// interface of the process is on the network of the address it must reach (NCCL_COMM_ID's,
  /// the bootstrap root's), so it bootstrapped elsewhere; in a container with Docker's default
  /// bridge (172.17.0.0/16) no other host can reach it (nccl#331).
  void NoInterfaceInPeerSubnet(const RuleContext& ctx, std::vector<Finding>* out) const {
    const Job& job = ctx.job;
    Finding f = NewFinding(*this);
    std::string remote;
    std::vector<int> procs;
    for (const MessageHit* h : ctx.messages.OfRule("connection-error")) {
      if (!ContainsNoCase(h->text, "No interface found in the same subnet")) continue;
      if (remote.empty()) remote = h->details.peer.empty() ? "the remote address" : h->details.peer;
      if (h->record == nullptr) continue;
      AddWarnRecord(job, *h->record, &f);
      procs.insert(procs.end(), h->record->processes.begin(), h->record->processes.end());
    }
    if (remote.empty()) return;
    std::string used;
    bool docker_bridge = false;
    for (int p : procs) {
      const Process& proc = job.processes[p];
      if (proc.bootstrap_if.empty()) continue;
      used = proc.bootstrap_if + " " + proc.bootstrap_addr;
      docker_bridge = proc.bootstrap_addr.starts_with("172.17.");
      AddEvidence(&f, proc.bootstrap_evidence);
      break;
    }
    f.title = "No interface on the network of the address NCCL must reach";
    f.message = "No interface of the process is in the subnet of " + remote +
                " (the bootstrap root: NCCL_COMM_ID, or rank 0's address)";
    f.message += used.empty() ? "." : "; it bootstrapped on " + used + " instead.";
    if (docker_bridge) {
      f.message += " 172.17.0.0/16 is Docker's default bridge: the container runs with bridge "
                   "networking, where other hosts cannot reach it; run it with --network=host "
                   "(Kubernetes: hostNetwork: true).";
    } else {
      f.message += " Set NCCL_SOCKET_IFNAME to the interface on that network, or give "
                   "NCCL_COMM_ID an address this host can reach.";
    }
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }

  /// Connection failures that point at the address a rank advertised, when the log names no
  /// interface: a connect to a loopback or link-local address (`Connect to 127.0.0.1<45069>
  /// failed`: the peer bootstrapped on lo), or no route to the peer's address (`No route to
  /// host`, `Network is unreachable`: an interface the others cannot route to, or a firewall
  /// that rejects with host-unreachable).
  void AdvertisedAddressUnroutable(const RuleContext& ctx, std::vector<Finding>* out) const {
    const Job& job = ctx.job;
    for (const Process& p : job.processes) {
      if (!p.bootstrap_if.empty() || !p.socket_devices.empty()) return;  // judged above
    }
    Finding f = NewFinding(*this);
    std::string local, unroutable;  // the first peer of each kind
    for (const MessageHit* h : ctx.messages.OfRule("connection-error")) {
      const std::string& peer = h->details.peer;
      const std::string why = BadInterface("", h->details.peer_host);
      if (!why.empty()) {
        if (local.empty()) local = peer + " (" + why + ")";
      } else if (ContainsNoCase(h->text, "No route to host") ||
                 ContainsNoCase(h->text, "Network is unreachable")) {
        if (unroutable.empty()) unroutable = peer.empty() ? "a peer" : peer;
      } else {
        continue;
      }
      if (h->record != nullptr) AddWarnRecord(job, *h->record, &f);
      if (h->framework != nullptr) AddEvidence(&f, h->framework->evidence);
    }
    if (local.empty() && unroutable.empty()) return;
    f.title = "Ranks connect to an address the other ranks cannot use";
    if (!local.empty()) {
      f.message = "A rank connected to " + local +
                  ": the peer advertised an address that only exists on its own node, so it "
                  "bootstrapped on the wrong interface (lo, or an interface the others cannot "
                  "reach).";
    } else {
      f.message = "No route to " + unroutable +
                  ": the address a rank advertised does not route from the others (it "
                  "bootstrapped on an interface of another subnet, a bridge or a VPN), or a "
                  "firewall rejects the connection as host-unreachable.";
    }
    f.message += " The log does not show the interfaces (NCCL_DEBUG=INFO prints \"Bootstrap : "
                 "Using ...\" and \"NET/Socket : Using ...\").";
    out->push_back(std::move(f));
  }

  /// Nodes that bootstrap on differently named interfaces or different /16 subnets.
  void DifferentInterfaces(const Job& job, std::vector<Finding>* out) const {
    if (job.hosts.size() < 2) return;
    std::map<std::string, std::vector<int>> by_if;  // interface → processes
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      if (p.bootstrap_if.empty() || !BadInterface(p.bootstrap_if, p.bootstrap_addr).empty()) continue;
      by_if[p.bootstrap_if].push_back(static_cast<int>(i));
    }
    if (by_if.size() < 2) return;
    for (const Process& p : job.processes) {
      if (FindEnv(p, "NCCL_SOCKET_IFNAME") != nullptr) return;  // chosen on purpose
    }
    Finding f = NewFinding(*this);
    f.title = "Nodes bootstrap on different network interfaces";
    std::vector<std::string> parts;
    for (const auto& [ifname, procs] : by_if) {
      std::set<std::string> hosts;
      for (int p : procs) {
        AddProcess(job, p, &f);
        hosts.insert(HostName(job, p));
        AddEvidence(&f, job.processes[p].bootstrap_evidence);
      }
      parts.push_back(ifname + " on " + std::to_string(hosts.size()) + " host(s)");
    }
    f.message = "Without NCCL_SOCKET_IFNAME each node picked its own interface: " +
                JoinStrings(parts, ", ") +
                ". If these are different networks, ranks advertise addresses the others cannot "
                "route to.";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeBootstrapInterfaceRule() {
  return std::make_unique<BootstrapInterfaceRule>();
}

}  // namespace ncclscope::rules_internal
