// net-error: network-plugin runtime errors (aws-ofi-nccl/EFA requests completed with error,
// other NET/OFI warnings after initialisation). InfiniBand errors are ib-error's.
#include "known_findings.h"
#include "ncclscope/rules/error_trail.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class NetErrorRule : public BasicRule {
 public:
  NetErrorRule()
      : BasicRule("net-error", Severity::kError, "Network plugin (EFA/OFI) runtime error",
                  "Check the peer's own log first (it may have died). EFA errors (FI_EHOSTUNREACH, "
                  "RC ...): the EFA security group must allow all inbound and outbound traffic "
                  "to itself, request `vpc.amazonaws.com/efa` resources for every pod and set "
                  "FI_PROVIDER=efa; keep libfabric (EFA installer) and aws-ofi-nccl current.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (!hits.empty()) {
      ReportHitsByEntry(*this, job, hits, out);
      return;
    }
    // Request errors NCCL printed at INFO level (not WARN): from the aws-ofi-nccl records.
    Finding f = NewFinding(*this);
    uint64_t n = 0;
    for (size_t p = 0; p < job.processes.size(); ++p) {
      for (const OfiNote& note : job.processes[p].ofi) {
        if (note.kind != OfiKind::kRequestError) continue;
        ++n;
        AddProcess(job, static_cast<int>(p), &f);
        AddEvidence(&f, note.evidence);
      }
    }
    if (n > 0) {
      f.message = std::to_string(n) + " aws-ofi-nccl request(s) completed with an error: \"" +
                  f.evidence.front().text + "\".";
      f.suspect_hosts = f.hosts;
      out->push_back(std::move(f));
      return;
    }
    ReportPluginTrails(job, out);
  }

 private:
  /// Return-code trails that pass through an external plugin's own source files
  /// (`ucx_plugin.c:485 -> 6`): the failing operation ran in that plugin.
  void ReportPluginTrails(const Job& job, std::vector<Finding>* out) const {
    Finding f = NewFinding(*this);
    f.severity = Severity::kWarning;
    std::string plugin, first;
    for (const ErrorTrailRecord& t : job.error_trails) {
      const std::string_view name = NetPluginOfTrail(t.location);
      if (name.empty() || t.code == 0) continue;
      if (plugin.empty()) {
        plugin = std::string(name);
        first = t.location + " -> " + std::to_string(t.code);
      }
      if (t.process >= 0) AddProcess(job, t.process, &f);
      AddEvidence(&f, t.evidence);
    }
    if (plugin.empty()) return;
    f.title = "A network operation failed inside the network plugin";
    f.message = "The error trail runs through " + plugin + " (" + first +
                "): the failing network operation ran in the plugin's code. The warnings before "
                "it say what failed (often a peer that closed its connection, whose own log "
                "tells why); if the plugin itself is suspect, compare with NCCL's internal "
                "transport (unset NCCL_NET_PLUGIN, or NCCL_NET=IB / NCCL_NET=Socket).";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNetErrorRule() { return std::make_unique<NetErrorRule>(); }

}  // namespace ncclscope::rules_internal
