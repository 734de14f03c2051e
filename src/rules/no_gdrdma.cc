// no-gdrdma: RDMA network links without GPUDirect RDMA (data bounces through host memory).
#include <map>

#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class NoGdrdmaRule : public BasicRule {
 public:
  NoGdrdmaRule()
      : BasicRule("no-gdrdma", Severity::kWarning, "RDMA network links without GPUDirect RDMA",
                  "Enable GPUDirect RDMA: load the nvidia-peermem kernel module (or use DMA-BUF "
                  "with a recent driver and kernel), keep NCCL_NET_GDR_LEVEL unset or at least "
                  "PHB/SYS as the topology needs, and make sure GPU and NIC share a PCIe switch. "
                  "EKS: use the EKS-optimized accelerated AMI (it loads the EFA driver with GDR "
                  "support) and a recent aws-ofi-nccl. Kubernetes: the GPU operator's "
                  "`driver.rdma.enabled=true` loads nvidia-peermem.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    Finding f = NewFinding(*this);
    std::map<std::string, std::pair<size_t, size_t>> per_class;  // class → (without, all)
    size_t without = 0;
    for (const Link& l : job.links) {
      if (l.cls != TransportClass::kNetIB && l.cls != TransportClass::kNetLibfabric) continue;
      auto& c = per_class[std::string(TransportClassName(l.cls))];
      ++c.second;
      if (l.gdrdma) continue;
      ++c.first;
      ++without;
      AddRank(&f, GlobalRank(job, l.comm, l.src));
      AddRank(&f, GlobalRank(job, l.comm, l.dst));
      if (l.reporter >= 0) AddHost(&f, HostName(job, l.reporter));
      if (l.comm >= 0) AddComm(&f, job.comms[l.comm].id);
      if (f.evidence.size() < 2) AddEvidence(&f, l.first);
    }
    std::vector<std::string> notes;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      bool disabled = p.gdr_disabled_nics > 0 && p.gdr_enabled_nics == 0;
      for (const OfiNote& n : p.ofi) {
        if (n.kind == OfiKind::kGdrDisabled) {
          disabled = true;
          AddEvidence(&f, n.evidence);
        }
      }
      if (!disabled) continue;
      AddProcess(job, static_cast<int>(i), &f);
      AddEvidence(&f, p.gdr_evidence);
      notes.push_back(ProcessLabel(job, static_cast<int>(i)));
    }
    if (without == 0 && notes.empty()) return;
    std::vector<std::string> parts;
    for (const auto& [cls, c] : per_class) {
      if (c.first > 0) {
        parts.push_back(std::to_string(c.first) + " of " + std::to_string(c.second) + " " + cls +
                        " links lack /GDRDMA");
      }
    }
    if (!notes.empty()) {
      parts.push_back("GPU Direct RDMA is disabled on " + std::to_string(notes.size()) +
                      " process(es)");
    }
    f.message = JoinStrings(parts, "; ") +
                ": network data is staged through host memory, costing bandwidth and CPU.";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNoGdrdmaRule() { return std::make_unique<NoGdrdmaRule>(); }

}  // namespace ncclscope::rules_internal
