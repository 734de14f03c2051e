// watchdog-timeout: PyTorch watchdog collective timeouts, with the ranks that did not time out
// (or fell behind) as suspects.
#include <algorithm>
#include <map>

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
    std::map<int, std::vector<const TorchRankState*>> by_pg;
    for (const TorchRankState& s : job.torch_ranks) by_pg[s.pg_id].push_back(&s);
    for (const auto& [pg, states] : by_pg) {
      std::vector<const TorchRankState*> timed;
      for (const TorchRankState* s : states) {
        if (s->timed_out) timed.push_back(s);
      }
      if (timed.empty()) continue;
      Finding f = NewFinding(*this);
      int64_t seq = -1;
      std::string op;
      int64_t timeout_ms = -1, min_completed = -1;
      std::set<int> timed_ranks;
      for (const TorchRankState* s : timed) {
        timed_ranks.insert(s->rank);
        AddRank(&f, s->rank);
        seq = std::max(seq, s->timeout_seq);
        if (op.empty()) op = s->op_type;
        if (timeout_ms < 0) timeout_ms = s->timeout_ms;
        if (s->last_completed >= 0 && (min_completed < 0 || s->last_completed < min_completed)) {
          min_completed = s->last_completed;
        }
        if (!s->evidence.empty()) AddEvidence(&f, s->evidence.front());
      }
      // Suspects: ranks of the group that did not time out or that never enqueued the op.
      for (const TorchRankState* s : states) {
        bool behind = seq >= 0 && s->last_enqueued >= 0 && s->last_enqueued < seq;
        if (!s->timed_out || behind) {
          AddSuspectRank(&f, s->rank);
          AddRank(&f, s->rank);
          for (const Evidence& e : s->evidence) AddEvidence(&f, e);
        }
      }
      // The default group spans the world: ranks with no watchdog report at all are suspects.
      if (pg <= 0) {
        int world = WorldSize(job);
        for (int r = 0; r < world; ++r) {
          bool seen = false;
          for (const TorchRankState* s : states) seen = seen || s->rank == r;
          if (!seen) AddSuspectRank(&f, r);
        }
      }
      for (int r : f.suspect_ranks) {
        for (size_t i = 0; i < job.processes.size(); ++i) {
          if (job.processes[i].global_rank == r) {
            AddSuspectHost(&f, HostName(job, static_cast<int>(i)));
            AddEvidence(&f, job.processes[i].last_framework_line);
          }
        }
      }
      std::string desc =
          states.front()->pg_desc.empty() ? "" : " (" + states.front()->pg_desc + ")";
      f.message =
          std::to_string(timed.size()) + " rank(s) (" +
          JoinInts(std::vector<int>(timed_ranks.begin(), timed_ranks.end())) + ") of " +
          (pg >= 0 ? "process group " + std::to_string(pg) : std::string("the process group")) +
          desc + " timed out";
      if (seq >= 0) f.message += " on SeqNum " + std::to_string(seq);
      if (!op.empty()) f.message += " " + op;
      if (timeout_ms >= 0) f.message += " after " + std::to_string(timeout_ms / 1000) + " s";
      if (min_completed >= 0) {
        f.message += "; last completed work " + std::to_string(min_completed);
      }
      if (!f.suspect_ranks.empty()) {
        f.message += ". Suspect rank(s) " + JoinInts(f.suspect_ranks) +
                     ": they did not time out or never enqueued that collective, so the others "
                     "were waiting for them";
      }
      f.message += ".";
      out->push_back(std::move(f));
    }
  }

 private:
  /// Ranks of the first top-level communicator (the world), or the largest seen.
  static int WorldSize(const Job& job) {
    int n = 0;
    for (const Communicator& c : job.comms) {
      if (c.parent_id.empty()) n = std::max(n, c.nranks);
    }
    return n;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeWatchdogTimeoutRule() { return std::make_unique<WatchdogTimeoutRule>(); }

}  // namespace ncclscope::rules_internal
