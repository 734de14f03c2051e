// bootstrap-interface: bootstrap/socket traffic on loopback, docker bridges, veth or link-local
// addresses, or no usable interface at all.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

/// Why an interface/address is a poor choice, or "" when it is fine.
std::string BadInterface(std::string_view ifname, std::string_view addr) {
  if (ifname == "lo" || addr.substr(0, 4) == "127." || addr == "::1") return "loopback";
  if (ifname.substr(0, 6) == "docker") return "a Docker bridge";
  if (ifname.substr(0, 4) == "veth") return "a veth pair end";
  if (addr.substr(0, 8) == "169.254.") return "a link-local address";
  return "";
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
    auto records = MatchingWarnings(job, IsInterfaceWarning);
    if (!records.empty()) {
      Finding f = NewFinding(*this);
      f.severity = Severity::kError;
      for (const WarnRecord* w : records) AddWarnRecord(job, *w, &f);
      std::string ifname;
      for (const Process& p : job.processes) {
        if (const Setting* s = FindEnv(p, "NCCL_SOCKET_IFNAME")) {
          ifname = s->value;
          AddEvidence(&f, s->evidence);
          break;
        }
      }
      f.message = "NCCL found no usable socket interface on " +
                  std::to_string(ProcessCount(records)) + " process(es): \"" +
                  records.front()->message + "\"";
      if (!ifname.empty()) {
        f.message += "; NCCL_SOCKET_IFNAME=" + ifname + " matches no usable interface";
      }
      f.message += ".";
      f.suspect_hosts = f.hosts;
      out->push_back(std::move(f));
    }
    Finding f = NewFinding(*this);
    std::vector<std::string> bad;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      std::string why = BadInterface(p.bootstrap_if, p.bootstrap_addr);
      if (why.empty()) continue;
      AddProcess(job, static_cast<int>(i), &f);
      AddEvidence(&f, p.bootstrap_evidence);
      std::string item = ProcessLabel(job, static_cast<int>(i)) + " on " + p.bootstrap_if;
      if (!p.bootstrap_addr.empty()) item += " " + p.bootstrap_addr;
      item += " (" + why + ")";
      bad.push_back(item);
    }
    if (bad.empty()) return;
    bool multi = job.hosts.size() > 1 || IsMultiNode(job);
    f.severity = multi ? Severity::kWarning : Severity::kInfo;
    size_t shown = std::min<size_t>(bad.size(), 4);
    std::vector<std::string> head(bad.begin(), bad.begin() + shown);
    f.message = std::to_string(bad.size()) +
                " process(es) bootstrap on an unsuitable interface: " + JoinStrings(head, "; ") +
                (bad.size() > shown ? "; ..." : "") +
                (multi ? ". Other nodes cannot reach this address."
                       : ". Harmless while all ranks share one host.");
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeBootstrapInterfaceRule() {
  return std::make_unique<BootstrapInterfaceRule>();
}

}  // namespace ncclscope::rules_internal
