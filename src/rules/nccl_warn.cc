// nccl-warn: every NCCL WARN no specific rule explains, so none is ever silently dropped. When
// the knowledge table knows the message (but no rule of its own reports it), the finding says
// what it means and how to fix it.
#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class NcclWarnRule : public BasicRule {
 public:
  NcclWarnRule()
      : BasicRule("nccl-warn", Severity::kWarning, "NCCL warning",
                  "Read the warning and the lines before it; run with NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,NET,ENV for context. If the job still worked the "
                  "warning may be harmless probing.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    for (const MessageHit* h : ctx.messages.OfRule(id())) {
      if (h->known != nullptr) {
        out->push_back(FindingForEntry(*this, ctx.job, h->known, {h}));
        continue;
      }
      if (h->record == nullptr) continue;
      const WarnRecord& w = *h->record;
      Finding f = NewFinding(*this);
      AddWarnRecord(ctx.job, w, &f);
      f.message = "NCCL WARN";
      if (!w.location.empty()) f.message += " at " + w.location;
      f.message += " on " + std::to_string(w.processes.size()) + " process(es), " +
                   std::to_string(std::max<uint64_t>(w.count, 1)) + " time(s): \"" + w.message +
                   "\"";
      out->push_back(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNcclWarnRule() { return std::make_unique<NcclWarnRule>(); }

}  // namespace ncclscope::rules_internal
