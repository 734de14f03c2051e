// duplicate-gpu: two ranks of one communicator on the same GPU (same host and busId).
#include <map>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class DuplicateGpuRule : public BasicRule {
 public:
  DuplicateGpuRule()
      : BasicRule("duplicate-gpu", Severity::kError, "Two ranks of one communicator share a GPU",
                  "Give each rank its own GPU: call torch.cuda.set_device(local_rank) before "
                  "init_process_group, use LOCAL_RANK (not RANK) as the device index, and do not "
                  "override CUDA_VISIBLE_DEVICES per rank inconsistently. Kubernetes: request "
                  "`nvidia.com/gpu` per pod matching --nproc_per_node; Slurm: "
                  "`--gpus-per-task=1` or `--gpu-bind=closest` with `--ntasks-per-node` equal "
                  "to the GPUs per node. NCCL fails with \"Duplicate GPU detected\".") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    bool found = false;
    for (size_t ci = 0; ci < job.comms.size(); ++ci) {
      const Communicator& c = job.comms[ci];
      std::map<std::pair<std::string, std::string>, std::vector<int>> gpus;
      for (const auto& [r, cr] : c.ranks) {
        if (cr.bus_id.empty() || cr.process < 0) continue;
        const Process& p = job.processes[cr.process];
        // Lines without a host (a paste that kept only `[0] NCCL INFO`) cannot tell two ranks
        // on one machine from ranks on two machines with the same GPU slot.
        if (p.headless && p.hostname.starts_with('?')) continue;
        std::string host = p.host >= 0 ? "#" + std::to_string(p.host) : p.hostname;
        gpus[{host, cr.bus_id}].push_back(r);
      }
      for (const auto& [key, ranks] : gpus) {
        if (ranks.size() < 2) continue;
        Finding f = NewFinding(*this);
        AddComm(&f, c.id);
        for (int r : ranks) {
          int g = GlobalRank(job, static_cast<int>(ci), r);
          AddRank(&f, g);
          AddSuspectRank(&f, g);
          const CommRank& cr = c.ranks.at(r);
          AddHost(&f, HostName(job, cr.process));
          AddEvidence(&f, cr.start_evidence);
        }
        f.message = "comm " + c.id + ": ranks " + JoinInts(ranks) + " all use the GPU with busId " +
                    key.second + " on host " + f.hosts.front() + ".";
        out->push_back(std::move(f));
        found = true;
      }
    }
    // NCCL's own "Duplicate GPU detected" when the init lines do not show it (an excerpt).
    if (!found) {
      std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
      if (!hits.empty()) ReportHitsByEntry(*this, job, hits, out);
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeDuplicateGpuRule() { return std::make_unique<DuplicateGpuRule>(); }

}  // namespace ncclscope::rules_internal
