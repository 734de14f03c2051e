// ranks-disagree: both ends of a connection run, but they disagree: a connection of the wrong
// kind (another NCCL version, a stale rank of an earlier attempt, a foreign process), messages
// of another size (different settings or collectives), ranks of different jobs at one
// bootstrap root. Names the settings that differ between processes when the log shows them.
#include <map>

#include "known_findings.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

/// NCCL_* settings whose value differs between processes (or is set on some only).
std::vector<std::string> DifferingSettings(const Job& job) {
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, size_t> holders;
  size_t echoing = 0;
  for (const Process& p : job.processes) {
    if (p.env.empty()) continue;
    ++echoing;
    for (const auto& [name, s] : p.env) {
      if (name == "NCCL_HOSTID" || name == "NCCL_DEBUG_FILE" || name == "NCCL_COMM_ID") continue;
      values[name].insert(s.value);
      ++holders[name];
    }
  }
  std::vector<std::string> out;
  for (const auto& [name, vals] : values) {
    if (vals.size() > 1 || holders[name] < echoing) out.push_back(name);
  }
  return out;
}

class RanksDisagreeRule : public BasicRule {
 public:
  RanksDisagreeRule()
      : BasicRule("ranks-disagree", Severity::kError,
                  "The two sides of a connection disagree (versions, settings, stale ranks)",
                  "Run every rank from the same image with the same NCCL and the same NCCL_* "
                  "settings (check each rank's `NCCL version` line, /etc/nccl.conf, "
                  "~/.nccl.conf); make every rank call the same collectives with the same sizes; "
                  "make sure no process of an earlier attempt or another job connects to this "
                  "job's ports (a fresh MASTER_PORT per attempt, no leftover processes).") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    std::vector<const MessageHit*> hits = ctx.messages.OfRule(id());
    if (hits.empty()) return;
    const size_t first = out->size();
    ReportHitsByEntry(*this, ctx.job, hits, out);
    std::vector<std::string> differ = DifferingSettings(ctx.job);
    std::string note;
    if (ctx.job.nccl_versions.size() > 1) {
      note += " The log shows " + std::to_string(ctx.job.nccl_versions.size()) +
              " NCCL versions (see nccl-version-mismatch).";
    }
    if (!differ.empty()) {
      note += " Settings that differ between processes: " + JoinStrings(differ) +
              " (see env-mismatch).";
    }
    for (size_t i = first; i < out->size(); ++i) (*out)[i].message += note;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeRanksDisagreeRule() { return std::make_unique<RanksDisagreeRule>(); }

}  // namespace ncclscope::rules_internal
