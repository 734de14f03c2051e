// Follow: the live loop. A thin ByteSource wrapper gives the session a hook before every read
// (which may block on a pipe): pending rule runs happen there, so a finding is not held back
// while the stream is idle, and the stop flag is checked there.
#include "ncclscope/analysis/follow.h"

#include <set>
#include <string>
#include <utility>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/analysis/topo_paths.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

using Clock = std::chrono::steady_clock;

/// Calls a hook before each read of the wrapped source, and ends the input once `stop` is set.
class HookedSource : public ByteSource {
 public:
  HookedSource(std::unique_ptr<ByteSource> inner, std::function<void()> before_read,
               const std::atomic<bool>* stop)
      : inner_(std::move(inner)), before_read_(std::move(before_read)), stop_(stop) {}

  Status Read(char* buf, size_t cap, size_t* n) override {
    *n = 0;
    if (Stopped()) return Status::Ok();
    before_read_();
    if (Stopped()) return Status::Ok();
    return inner_->Read(buf, cap, n);
  }
  int64_t SizeHint() const override { return inner_->SizeHint(); }

 private:
  bool Stopped() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }

  std::unique_ptr<ByteSource> inner_;
  std::function<void()> before_read_;
  const std::atomic<bool>* stop_;
};

/// True for events after which a new finding is likely: run the rules soon.
bool IsInteresting(const EventData& d) {
  if (const auto* init = std::get_if<CommInit>(&d)) return init->phase == InitPhase::kComplete;
  return std::holds_alternative<Warning>(d) || std::holds_alternative<ErrorTrail>(d) ||
         std::holds_alternative<FrameworkNcclError>(d) ||
         std::holds_alternative<WatchdogTimeout>(d) || std::holds_alternative<FrameworkEvent>(d) ||
         std::holds_alternative<CommEnd>(d);
}

class Session {
 public:
  Session(const AnalyzeOptions& analyze, const FollowOptions& follow, FollowListener* listener,
          AnalysisResult* result, const TopoPaths* topo)
      : analyze_(analyze),
        follow_(follow),
        listener_(listener),
        result_(result),
        topo_(topo),
        builder_(&result->job, TuningOf(analyze)),
        pipeline_(&result->job.sources, &result->job.stats) {
    last_rules_ = last_status_ = Now();
  }

  bool stopped() const { return follow_.stop != nullptr && follow_.stop->load(); }

  /// Reads one input to its end (or until stopped).
  void Run(std::unique_ptr<ByteSource> source, const InputPath& input) {
    auto hooked = std::make_unique<HookedSource>(
        std::move(source), [this] { BeforeRead(); }, follow_.stop);
    pipeline_.Run(
        std::move(hooked), input, [this](const Event& e) { OnEvent(e); }, &result_->problems);
  }
  /// An input that cannot be opened: recorded as the pipeline records it.
  void RunUnopened(const InputPath& input) {
    pipeline_.Run(
        input, [this](const Event& e) { OnEvent(e); }, &result_->problems);
  }

  /// Final analysis of everything read; reports the findings not reported yet.
  void Finish() {
    BuildOptions build;
    build.topo = topo_;
    builder_.Finish(build);
    if (analyze_.run_rules) result_->findings = Rules(result_->job);
    for (const Finding& f : result_->findings) Report(result_->job, f);
    ReportStatus(true);
  }

 private:
  Clock::time_point Now() const { return follow_.now ? follow_.now() : Clock::now(); }

  std::vector<Finding> Rules(const Job& job) const {
    return follow_.rules ? follow_.rules(job) : RunRules(job, analyze_.rules);
  }

  void OnEvent(const Event& e) {
    builder_.Add(e);
    dirty_ = true;
    if (IsInteresting(e.data)) urgent_ = true;
    // The clock is read on interesting events and every 256 events, not on every line.
    if (urgent_ || (++since_clock_ & 255) == 0) Tick(false);
  }

  void BeforeRead() { Tick(true); }

