// hang-suspected: communicators came up without errors, then the job was killed before it
// finished (no Destroy, no error, a termination signal).
#include "rule_factories.h"
#include "rule_util.h"
#include "warn_matchers.h"

namespace ncclscope::rules_internal {
namespace {

class HangSuspectedRule : public BasicRule {
 public:
  HangSuspectedRule()
      : BasicRule("hang-suspected", Severity::kWarning,
                  "Job was killed while NCCL was up: hang suspected",
                  "Find where the ranks stopped: `py-spy dump --pid <pid>` on each rank while it "
                  "hangs, PyTorch flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE, "
                  "TORCH_NCCL_DUMP_ON_TIMEOUT=1), a shorter collective timeout "
                  "(init_process_group(timeout=...)) so the watchdog names the collective, and "
                  "NCCL_DEBUG_SUBSYS=INIT,COLL to see the last collectives. Settings changed for "
                  "this run (e.g. NCCL_P2P_USE_CUDA_MEMCPY) are the first suspects.") {}

  void Check(const RuleContext& ctx, std::vector<Finding>* out) const override {
    const Job& job = ctx.job;
    if (job.comms.empty()) return;
    for (const TorchRankState& s : job.torch_ranks) {
      if (s.timed_out) return;
    }
    // A process that died of its own (a signal other than the launcher's SIGTERM, an error
    // exit, an exception) explains the end: not a hang.
    for (const Incident& i : job.incidents.incidents) {
      if (i.kind == IncidentKind::kException || i.kind == IncidentKind::kCppTerminate) return;
      if (i.kind == IncidentKind::kExit &&
          ((i.signal != 0 && i.signal != 15) ||
           (i.signal == 0 && i.exit_code && *i.exit_code != 0) || i.oom)) {
        return;
      }
    }
    bool any_complete = false;
    for (const Communicator& c : job.comms) {
      for (const auto& [r, cr] : c.ranks) {
        if (cr.ended) return;                     // orderly Destroy/Abort: not a silent hang
        if (cr.started && !cr.completed) return;  // init-incomplete covers it
        any_complete = any_complete || cr.completed;
      }
    }
    if (!any_complete) return;
    for (const FrameworkRecord& r : job.framework) {
      if (r.kind == FrameworkRecord::Kind::kNcclError) return;
    }
    for (const WarnRecord& w : job.warnings) {
      if (!IsBenignWarning(w)) return;  // the error rules explain the failure
    }
    const FrameworkRecord* signal = nullptr;
    for (const FrameworkRecord& r : job.framework) {
      if (r.kind == FrameworkRecord::Kind::kEvent && r.event == FrameworkKind::kProcessSignal) {
        signal = &r;
        break;
      }
    }
    if (signal == nullptr) return;
    Finding f = NewFinding(*this);
    AddEvidence(&f, signal->evidence);
    for (size_t i = 0; i < job.processes.size(); ++i) {
      AddProcess(job, static_cast<int>(i), &f);
      if (f.evidence.size() < 4) AddEvidence(&f, job.processes[i].last_line);
    }
    uint64_t completed = 0;
    for (const Communicator& c : job.comms) {
      for (const auto& [r, cr] : c.ranks) completed += cr.completed ? 1 + c.repeats : 0;
    }
    f.message = "All " + std::to_string(job.CommunicatorCount()) +
                " communicator(s) initialised (" +
                std::to_string(completed) +
                " rank inits completed), no NCCL error or warning, "
                "no communicator was destroyed, and the job was then terminated by a signal";
    if (!signal->detail.empty()) f.message += " (" + signal->detail + ")";
    f.message += ": the job most likely hung in a collective.";
    out->push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeHangSuspectedRule() { return std::make_unique<HangSuspectedRule>(); }

}  // namespace ncclscope::rules_internal
