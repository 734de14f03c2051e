// nccl-error: NCCL errors surfaced to the framework ("NCCL error in: ...").
#include <map>

#include "ncclscope/rules/knowledge.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

/// What the error means, from the knowledge table (" A system call ... failed ...").
std::string Hint(const std::string& reason) {
  const KnownMessage* k = MatchMessage(reason);
  if (k == nullptr) return "";
  std::string hint = " " + std::string(k->meaning);
  if (k->rule != "nccl-error" && !k->rule.empty()) hint += " (see " + std::string(k->rule) + ")";
  return hint;
}

class NcclErrorRule : public BasicRule {
 public:
  NcclErrorRule()
      : BasicRule("nccl-error", Severity::kError, "NCCL error reported to the framework",
                  "Fix the root cause named by the NCCL WARN lines and other findings of this "
                  "report (they usually precede the error); re-run with NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,NET,ENV if no warning explains it.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::map<std::string, std::vector<const FrameworkRecord*>> by_reason;
    for (const FrameworkRecord& r : job.framework) {
      // nccl-tests' failed CUDA check is no NCCL error: cuda-error explains its CUDA error.
      if (r.kind == FrameworkRecord::Kind::kNcclError && r.exception != kNcclTestsCudaCheck)
        by_reason[r.reason].push_back(&r);
    }
    for (const auto& [reason, records] : by_reason) {
      Finding f = NewFinding(*this);
      std::string where, version;
      for (const FrameworkRecord* r : records) {
        AddRank(&f, r->rank);
        AddEvidence(&f, r->evidence);
        if (where.empty()) where = r->where;
        if (version.empty()) version = r->nccl_version;
      }
      for (const FrameworkRecord& r : job.framework) {
        if (r.kind == FrameworkRecord::Kind::kEvent && r.event == FrameworkKind::kNcclErrorDetail &&
            f.evidence.size() < 3) {
          AddEvidence(&f, r.evidence);
        }
      }
      f.message =
          std::to_string(records.size()) + " framework error(s): NCCL error \"" + reason + "\"";
      if (!where.empty()) f.message += " in " + where;
      if (!version.empty()) f.message += " (NCCL " + version + ")";
      if (!f.ranks.empty()) f.message += " on rank(s) " + JoinInts(f.ranks);
      f.message += "." + Hint(reason);
      out->push_back(std::move(f));
    }
    if (auto f = SilentTrailFinding(*this, job, TrailArea::kNccl)) out->push_back(*f);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNcclErrorRule() { return std::make_unique<NcclErrorRule>(); }

}  // namespace ncclscope::rules_internal
