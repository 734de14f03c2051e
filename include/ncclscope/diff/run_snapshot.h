// RunSnapshot: the facts of one run that `ncclscope diff` compares: how it ended (root cause per
// restart attempt), job shape, configuration (versions, settings, interfaces, NICs, plugins,
// algorithms), communicators with their link classes and channels, findings, and nccl-tests
// results when the run's files hold them.
//
// A snapshot is read from a JSON report (schema version 1, docs/json-output.md); a fresh analysis
// is turned into its JSON report first and read the same way, so a saved report and the log it
// was made from give the same snapshot. Reports written before a field existed give a snapshot
// without it (has_configuration false, empty global_ranks, ...): the differ then says what it
// could not compare instead of reporting a change.
#ifndef NCCLSCOPE_DIFF_RUN_SNAPSHOT_H_
#define NCCLSCOPE_DIFF_RUN_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/bench/bench_result.h"
#include "ncclscope/model/job_configuration.h"
#include "ncclscope/report/report.h"

namespace ncclscope {

/// The links between one (src, dst) pair of communicator ranks: the slowest class.
struct PairLink {
  std::string cls;            ///< Class name ("P2P", "NET/Socket")
  bool path_unknown = false;  ///< A P2P link whose NVLink/PCIe path the log does not show.

  bool operator==(const PairLink&) const = default;
};

/// One communicator as the report describes it.
struct CommSnapshot {
  std::string id;  ///< The run's own id (commId, split path): for display, never for matching.
  std::string api;
  std::string parent;
  int nranks = 0;
  int nnodes = -1;
  int local_ranks = -1;
  int nchannels = -1;
  /// Global rank of each communicator rank (-1 unknown); empty in reports that predate it.
  std::vector<int> global_ranks;
  /// "coll", "collnet", "nvls", "p2p", "p2p_per_peer" → count; empty when not logged.
  std::map<std::string, int> channel_counts;
  std::string graph_type;                  ///< "NVL/PIX", empty when not logged.
  std::string bottleneck;                  ///< Class name, empty without links.
  std::map<std::string, int> links;        ///< Class name → links (all localities).
  std::map<std::string, int> intra_links;  ///< Intra-node links by class.
  std::map<std::string, int> inter_links;  ///< Inter-node links by class.
  bool has_locality_counts = false;        ///< intra/inter_links were in the report.
  int p2p_path_unknown = -1;               ///< P2P links without an established path; -1 unknown.
  bool init_complete = false;
  /// (src, dst) communicator ranks → their slowest link, from the report's "links".
  std::map<std::pair<int, int>, PairLink> pairs;
};

struct FindingSnapshot {
  std::string rule;
  std::string severity;  ///< "error", "warning", "info"
  std::string title;
  std::string message;
};

/// One nccl-tests run found among a run's files.
struct BenchSnapshot {
  std::string name;    ///< "all_reduce_perf"; "" when the output does not say.
  std::string source;  ///< File it was read from.
  int ranks = 0;
  double peak_busbw_gbps = 0;
  int64_t peak_size_bytes = 0;
  std::optional<double> avg_busbw_gbps;
  double wrong_total = 0;
  std::vector<std::string> errors;
};

/// How a run (or one restart attempt of it) ended: the report's root_cause (docs/triage.md).
struct OutcomeSnapshot {
  std::string cls;         ///< "none", "process-killed", "stuck-rank", ...
  bool failed = false;     ///< job_failed: the attempt failed (not only a late start).
  std::vector<int> ranks;  ///< Culprit ranks (-1: a culprit known by host or pid only).
  std::string who;         ///< "rank 1 (vm pid 530)", "ranks 0,1", "pid 4242"; "" when none.
  std::string what;        ///< "was killed by SIGKILL (signal 9)"
};

struct RunSnapshot {
  std::string label;         ///< What the user named (path).
  std::string kind;          ///< "log", "report" (saved JSON report), "summary" (summarize output)
  std::string tool_version;  ///< ncclscope version that wrote a saved report.
  uint64_t nccl_lines = 0;
  int hosts = 0;
  int processes = 0;
  std::vector<std::string> nccl_versions;
  bool has_configuration = false;  ///< False for reports written before "configuration".
  JobConfiguration configuration;
  std::vector<CommSnapshot> comms;
  /// Every link of the run, whatever its communicator, by class and locality (no rank pairs):
  /// excerpts without a communicator's init lines have links but no communicator. Compared when
  /// no communicator of one run has a partner with links in the other.
  CommSnapshot all_links;
  std::vector<FindingSnapshot> findings;
  /// False for reports written before the root cause (then outcome and attempts are empty).
  bool has_root_cause = false;
  OutcomeSnapshot outcome;                ///< The job's root cause.
  std::vector<OutcomeSnapshot> attempts;  ///< One per restart attempt, in order.
  std::vector<BenchSnapshot> bench;
  std::vector<std::string> input_problems;  ///< "path: message" of damaged inputs.

  /// Ranks of the largest communicator (the world size), 0 without communicators.
  int WorldSize() const;
};

/// Reads a JSON report (`ncclscope --format json` output) into *out; `name` prefixes errors.
/// InvalidInput for text that is not JSON, a document that is not an ncclscope report, or a
/// schema version newer than this build knows.
Status ParseReportSnapshot(std::string_view text, const std::string& name, RunSnapshot* out);

/// The snapshot of an analysis: its JSON report, read back as a saved one would be.
RunSnapshot SnapshotOfAnalysis(const ReportInput& in);

/// The snapshot of nccl-tests runs (appended to out->bench).
void AddBenchSnapshots(const std::vector<BenchTest>& tests, const std::string& source,
                       RunSnapshot* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_DIFF_RUN_SNAPSHOT_H_
