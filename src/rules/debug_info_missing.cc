// debug-info-missing: the input has no NCCL INFO lines, so nothing can be analysed.
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class DebugInfoMissingRule : public BasicRule {
 public:
  DebugInfoMissingRule()
      : BasicRule("debug-info-missing", Severity::kWarning, "No NCCL INFO lines in the input",
                  "Run the job with `NCCL_DEBUG=INFO` (and `NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV` to "
                  "see the transport paths) in every rank's environment: Kubernetes: `env` of the "
                  "container spec; Slurm: `export NCCL_DEBUG=INFO` before srun. Then pass the "
                  "logs of all pods/tasks (e.g. `kubectl logs --prefix`).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    // INFO lines counted as read (also those the model keeps nothing of: proxy chatter, a
    // "[Service thread] Connection closed" excerpt); error trails (`init.cc:1402 -> 6`) and
    // notices are INFO lines too (summaries written before info_lines was counted have 0).
    bool info_seen = job.stats.info_lines > 0 || !job.comms.empty() || !job.links.empty() ||
                     !job.error_trails.empty() || !job.notices.empty();
    for (const Process& p : job.processes) {
      info_seen = info_seen || !p.env.empty() || !p.bootstrap_if.empty() || !p.network.empty() ||
                  !p.plugins.empty();
    }
    if (job.stats.nccl_lines > 0 && info_seen) return;
    Finding f = NewFinding(*this);
    if (job.stats.nccl_lines == 0) {
      f.message = "The input (" + std::to_string(job.stats.lines) +
                  " lines) contains no NCCL log lines at all.";
    } else {
      f.message = "The input has " + std::to_string(job.stats.nccl_lines) +
                  " NCCL line(s) but only version/WARN lines: NCCL_DEBUG is below INFO.";
      for (const Process& p : job.processes) AddEvidence(&f, p.first_line);
    }
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeDebugInfoMissingRule() {
  return std::make_unique<DebugInfoMissingRule>();
}

}  // namespace ncclscope::rules_internal
