// One side of `ncclscope diff`: whatever the user named, turned into a RunSnapshot.
//
// A path may be a saved JSON report (`ncclscope --format json` output), a summary file
// (`ncclscope summarize` output, analysed as `merge` would), or logs: a file or a directory of
// files, analysed as `ncclscope analyze` would. Among the logs, nccl-tests output (text tables,
// possibly with NCCL INFO lines, or -J JSON) is also read as benchmark results. "-" reads logs
// from stdin (one side at most).
#ifndef NCCLSCOPE_DIFF_RUN_SIDE_H_
#define NCCLSCOPE_DIFF_RUN_SIDE_H_

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/base/status.h"
#include "ncclscope/diff/run_snapshot.h"
#include "ncclscope/rules/policy.h"

namespace ncclscope {

struct RunSideOptions {
  AnalyzeOptions analyze;          ///< --topo, rule thresholds, --jobs; `inputs` is ignored.
  const Policy* policy = nullptr;  ///< Applied to the findings of analysed logs (not reports).
};

/// Loads the run at `path`. Fails (the message names the path) when it cannot be read, when a
/// log input is unreadable or damaged, when a JSON file is an ncclscope document that does not
/// parse, and when there is nothing to compare: no NCCL debug lines and no nccl-tests results.
Status LoadRunSnapshot(const std::string& path, const RunSideOptions& options, RunSnapshot* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_DIFF_RUN_SIDE_H_
