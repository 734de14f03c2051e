// Follow: analysis of a live log stream (`kubectl logs -f ... | ncclscope --follow`). Events are
// folded into the job as they arrive; the rules run on a snapshot of the job (JobBuilder::Snapshot)
// at most once per `rules_interval` and soon after interesting events (warnings, framework errors,
// communicator init/abort), and every finding not reported before (same rule and message) is
// handed to the listener at once. At end of input, or when `stop` is set (SIGINT), the result
// holds the full analysis, exactly as Analyze would have produced for the lines read.
#ifndef NCCLSCOPE_ANALYSIS_FOLLOW_H_
#define NCCLSCOPE_ANALYSIS_FOLLOW_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/base/status.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/model/job.h"
#include "ncclscope/rules/finding.h"

namespace ncclscope {

/// Counters for a live status line.
struct FollowStatus {
  uint64_t lines = 0;       ///< Input lines read.
  uint64_t nccl_lines = 0;  ///< Of which NCCL (or framework) lines.
  size_t ranks = 0;         ///< Processes seen printing NCCL lines.
  size_t comms = 0;         ///< Communicators seen.
  size_t findings = 0;      ///< Distinct findings reported so far.
};

/// Receives what a follow session produces, as soon as it is known.
class FollowListener {
 public:
  virtual ~FollowListener() = default;
  /// A finding not reported before. `job` is the snapshot it was found in (evidence names).
  virtual void OnFinding(const Job& job, const Finding& finding) = 0;
  /// The counters; called at most once per FollowOptions::status_interval.
  virtual void OnStatus(const FollowStatus& status) = 0;
};

/// Monotonic clock (injectable for tests).
using FollowClock = std::function<std::chrono::steady_clock::time_point()>;
/// The rules to run on a job (injectable for tests); default: RunRules with the analyze options.
using FollowRules = std::function<std::vector<Finding>(const Job&)>;

struct FollowOptions {
  std::chrono::milliseconds rules_interval{1000};  ///< Rules at most this often on plain lines.
  std::chrono::milliseconds urgent_interval{100};  ///< ... and this often after interesting ones.
  std::chrono::milliseconds status_interval{100};  ///< OnStatus at most this often.
  const std::atomic<bool>* stop = nullptr;         ///< When set (e.g. by SIGINT), input ends.
  FollowClock now;                                 ///< Empty: std::chrono::steady_clock::now.
  FollowRules rules;                               ///< Empty: RunRules(job, analyze.rules).
};

/// Follows `analyze.inputs` (stdin when empty) one after the other until each ends or `stop` is
/// set. Fills *result like Analyze (findings of the full job included). Returns non-ok only when
/// nothing could be analysed (unreadable --topo file).
Status Follow(const AnalyzeOptions& analyze, const FollowOptions& follow, FollowListener* listener,
              AnalysisResult* result);

/// Follows one already opened source (tests: pipes, sources that deliver in chunks).
Status FollowSource(std::unique_ptr<ByteSource> source, std::string_view name,
                    const AnalyzeOptions& analyze, const FollowOptions& follow,
                    FollowListener* listener, AnalysisResult* result);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_FOLLOW_H_
