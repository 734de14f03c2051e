// nvls-failure and collnet-failure: NVLink SHARP / CollNet (SHARP) setup failures.
#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// Reports the messages the knowledge table (or the warning category) gives this rule, one
/// finding per cause.
class MessageRule : public BasicRule {
 public:
  MessageRule(std::string_view id, Severity severity, std::string_view title,
              std::string_view fix)
      : BasicRule(id, severity, title, fix) {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (!hits.empty()) ReportHitsByEntry(*this, ctx.job, hits, out);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNvlsFailureRule() {
  return std::make_unique<MessageRule>(
      "nvls-failure", Severity::kWarning, "NVLink SHARP (NVLS) setup failed",
      "NVLS needs NVSwitch systems with nvidia-fabricmanager running, CUDA driver multicast "
      "support and enough GPU memory; in containers the IMEX/fabric devices must be visible. If "
      "NVLS is not needed set NCCL_NVLS_ENABLE=0 so NCCL does not try it.");
}

std::unique_ptr<Rule> MakeCollNetFailureRule() {
  return std::make_unique<MessageRule>(
      "collnet-failure", Severity::kWarning, "CollNet (SHARP) setup failed",
      "Check the SHARP plugin (libnccl-net.so / nccl-rdma-sharp-plugins) and the SHARP daemon "
      "(sharpd/sharp_am) on the fabric; if in-network reduction is not needed set "
      "NCCL_COLLNET_ENABLE=0.");
}

}  // namespace ncclscope::rules_internal
