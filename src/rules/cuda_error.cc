// cuda-error: "Cuda failure ..." warnings, with hints for the well-known causes.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

class CudaErrorRule : public BasicRule {
 public:
  CudaErrorRule()
      : BasicRule("cuda-error", Severity::kError, "CUDA call failed inside NCCL",
                  "Read the CUDA error text. \"system not yet initialized\" on NVSwitch systems "
                  "(HGX A100/H100/H200, p4d/p5) means nvidia-fabricmanager is not running: start "
                  "it (`systemctl enable --now nvidia-fabricmanager`; on EKS use the GPU-optimized "
                  "AMI or the GPU operator, which run it). \"peer access is not supported\" means "
                  "GPU peer-to-peer does not work between these GPUs (VMs without P2P "
                  "passthrough, ACS/IOMMU enabled): fix the platform or set NCCL_P2P_DISABLE=1. "
                  "\"out of memory\": lower the framework's memory use or NCCL_BUFFSIZE.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    auto records = MatchingWarnings(ctx.job, IsCudaWarning);
    if (records.empty()) return;
    Finding f = NewFinding(*this);
    std::string hint;
    for (const WarnRecord* w : records) {
      AddWarnRecord(ctx.job, *w, &f);
      if (ContainsNoCase(w->message, "system not yet initialized")) {
        hint =
            " The GPUs' NVSwitch fabric is not initialised: nvidia-fabricmanager is not "
            "running.";
      } else if (ContainsNoCase(w->message, "peer access") && hint.empty()) {
        hint =
            " GPU peer access is not available between these GPUs (virtualisation, "
            "ACS/IOMMU).";
      } else if (ContainsNoCase(w->message, "out of memory") && hint.empty()) {
        hint = " The GPU ran out of memory.";
      }
    }
    f.message = std::to_string(TotalCount(records)) + " CUDA failure(s) on " +
                std::to_string(ProcessCount(records)) + " process(es): \"" +
                records.front()->message + "\"." + hint;
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeCudaErrorRule() { return std::make_unique<CudaErrorRule>(); }

}  // namespace ncclscope::rules_internal