  /// Runs the rules when due; before a read that may block, pending interesting events are
  /// evaluated at once so their findings are not held back by an idle stream.
  void Tick(bool before_read) {
    const Clock::time_point now = Now();
    if (analyze_.run_rules && dirty_) {
      const auto since = now - last_rules_;
      if ((urgent_ && (before_read || since >= follow_.urgent_interval)) ||
          since >= follow_.rules_interval) {
        Evaluate();
        last_rules_ = now;
      }
    }
    if (now - last_status_ >= follow_.status_interval) {
      last_status_ = now;
      ReportStatus(false);
    }
  }

  void Evaluate() {
    dirty_ = urgent_ = false;
    BuildOptions build;
    build.topo = topo_;
    Job snapshot = builder_.Snapshot(build);
    comms_ = snapshot.comms.size();
    for (const Finding& f : Rules(snapshot)) Report(snapshot, f);
  }

  void Report(const Job& job, const Finding& f) {
    if (!reported_.insert(f.rule + '\x1f' + f.message).second) return;
    listener_->OnFinding(job, f);
  }

  void ReportStatus(bool final) {
    FollowStatus s;
    const Job& job = result_->job;
    s.lines = job.stats.lines;
    s.nccl_lines = job.stats.nccl_lines + job.stats.framework_lines;
    s.ranks = job.processes.size();
    s.comms = final ? job.comms.size() : comms_;
    s.findings = reported_.size();
    listener_->OnStatus(s);
  }

  const AnalyzeOptions& analyze_;
  const FollowOptions& follow_;
  FollowListener* listener_;
  AnalysisResult* result_;
  const TopoPaths* topo_;
  JobBuilder builder_;
  EventPipeline pipeline_;
  std::set<std::string> reported_;  ///< rule + '\x1f' + message of every finding reported
  bool dirty_ = false;              ///< events since the last rule run
  bool urgent_ = false;             ///< an interesting event since the last rule run
  uint64_t since_clock_ = 0;
  size_t comms_ = 0;  ///< communicators of the last snapshot (ids are merged at Finish)
  Clock::time_point last_rules_;
  Clock::time_point last_status_;
};

Status LoadTopo(const AnalyzeOptions& analyze, TopoPaths* topo, const TopoPaths** use) {
  *use = nullptr;
  if (analyze.topo_path.empty()) return Status::Ok();
  Status s = LoadTopoPaths(analyze.topo_path, topo);
  if (s.ok()) *use = topo;
  return s;
}

}  // namespace

Status Follow(const AnalyzeOptions& analyze, const FollowOptions& follow, FollowListener* listener,
              AnalysisResult* result) {
  TopoPaths topo;
  const TopoPaths* use_topo = nullptr;
  if (Status s = LoadTopo(analyze, &topo, &use_topo); !s.ok()) return s;
  ExpandedInputs inputs = ExpandInputs(analyze.inputs);
  result->problems = inputs.problems;
  Session session(analyze, follow, listener, result, use_topo);
  for (const InputPath& input : inputs.inputs) {
    if (session.stopped()) break;
    Status err;
    std::unique_ptr<ByteSource> source = OpenByteSource(input.path, &err);
    if (source == nullptr) {
      session.RunUnopened(input);
      continue;
    }
    session.Run(std::move(source), input);
  }
  session.Finish();
  return Status::Ok();
}

Status FollowSource(std::unique_ptr<ByteSource> source, std::string_view name,
                    const AnalyzeOptions& analyze, const FollowOptions& follow,
                    FollowListener* listener, AnalysisResult* result) {
  TopoPaths topo;
  const TopoPaths* use_topo = nullptr;
  if (Status s = LoadTopo(analyze, &topo, &use_topo); !s.ok()) return s;
  Session session(analyze, follow, listener, result, use_topo);
  session.Run(std::move(source), InputPath{"", std::string(name)});
  session.Finish();
  return Status::Ok();
}

}  // namespace ncclscope
