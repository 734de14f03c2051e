// no-gdrdma: RDMA network links without GPUDirect RDMA (data bounces through host memory).
#include <cstdio>
#include <map>

#include "known_findings.h"
#include "net_expectation.h"
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
      // An external plugin whose name says it drives verbs ("RDMA_Plugin", UCCL's) is RDMA too.
      const bool rdma_plugin = l.cls == TransportClass::kNetOther && IsRdmaPluginName(l.net);
      if (l.cls != TransportClass::kNetIB && l.cls != TransportClass::kNetLibfabric && !rdma_plugin)
        continue;
      auto& c =
          per_class[rdma_plugin ? "NET/" + l.net.str() : std::string(TransportClassName(l.cls))];
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
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    AddHits(job, hits, &f);
    if (without == 0 && notes.empty() && hits.empty()) return;
    // NCCL before 2.23 looks for the nv_peer_mem module only: with a driver stack that ships
    // nvidia-peermem it reports "no module" although GPUDirect RDMA would work.
    bool old_nccl = false;
    for (const Process& p : job.processes) {
      if (p.gdr_disabled_nics == 0) continue;
      int major = 0, minor = 0;
      if (std::sscanf(p.nccl_version.c_str(), "%d.%d", &major, &minor) == 2 &&
          (major < 2 || (major == 2 && minor < 23))) {
        old_nccl = true;
      }
    }
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
    for (const MessageHit* h : hits) {
      if (h->known != nullptr) {
        parts.push_back(std::string(h->known->title) + " (\"" + std::string(h->text) + "\")");
      }
    }
    f.message = JoinStrings(parts, "; ") +
                ": network data is staged through host memory, costing bandwidth and CPU.";
    if (const KnownMessage* k = FindKnownMessage("gdr-disabled-for-hca")) {
      f.message += " " + CausesSentence(*k);
    }
    if (old_nccl) {
      f.message +=
          " This NCCL is older than 2.23, which recognises only the nv_peer_mem module: with a "
          "driver stack that ships nvidia-peermem (e.g. DGX OS 25.01+) it disables GPUDirect "
          "RDMA although the module is loaded; upgrade NCCL.";
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNoGdrdmaRule() { return std::make_unique<NoGdrdmaRule>(); }

}  // namespace ncclscope::rules_internal
