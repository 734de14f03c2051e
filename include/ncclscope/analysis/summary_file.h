// Summary files: the condensed form of a set of inputs as JSON (`ncclscope summarize`), read back
// by `ncclscope merge`. Format (versioned; docs/performance.md "Summaries"):
//   {"ncclscope_summary": 1, "generator": "...", "problems": [...], "inputs": [...],
//    "sources": [...], "lines": [[src, line, "text", launcher_rank, "timestamp"], ...]}
#ifndef NCCLSCOPE_ANALYSIS_SUMMARY_FILE_H_
#define NCCLSCOPE_ANALYSIS_SUMMARY_FILE_H_

#include <ostream>
#include <string>
#include <string_view>

#include "ncclscope/analysis/condensed.h"
#include "ncclscope/base/status.h"

namespace ncclscope {

/// The format version written in "ncclscope_summary".
inline constexpr int kSummaryVersion = 1;

/// Writes `set` as a summary document, one kept line per output line.
void WriteSummary(const CondensedSet& set, std::ostream& out);

/// Parses a summary document; `name` (the file) prefixes error messages. Appends its problems and
/// inputs to *set, so several summaries read in turn form one set.
Status ParseSummary(std::string_view text, const std::string& name, CondensedSet* set);

/// Reads and parses the summary file at `path` ("-" = stdin), appending to *set.
Status ReadSummary(const std::string& path, CondensedSet* set);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_SUMMARY_FILE_H_
