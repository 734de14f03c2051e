// shm-failure: /dev/shm segment creation, extension or attach failed.
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

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
    auto records = MatchingWarnings(ctx.job, IsShmWarning);
    if (records.empty()) return;
    Finding f = NewFinding(*this);
    bool no_space = false;
    for (const WarnRecord* w : records) {
      AddWarnRecord(ctx.job, *w, &f);
      if (ContainsNoCase(w->message, "No space left") || ContainsNoCase(w->message, "(28)")) {
        no_space = true;
      }
    }
    f.message = std::to_string(TotalCount(records)) + " shared-memory failure(s) on " +
                std::to_string(ProcessCount(records)) + " process(es): \"" +
                records.front()->message + "\"";
    if (no_space) {
      f.message += ". /dev/shm is full or too small (ENOSPC): containers get 64 MiB by default.";
    }
    f.suspect_hosts = f.hosts;
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeShmFailureRule() { return std::make_unique<ShmFailureRule>(); }

}  // namespace ncclscope::rules_internal
