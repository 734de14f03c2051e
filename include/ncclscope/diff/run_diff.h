// RunDiff: what changed between two runs ("it worked yesterday"), each change with a verdict.
//
// Verdicts: a regression is a job that failed (its root cause: a rank died, a collective timed
// out) where it had not, or more restart attempts that failed, a link class that got slower on a
// communicator (NVL → SHM, IB → Socket), a new error or warning finding (or one whose severity
// rose), a drop of nccl-tests bus bandwidth beyond the tolerance, or nccl-tests results that
// became wrong; an improvement is the reverse; a change is any other difference (another root
// cause of a failure, settings, interfaces, NICs, plugins, channels, algorithms, job shape, info
// findings); info is what is worth knowing but says nothing by itself
// (NCCL, CUDA and plugin versions, facts only one side logged). Communicators are matched across
// runs by size and rank layout (the global ranks of their members), never by pointer or commId.
#ifndef NCCLSCOPE_DIFF_RUN_DIFF_H_
#define NCCLSCOPE_DIFF_RUN_DIFF_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ncclscope/diff/run_snapshot.h"

namespace ncclscope {

enum class DiffVerdict : uint8_t { kInfo, kChange, kImprovement, kRegression };
/// Sections of a diff, in report order.
enum class DiffTopic : uint8_t {
  kOutcome,        ///< how the job ended: failed or not, root cause, failed restart attempts
  kJob,            ///< hosts, processes, world size
  kVersions,       ///< NCCL, CUDA, driver, plugin versions
  kSettings,       ///< NCCL_* / FI_* settings
  kNetwork,        ///< bootstrap interfaces, networks, NICs, plugins, providers, GPUDirect RDMA
  kCommunicators,  ///< link classes, nodes, channels per matched communicator
  kAlgorithms,     ///< algorithm/protocol choices (TUNING lines)
  kBench,          ///< nccl-tests bus bandwidth
  kFindings,       ///< findings added, gone, or with another severity
};

/// "info", "change", "improvement", "regression".
std::string_view DiffVerdictName(DiffVerdict v);
/// "outcome", "job", "versions", "settings", "network", "communicators", "algorithms",
/// "nccl-tests", "findings".
std::string_view DiffTopicName(DiffTopic t);
/// Section headings: "Job", "Versions", "Settings", ...
std::string_view DiffTopicTitle(DiffTopic t);

/// One difference. `before`/`after` are the values as text, empty when absent on that side.
struct DiffItem {
  DiffTopic topic = DiffTopic::kJob;
  DiffVerdict verdict = DiffVerdict::kChange;
  std::string subject;  ///< "NCCL_P2P_DISABLE", "ranks 0-3", "socket-fallback", "all_reduce_perf"
  std::string aspect;   ///< What of the subject: "intra-node links", "peak busbw", a title, ""
  std::string before;
  std::string after;
  std::string note;        ///< One sentence or figure that explains, may be empty.
  std::string before_ref;  ///< Communicator id (or file) on each side, for communicator items.
  std::string after_ref;
};

struct DiffOptions {
  /// Relative nccl-tests bus bandwidth change below which nothing is reported (0.10 = 10 %).
  double busbw_tolerance = 0.10;
};

struct RunDiff {
  std::vector<DiffItem> items;  ///< By topic (DiffTopic order), then in the order found.

  int Count(DiffVerdict v) const;
};

RunDiff DiffRuns(const RunSnapshot& before, const RunSnapshot& after,
                 const DiffOptions& options = {});

/// Pairs of communicator indexes (before, after) matched by size and rank layout; an index of
/// -1 pairs a communicator with nothing. Every communicator of both runs appears exactly once.
std::vector<std::pair<int, int>> MatchCommunicators(const std::vector<CommSnapshot>& before,
                                                    const std::vector<CommSnapshot>& after);

/// What makes `diff` exit 1: `regression` (default), `change` (any regression, improvement or
/// change), `any` (every difference, info included), `never`.
enum class DiffFailOn : uint8_t { kRegression, kChange, kAny, kNever };
std::optional<DiffFailOn> ParseDiffFailOn(std::string_view name);
std::string_view DiffFailOnName(DiffFailOn f);
/// True if the diff holds an item that `fail_on` counts.
bool DiffFails(const RunDiff& diff, DiffFailOn fail_on);

}  // namespace ncclscope

#endif  // NCCLSCOPE_DIFF_RUN_DIFF_H_
