// cuda-error: CUDA failures inside NCCL, one finding per cause (out of memory, driver too old,
// device unavailable, fabric not initialised, other CUDA errors).
#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

class CudaErrorRule : public BasicRule {
 public:
  CudaErrorRule()
      : BasicRule("cuda-error", Severity::kError, "CUDA call failed inside NCCL",
                  "Read the CUDA error text. \"out of memory\": lower the framework's memory use "
                  "or NCCL_BUFFSIZE. \"driver version is insufficient\": upgrade the driver or "
                  "use an image for its CUDA. \"busy or unavailable\": one process per GPU, or "
                  "DEFAULT compute mode. \"system not yet initialized\" on NVSwitch systems: "
                  "start nvidia-fabricmanager.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (hits.empty()) {
      if (auto f = SilentTrailFinding(*this, ctx.job, TrailArea::kCuda)) out->push_back(*f);
      return;
    }
    const size_t first = out->size();
    ReportHitsByEntry(*this, ctx.job, hits, out);
    for (size_t i = first; i < out->size(); ++i) (*out)[i].suspect_hosts = (*out)[i].hosts;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeCudaErrorRule() { return std::make_unique<CudaErrorRule>(); }

}  // namespace ncclscope::rules_internal
