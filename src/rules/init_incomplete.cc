// init-incomplete: ranks that started a communicator and never completed it, and ranks of a
// communicator missing from the logs.
#include "rule_factories.h"
#include "rule_util.h"

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
    for (const Communicator& c : job.comms) {
      std::vector<int> not_done;
      for (const auto& [r, cr] : c.ranks) {
        if (!cr.started || cr.completed) continue;
        not_done.push_back(r);
        int g = GlobalRank(job, static_cast<int>(&c - job.comms.data()), r);
        AddRank(&stuck, g);
        AddSuspectRank(&stuck, g);
        AddSuspectHost(&stuck, HostName(job, cr.process));
        AddHost(&stuck, HostName(job, cr.process));
        AddEvidence(&stuck, cr.start_evidence);
        if (cr.process >= 0 && quoted.insert(cr.process).second) {
          AddEvidence(&stuck, job.processes[cr.process].last_line);
        }
      }
      if (!not_done.empty()) {
        AddComm(&stuck, c.id);
        std::string part = "comm " + c.id + ": ranks " + JoinInts(not_done) + " of " +
                           std::to_string(c.nranks) + " started init but never completed";
        int p = c.ranks.at(not_done.front()).process;
        if (p >= 0 && !job.processes[p].last_line.text.empty()) {
          part += " (last NCCL line of rank " + std::to_string(not_done.front()) + ": \"" +
                  job.processes[p].last_line.text + "\")";
        }
        stuck_parts.push_back(part);
      }
      if (c.nranks > 0 && static_cast<int>(c.ranks.size()) < c.nranks) {
        std::vector<int> absent;
        for (int r = 0; r < c.nranks; ++r) {
          if (c.ranks.count(r) == 0) absent.push_back(r);
        }
        AddComm(&missing, c.id);
        for (int r : absent) AddSuspectRank(&missing, c.parent_id.empty() ? r : -1);
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
      size_t shown = std::min<size_t>(stuck_parts.size(), 4);
      stuck.message =
          JoinStrings(std::vector<std::string>(stuck_parts.begin(), stuck_parts.begin() + shown),
                      "; ") +
          (stuck_parts.size() > shown
               ? "; and " + std::to_string(stuck_parts.size() - shown) + " more communicator(s)"
               : "") +
          ".";
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
