// net-error: IB verbs errors, OFI/EFA completion errors, memlock limits.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

class NetErrorRule : public BasicRule {
 public:
  NetErrorRule()
      : BasicRule("net-error", Severity::kError, "Network (IB/EFA) runtime error",
                  "IB completion status 12 (retry exceeded) / 5 (flush): the peer died or the "
                  "link is broken; check the peer's own log first, then `ibstat`, cables and "
                  "switch ports (NCCL_IB_TIMEOUT raises the retry timeout). memlock / ibv_reg_mr "
                  "failures: raise the locked-memory limit (`ulimit -l unlimited`; Kubernetes: add "
                  "the `IPC_LOCK` capability; Slurm: PropagateResourceLimits / "
                  "`--propagate=MEMLOCK`). EFA errors (FI_EHOSTUNREACH, RC ...): the EFA security "
                  "group must allow all inbound and outbound traffic to itself, request "
                  "`vpc.amazonaws.com/efa` resources for every pod and set FI_PROVIDER=efa.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    auto records = MatchingWarnings(ctx.job, IsNetRuntimeWarning);
    Finding f = NewFinding(*this);
    uint64_t ofi_errors = 0;
    for (size_t p = 0; p < ctx.job.processes.size(); ++p) {
      for (const OfiNote& n : ctx.job.processes[p].ofi) {
        if (n.kind != OfiKind::kRequestError) continue;
        ++ofi_errors;
        AddProcess(ctx.job, static_cast<int>(p), &f);
        AddEvidence(&f, n.evidence);
      }
    }
    if (records.empty() && ofi_errors == 0) return;
    std::string hint;
    for (const WarnRecord* w : records) {
      AddWarnRecord(ctx.job, *w, &f);
      const std::string& m = w->message;
      if (ContainsNoCase(m, "status=12") || ContainsNoCase(m, "RETRY_EXC") ||
          ContainsNoCase(m, "error 12")) {
        hint = " Completion status 12 = retry exceeded: the peer is gone or unreachable.";
      } else if (ContainsNoCase(m, "memlock") && hint.empty()) {
        hint = " The locked-memory limit (memlock) is too low.";
      }
    }
    std::string first = records.empty() ? std::string("NET/OFI request completed with error")
                                        : records.front()->message;
    f.message = std::to_string(TotalCount(records) + ofi_errors) + " network error(s): \"" + first +
                "\"." + hint;
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNetErrorRule() { return std::make_unique<NetErrorRule>(); }

}  // namespace ncclscope::rules_internal
