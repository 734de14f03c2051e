// watchdog-timeout: PyTorch watchdog collective timeouts, with the ranks that did not time out
// (or fell behind) as suspects.
#include <algorithm>

#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/model/watchdog_table.h"
#include "rule_factories.h"
#include "rule_util.h"

namespace ncclscope::rules_internal {
namespace {

class WatchdogTimeoutRule : public BasicRule {
 public:
  WatchdogTimeoutRule()
      : BasicRule("watchdog-timeout", Severity::kError, "Collective timed out (PyTorch watchdog)",
                  "The ranks that timed out were waiting for the suspect ranks: look at what the "
                  "suspects were doing (their last log lines, stack dumps with `py-spy dump`, the "
                  "flight recorder via TORCH_NCCL_TRACE_BUFFER_SIZE and "
                  "TORCH_NCCL_DUMP_ON_TIMEOUT=1). Typical causes: a rank stuck in data loading or "
                  "a different code path (mismatched collectives), a crashed/OOM-killed pod, or a "
                  "network that stalls. Raise the timeout (init_process_group(timeout=...)) only "
                  "once the cause is known.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    for (const WatchdogGroup& g : BuildWatchdogGroups(job)) {
      if (g.timed_out.empty()) continue;
      Finding f = NewFinding(*this);
      int64_t min_completed = -1;
      for (const WatchdogRow& r : g.rows) {
        if (!r.timed_out) continue;
        AddRank(&f, r.rank);
        if (r.last_completed >= 0 && (min_completed < 0 || r.last_completed < min_completed)) {
          min_completed = r.last_completed;
        }
        if (!r.evidence.empty()) AddEvidence(&f, r.evidence.front());
      }
      f.message = std::to_string(g.timed_out.size()) + " rank(s) (" + RankRanges(g.timed_out) +
                  ") of " +
                  (g.pg_id >= 0 ? "process group " + std::to_string(g.pg_id)
                                : std::string("the process group")) +
                  (g.pg_desc.empty() ? "" : " (" + g.pg_desc + ")") + " timed out";
      if (g.timeout_seq >= 0) f.message += " on SeqNum " + std::to_string(g.timeout_seq);
      if (!g.op_type.empty()) f.message += " " + g.op_type;
      if (g.timeout_ms >= 0) f.message += " after " + std::to_string(g.timeout_ms / 1000) + " s";
      if (min_completed >= 0) {
        f.message += "; last completed work " + std::to_string(min_completed);
      }
      std::vector<std::string> parts;
      for (const WatchdogRow& r : g.rows) {
        if (!r.suspect) continue;
        AddSuspectRank(&f, r.rank);
        AddRank(&f, r.rank);
        // A progress line behind a prefix that hides the rank: say so, never "rank -1".
        std::string part = r.rank >= 0 ? "rank " + std::to_string(r.rank)
                                       : std::string("a rank whose number its line does not show");
        if (r.process >= 0) {
          const Process& p = job.processes[r.process];
          AddSuspectHost(&f, HostName(job, r.process));
          AddHost(&f, HostName(job, r.process));
          part += " (" + HostPid(job, r.process) + ")";
          for (const Evidence& e : r.evidence) AddEvidence(&f, e);
          AddEvidence(&f, p.last_line);
          part += " " + r.why;
          if (!p.last_line.text.empty()) {
            part += "; its last NCCL line (" + std::string(job.SourceName(p.last_line.source)) +
                    ":" + std::to_string(p.last_line.line) + "): \"" + p.last_line.text + "\"";
          }
        } else {
          part += " " + r.why;
        }
        if (parts.size() < 4) parts.push_back(part);
      }
      if (!parts.empty()) {
        f.message += ". " + JoinStrings(parts, ". ");
        if (f.suspect_ranks.size() > parts.size()) {
          f.message += ". And " + std::to_string(f.suspect_ranks.size() - parts.size()) +
                       " more suspect rank(s)";
        }
        f.message += ". The ranks that timed out were waiting for the suspect(s)";
      }
      f.message += ".";
      out->push_back(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeWatchdogTimeoutRule() { return std::make_unique<WatchdogTimeoutRule>(); }

}  // namespace ncclscope::rules_internal
