// nvls-failure and collnet-failure: NVLink SHARP / CollNet (SHARP) setup failures.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

/// Reports every warning matched by `pred` as one finding.
class WarnGroupRule : public BasicRule {
 public:
  using Pred = bool (*)(const WarnRecord&);
  WarnGroupRule(std::string_view id, std::string_view title, std::string_view fix,
                std::string_view what, Pred pred)
      : BasicRule(id, Severity::kWarning, title, fix), what_(what), pred_(pred) {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    auto records = MatchingWarnings(ctx.job, pred_);
    if (records.empty()) return;
    Finding f = NewFinding(*this);
    for (const WarnRecord* w : records) AddWarnRecord(ctx.job, *w, &f);
    f.message = std::to_string(TotalCount(records)) + " " + std::string(what_) + " warning(s) on " +
                std::to_string(ProcessCount(records)) + " process(es): \"" +
                records.front()->message + "\"";
    out->push_back(std::move(f));
  }

 private:
  std::string_view what_;
  Pred pred_;
};

}  // namespace

std::unique_ptr<Rule> MakeNvlsFailureRule() {
  return std::make_unique<WarnGroupRule>(
      "nvls-failure", "NVLink SHARP (NVLS) setup failed",
      "NVLS needs NVSwitch systems with nvidia-fabricmanager running, CUDA driver multicast "
      "support and enough GPU memory; in containers the IMEX/fabric devices must be visible. If "
      "NVLS is not needed set NCCL_NVLS_ENABLE=0 so NCCL does not try it.",
      "NVLS", &IsNvlsWarning);
}

std::unique_ptr<Rule> MakeCollNetFailureRule() {
  return std::make_unique<WarnGroupRule>(
      "collnet-failure", "CollNet (SHARP) setup failed",
      "Check the SHARP plugin (libnccl-net.so / nccl-rdma-sharp-plugins) and the SHARP daemon "
      "(sharpd/sharp_am) on the fabric; if in-network reduction is not needed set "
      "NCCL_COLLNET_ENABLE=0.",
      "CollNet", &IsCollNetWarning);
}

}  // namespace ncclscope::rules_internal
