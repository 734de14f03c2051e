// cuda-error: CUDA failures inside NCCL, one finding per cause (out of memory, driver too old,
// device unavailable, fabric not initialised, other CUDA errors). A CUDA failure in a
// transport's setup (P2P, SHM, NVLS) is its transport rule's message; it is named here too, as
// a CUDA error whose transport that rule reports.
#include <string>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

/// Knowledge entries of CUDA failures inside one transport, and the rule that reports them.
struct TransportCudaEntry {
  std::string_view entry;
  std::string_view transport;
  std::string_view rule;
};
constexpr TransportCudaEntry kTransportCudaEntries[] = {
    {"p2p-cuda-failure", "P2P", "p2p-disabled"},
    {"p2p-peer-access-unsupported", "P2P", "p2p-disabled"},
    {"shm-cuda-failure", "SHM", "shm-failure"},
    {"nvls-cuda-failure", "NVLS", "nvls-failure"},
};

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
    const size_t first = out->size();
    if (!hits.empty()) ReportHitsByEntry(*this, ctx.job, hits, out);
    for (const TransportCudaEntry& t : kTransportCudaEntries) ReportTransport(ctx, t, out);
    for (size_t i = first; i < out->size(); ++i) (*out)[i].suspect_hosts = (*out)[i].hosts;
    if (out->size() == first) {
      if (auto f = SilentTrailFinding(*this, ctx.job, TrailArea::kCuda)) out->push_back(*f);
    }
  }

 private:
  /// The CUDA failures of one transport's setup, as a generic CUDA failure naming the transport.
  void ReportTransport(const RuleContext& ctx, const TransportCudaEntry& t,
                       std::vector<Finding>* out) const {
    std::vector<const MessageHit*> hits;
    for (const MessageHit* h : ctx.messages.OfRule(t.rule)) {
      if (h->known != nullptr && h->known->id == t.entry) hits.push_back(h);
    }
    if (hits.empty()) return;
    // No entry: the transport's entry holds the causes and the fix; this names the CUDA error.
    Finding f = FindingForEntry(*this, ctx.job, nullptr, hits);
    f.message = "A CUDA call of the " + std::string(t.transport) + " transport's setup failed. " +
                f.message + " " + std::string(t.rule) + " names the likely causes and the fix.";
    f.fix = "Follow the fix of the " + std::string(t.rule) + " finding for the same line.";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeCudaErrorRule() { return std::make_unique<CudaErrorRule>(); }

}  // namespace ncclscope::rules_internal
