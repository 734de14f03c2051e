// nccl-version-mismatch: processes of one job report different NCCL versions.
#include <map>

#include "ncclscope/model/rank_ranges.h"
#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class NcclVersionMismatchRule : public BasicRule {
 public:
  NcclVersionMismatchRule()
      : BasicRule("nccl-version-mismatch", Severity::kError,
                  "Processes use different NCCL versions",
                  "Run every rank from the same container image (pin the image digest, not a "
                  "moving tag) and the same PyTorch/NCCL build; check for a stray libnccl on "
                  "LD_LIBRARY_PATH or a pip `nvidia-nccl-cu*` wheel that differs between nodes. "
                  "Mixed NCCL versions can hang or fail at init.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    std::map<std::string, std::vector<int>> by_version;
    for (size_t i = 0; i < job.processes.size(); ++i) {
      const std::string& v = job.processes[i].nccl_version;
      if (!v.empty()) by_version[v].push_back(static_cast<int>(i));
    }
    if (by_version.size() < 2) {
      // NCCL's own mismatch messages, when the version lines are not all in the log.
      std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
      if (!hits.empty()) ReportHitsByEntry(*this, job, hits, out);
      return;
    }
    Finding f = NewFinding(*this);
    size_t majority = 0;
    std::string majority_version;
    for (const auto& [v, procs] : by_version) {
      if (procs.size() > majority) {
        majority = procs.size();
        majority_version = v;
      }
    }
    std::vector<std::string> parts;
    for (const auto& [v, procs] : by_version) {
      std::vector<int> ranks;
      std::vector<std::string> hosts;
      for (int p : procs) {
        AddProcess(job, p, &f);
        if (job.processes[p].global_rank >= 0) ranks.push_back(job.processes[p].global_rank);
        if (v != majority_version) {
          AddSuspectRank(&f, job.processes[p].global_rank);
          AddSuspectHost(&f, HostName(job, p));
          AddEvidence(&f, job.processes[p].first_line);
          if (hosts.size() < 3) hosts.push_back(ProcessLabel(job, p));
        }
      }
      std::string part = v + " on " + std::to_string(procs.size()) + " process(es)";
      if (!ranks.empty()) part += " (ranks " + RankRanges(ranks) + ")";
      if (!hosts.empty()) part += " <- suspect(s): " + JoinStrings(hosts, ", ");
      parts.push_back(part);
      AddEvidence(&f, job.processes[procs.front()].first_line);
    }
    f.message = "NCCL versions differ: " + JoinStrings(parts, ", ") + "; the majority runs " +
                majority_version + ".";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeNcclVersionMismatchRule() {
  return std::make_unique<NcclVersionMismatchRule>();
}

}  // namespace ncclscope::rules_internal
