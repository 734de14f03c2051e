// init-incomplete: ranks that started a communicator and never completed it, and ranks of a
// communicator missing from the logs.
#include <algorithm>

#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/model/watchdog_table.h"
#include "ncclscope/rules/error_trail.h"
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

class InitIncompleteRule : public BasicRule {
 public:
  InitIncompleteRule()
      : BasicRule("init-incomplete", Severity::kError,
                  "Communicator initialization did not complete",
                  "Look at the last NCCL line of each stuck rank and at the ranks that never "
                  "logged: a rank that is missing or late blocks everyone's init (it crashed, was "
                  "not scheduled, or cannot reach the others: check NCCL_SOCKET_IFNAME and "
                  "firewalls). Give the analyzer the logs of all pods/nodes (e.g. `kubectl logs "
                  "--prefix -l job-name=...`, or every Slurm task's output) to see all ranks.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    Finding stuck = NewFinding(*this);
    std::vector<std::string> stuck_parts;
    Finding missing = NewFinding(*this);
    missing.severity = Severity::kWarning;
    missing.title = "Ranks of a communicator are missing from the logs";
    std::vector<std::string> missing_parts;
    std::set<int> quoted;
    bool partly_completed = false;  // a stuck communicator where other ranks completed
    for (int ci = 0; ci < static_cast<int>(job.comms.size()); ++ci) {
      const Communicator& c = job.comms[ci];
      std::vector<int> not_done, absent;
      for (const auto& [r, cr] : c.ranks) {
        if (cr.started && !cr.completed) not_done.push_back(r);
      }
      for (int r = 0; r < c.nranks && c.ranks.size() < static_cast<size_t>(c.nranks); ++r) {
        if (c.ranks.count(r) == 0) absent.push_back(r);
      }
      if (!not_done.empty()) {
        AddComm(&stuck, c.id);
        // The stuck ranks wait for the absent ones when the communicator is top-level, no rank
        // completed and some ranks never logged; otherwise the stuck ranks are the suspects.
        bool any_completed = false;
        for (const auto& [r, cr] : c.ranks) any_completed = any_completed || cr.completed;
        partly_completed = partly_completed || any_completed;
        const bool blame_absent = !absent.empty() && c.parent_id.empty() && !any_completed;
        std::vector<int> global_stuck;
        std::vector<std::string> quotes;
        for (int r : not_done) {
          const CommRank& cr = c.ranks.at(r);
          int g = GlobalRank(job, ci, r);
          global_stuck.push_back(g);
          AddRank(&stuck, g);
          AddHost(&stuck, HostName(job, cr.process));
          if (!blame_absent) {
            AddSuspectRank(&stuck, g);
            AddSuspectHost(&stuck, HostName(job, cr.process));
          }
          AddEvidence(&stuck, cr.start_evidence);
          if (cr.process < 0 || !quoted.insert(cr.process).second) continue;
          const Evidence& last = job.processes[cr.process].last_line;
          AddEvidence(&stuck, last);
          if (!last.text.empty() && quotes.size() < 4) {
            quotes.push_back("rank " + std::to_string(g) + " (" + HostPid(job, cr.process) + ") " +
                             std::string(job.SourceName(last.source)) + ":" +
                             std::to_string(last.line) + ": \"" + last.text + "\"");
          }
        }
        if (blame_absent) {
          for (int r : absent) AddSuspectRank(&stuck, r);
        }
        std::string part = "comm " + c.id + ": rank(s) " + RankRanges(global_stuck) + " of " +
                           std::to_string(c.nranks) + " reached Init START but not Init COMPLETE";
        if (!absent.empty()) {
          part += "; rank(s) " + RankRanges(absent) +
                  " never logged for it (absent from the inputs)" +
                  (blame_absent ? ": the others were waiting for them" : "");
        } else if (not_done.size() < c.ranks.size()) {
          part += " (the other ranks completed: the stuck ones are the suspects)";
        }
        if (!quotes.empty()) {
          part += ". The last NCCL line of " + JoinStrings(quotes, "; of ");
          if (not_done.size() > quotes.size()) part += "; ...";
        } else {
          part += " (their last NCCL line is not known)";
        }
        stuck_parts.push_back(part);
      }
      if (c.nranks > 0 && static_cast<int>(c.ranks.size()) < c.nranks) {
        AddComm(&missing, c.id);
        if (c.parent_id.empty()) {
          for (int r : absent) AddSuspectRank(&missing, r);
        }
        if (!c.ranks.empty()) AddEvidence(&missing, c.ranks.begin()->second.start_evidence);
        std::string list =
            absent.size() > 16
                ? JoinInts(std::vector<int>(absent.begin(), absent.begin() + 16)) + ",..."
                : JoinInts(absent);
        missing_parts.push_back("comm " + c.id + " has " + std::to_string(c.nranks) +
                                " ranks, the logs show " + std::to_string(c.ranks.size()) +
                                " (missing " + list + ")");
      }
    }
    if (!stuck_parts.empty()) {
      // Without any failure in the log (no error, no warning, no signal) a log that ends during
      // init is as likely an excerpt cut there as a hang: not proof that the job is broken.
      bool failure_seen = !job.framework.empty();
      for (const WarnRecord& w : job.warnings) failure_seen = failure_seen || !IsBenignWarning(w);
      // Error trails count unless they only follow harmless probing warnings (libibverbs
      // missing: NCCL unwinds the probe and moves on), or are that probe's own unwinding in IB
      // code where the process found no IB device (2.20+ says "Failed to open libibverbs" as
      // INFO, then `net_ib.cc:852 -> 3`).
      const bool real_trail =
          std::any_of(job.error_trails.begin(), job.error_trails.end(), [&](const auto& t) {
            const bool probe = t.process >= 0 &&
                               static_cast<size_t>(t.process) < job.processes.size() &&
                               job.processes[t.process].ib_no_device &&
                               AreaOfTrail(t.location, t.code) == TrailArea::kInfiniBand;
            return !probe;
          });
      if (real_trail && job.warnings.empty()) failure_seen = true;
      // Other ranks of a stuck communicator completed: these ranks fell behind, not the log.
      failure_seen = failure_seen || partly_completed;
      if (!failure_seen) {
        stuck.severity = Severity::kWarning;
        stuck.title = "Communicator initialization did not complete in this log";
      }
      size_t shown = std::min<size_t>(stuck_parts.size(), 4);
      stuck.message =
          JoinStrings(std::vector<std::string>(stuck_parts.begin(), stuck_parts.begin() + shown),
                      "; ") +
          (stuck_parts.size() > shown
               ? "; and " + std::to_string(stuck_parts.size() - shown) + " more communicator(s)"
               : "") +
          ".";
      if (!failure_seen) {
        stuck.message +=
            " No error, warning or signal follows: the log may be an excerpt that ends during "
            "init; if the job stopped here, it hung in init.";
      }
      out->push_back(std::move(stuck));
    }
    if (!missing_parts.empty()) {
      size_t shown = std::min<size_t>(missing_parts.size(), 3);
      missing.message =
          JoinStrings(
              std::vector<std::string>(missing_parts.begin(), missing_parts.begin() + shown),
              "; ") +
          (missing_parts.size() > shown
               ? "; and " + std::to_string(missing_parts.size() - shown) + " more"
               : "") +
          ". Partial logs? If all inputs were given, the missing ranks never reached NCCL init.";
      out->push_back(std::move(missing));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeInitIncompleteRule() { return std::make_unique<InitIncompleteRule>(); }

}  // namespace ncclscope::rules_internal
