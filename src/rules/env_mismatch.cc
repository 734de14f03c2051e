// env-mismatch: an NCCL_* setting differs between processes of one job.
#include <map>

#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// Settings that legitimately differ per process/host.
bool PerProcessSetting(std::string_view name) {
  return name == "NCCL_HOSTID" || name == "NCCL_DEBUG_FILE" || name == "NCCL_COMM_ID" ||
         name == "CUDA_VISIBLE_DEVICES" || name == "NCCL_LOCAL_RANK";
}

class EnvMismatchRule : public BasicRule {
 public:
  EnvMismatchRule()
      : BasicRule("env-mismatch", Severity::kWarning, "NCCL settings differ between processes",
                  "Set NCCL_* variables identically for every rank: in one place of the "
                  "Kubernetes PodTemplate/JobSet (not per pod), in the Slurm batch script before "
                  "srun (`--export=ALL`), and check /etc/nccl.conf and ~/.nccl.conf on the odd "
                  "nodes. Different values can make ranks pick different algorithms or "
                  "transports, which hangs or fails.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    // name → value → processes
    std::map<std::string, std::map<std::string, std::vector<int>>> settings;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      for (const auto& [name, s] : job.processes[i].env) {
        if (!PerProcessSetting(name)) settings[name][s.value].push_back(static_cast<int>(i));
      }
    }
    for (const auto& [name, values] : settings) {
      if (values.size() < 2) continue;
      Finding f = NewFinding(*this);
      size_t majority = 0;
      std::string majority_value;
      for (const auto& [v, procs] : values) {
        if (procs.size() > majority) {
          majority = procs.size();
          majority_value = v;
        }
      }
      std::vector<std::string> parts;
      for (const auto& [v, procs] : values) {
        std::vector<int> ranks;
        for (int p : procs) {
          AddProcess(job, p, &f);
          ranks.push_back(job.processes[p].global_rank);
          if (v != majority_value) {
            AddSuspectRank(&f, job.processes[p].global_rank);
            AddSuspectHost(&f, HostName(job, p));
          }
        }
        AddEvidence(&f, job.processes[procs.front()].env.at(name).evidence);
        parts.push_back(name + "=" + v + " on " + std::to_string(procs.size()) +
                        " process(es) (ranks " + JoinInts(ranks) + ")");
      }
      f.message = JoinStrings(parts, "; ") + ".";
      out->push_back(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeEnvMismatchRule() { return std::make_unique<EnvMismatchRule>(); }

}  // namespace ncclscope::rules_internal
