// shm-failure: /dev/shm segment creation, extension or attach failed.
#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "silent_trail.h"

namespace ncclscope::rules_internal {
namespace {

class ShmFailureRule : public BasicRule {
 public:
  ShmFailureRule()
      : BasicRule("shm-failure", Severity::kError, "Shared memory (/dev/shm) allocation failed",
                  "Give the container a large /dev/shm: on Kubernetes mount a memory-backed "
                  "emptyDir at /dev/shm (`emptyDir: {medium: Memory, sizeLimit: 8Gi}` or more; "
                  "NCCL needs several MiB per peer and channel), or run with `hostIPC: true`; with "
                  "Docker use `--shm-size=8g` or `--ipc=host`. Check `df -h /dev/shm` inside the "
                  "pod. As a last resort NCCL_SHM_DISABLE=1 avoids SHM (traffic then goes over "
                  "P2P or the network).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (hits.empty()) {
      if (auto f = SilentTrailFinding(*this, ctx.job, TrailArea::kShm)) out->push_back(*f);
      return;
    }
    // Creation, extension and fallocate failures are one cause: one finding.
    const KnownMessage* lead = nullptr;
    bool no_space = false;
    for (const MessageHit* h : hits) {
      if (lead == nullptr) lead = h->known;
      if (ContainsNoCase(h->text, "No space left") || ContainsNoCase(h->text, "(28)")) {
        no_space = true;
      }
    }
    Finding f = FindingForEntry(*this, ctx.job, lead, hits);
    if (no_space) {
      f.message += " ENOSPC: /dev/shm is full or too small (containers get 64 MiB by default).";
    }
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeShmFailureRule() { return std::make_unique<ShmFailureRule>(); }

}  // namespace ncclscope::rules_internal
