// ib-error: InfiniBand/RoCE problems from what the log states: completion errors (status
// decoded), asynchronous events, queue pairs that cannot connect (GID index, RoCE), memory
// registration failures, verbs calls that fail, and "No device found" where the job expected
// InfiniBand (NCCL_IB_HCA set, NCCL_NET=IB, other processes have HCAs).
#include <algorithm>

#include "known_findings.h"
#include "net_expectation.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

/// Why this process was expected to find an HCA, or "" when nothing says so.
std::string IbExpectedBecause(const Job& job, const Process& p) {
  for (const char* name : {"NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_TC", "NCCL_IB_SL"}) {
    if (const Setting* s = FindEnv(p, name)) return std::string(name) + "=" + s->value + " is set";
  }
  if (const Setting* s = FindEnv(p, "NCCL_NET"); s != nullptr && ContainsNoCase(s->value, "IB")) {
    return "NCCL_NET=" + s->value + " is set";
  }
  if (const Setting* s = FindEnv(p, "NCCL_IB_DISABLE"); s != nullptr && IsFalsy(s->value)) {
    return "NCCL_IB_DISABLE=" + s->value + " is set explicitly";
  }
  for (const Process& q : job.processes) {
    if (!q.ib_devices.empty()) return "other processes of the job use " + q.ib_devices.front();
  }
  for (const PluginNote& n : p.plugins) {
    if (n.kind == "NET" && n.action == PluginAction::kLoaded &&
        IsRdmaPluginName(n.name)) {
      return "the RDMA network plugin " + n.name + " is loaded";
    }
  }
  for (const std::string& dev : p.socket_devices) {
    if (IsIpoibName(dev)) return "NCCL's sockets run over the IPoIB interface " + dev;
  }
  return "";
}

class IbErrorRule : public BasicRule {
 public:
  IbErrorRule()
      : BasicRule("ib-error", Severity::kError, "InfiniBand/RoCE error",
                  "Check the peer's log first (it may have died). Then the RDMA path: "
                  "`ibstat`/`ibv_devinfo` (ports Active) on both nodes, cables and switch ports, "
                  "ib_write_bw between the hosts; RoCE: a RoCE v2 GID with a routable address "
                  "(NCCL_IB_GID_INDEX), lossless fabric settings or a larger NCCL_IB_TIMEOUT; "
                  "memory registration: memlock unlimited (IPC_LOCK), nvidia-peermem or "
                  "DMA-BUF; containers: expose /dev/infiniband (RDMA device plugin).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (!hits.empty()) ReportHitsByEntry(*this, job, hits, out);
    if (auto f = SilentTrailFinding(*this, job, TrailArea::kInfiniBand)) out->push_back(*f);
    NoDeviceFinding(job, out);
  }

 private:
  void NoDeviceFinding(const Job& job, std::vector<Finding>* out) const {
    const KnownMessage* known = FindKnownMessage("ib-no-device");
    Finding f = NewFinding(*this);
    std::vector<std::string> reasons;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const Process& p = job.processes[i];
      if (!p.ib_no_device) continue;
      if (FindEnvOn(p, "NCCL_IB_DISABLE") != nullptr) {
        continue;  // IB switched off on purpose: env-override and socket-fallback say so.
      }
      std::string why = IbExpectedBecause(job, p);
      if (why.empty()) continue;
      AddProcess(job, static_cast<int>(i), &f);
      AddEvidence(&f, p.ib_no_device_evidence);
      if (std::find(reasons.begin(), reasons.end(), why) == reasons.end()) reasons.push_back(why);
    }
    if (reasons.empty() || known == nullptr) return;
    f.severity = Severity::kError;
    f.title = "NCCL found no InfiniBand/RoCE device although the job expects one";
    f.message = std::string(known->meaning) + " The job expected InfiniBand: " +
                JoinStrings(reasons, "; ") + ". " + CausesSentence(*known);
    f.fix = std::string(known->fix);
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeIbErrorRule() { return std::make_unique<IbErrorRule>(); }

}  // namespace ncclscope::rules_internal
