// The parts of DiffRuns, one per topic, and the text helpers they share. Each part appends its
// items in the order it finds them.
#ifndef NCCLSCOPE_SRC_DIFF_DIFF_PARTS_H_
#define NCCLSCOPE_SRC_DIFF_DIFF_PARTS_H_

#include <string>
#include <vector>

#include "ncclscope/diff/run_diff.h"

namespace ncclscope::diff_internal {

/// How the runs ended: failed or not, the root cause, failed restart attempts.
void DiffOutcome(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out);
/// Hosts, processes and world size.
void DiffJobShape(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out);
/// Versions (info), settings, network facts and algorithm choices from the configurations.
void DiffConfiguration(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out);
/// Matched communicators: link classes per locality, nodes, channels, init; unmatched ones.
void DiffCommunicators(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out);
/// nccl-tests runs matched by test name and rank count.
void DiffBench(const RunSnapshot& a, const RunSnapshot& b, const DiffOptions& options,
               std::vector<DiffItem>* out);
/// Findings added, gone, or with another severity, keyed by (rule, title).
void DiffFindings(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out);

/// "0-3", "0,2", "0-7,16-23"; unknown ranks (-1) are counted: "0,1 and 2 unknown".
std::string RankSetText(const std::vector<int>& ranks);
/// A fact's values over the processes: "eth0" (every process), "1 on 2 of 4 processes", "eth0
/// ×2, ens5 ×2"; `none` when there is no value.
std::string ValuesText(const std::vector<ValueCount>& values, int processes,
                       const std::string& none);

}  // namespace ncclscope::diff_internal

#endif  // NCCLSCOPE_SRC_DIFF_DIFF_PARTS_H_
