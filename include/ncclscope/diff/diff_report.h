// Writers of a RunDiff: text (terminal), markdown (PR comment, job summary), JSON (tools).
// docs/diff.md shows each one.
#ifndef NCCLSCOPE_DIFF_DIFF_REPORT_H_
#define NCCLSCOPE_DIFF_DIFF_REPORT_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/diff/run_diff.h"

namespace ncclscope {

/// JSON diff document version ("diff_schema_version"); fields are only added within a version.
inline constexpr int kDiffSchemaVersion = 1;

struct DiffReportInput {
  const RunSnapshot& before;
  const RunSnapshot& after;
  const RunDiff& diff;
  DiffFailOn fail_on = DiffFailOn::kRegression;
};

struct DiffReportOptions {
  bool color = false;  ///< Text: ANSI colours.
};

using DiffWriter = void (*)(const DiffReportInput&, const DiffReportOptions&, std::ostream&);

struct DiffFormat {
  std::string_view name;
  DiffWriter write;
};

/// text, markdown, json.
const std::vector<DiffFormat>& DiffFormats();
/// The format with this name, or nullptr.
const DiffFormat* FindDiffFormat(std::string_view name);

void WriteDiffText(const DiffReportInput& in, const DiffReportOptions& opts, std::ostream& out);
void WriteDiffMarkdown(const DiffReportInput& in, const DiffReportOptions& opts, std::ostream& out);
void WriteDiffJson(const DiffReportInput& in, const DiffReportOptions& opts, std::ostream& out);

/// Items of one topic with the same verdict, aspect, values and note: one line in text and
/// markdown ("4 communicators (ranks 0,1; 2,3; 0,2; 1,3)"). Regressions first, then
/// improvements, changes and info, each in the order found.
struct DiffGroup {
  const DiffItem* first = nullptr;
  std::vector<std::string> subjects;
};
std::vector<DiffGroup> GroupDiffItems(const std::vector<DiffItem>& items, DiffTopic topic);
/// The subject of a group: the one subject, or "N communicators (ranks a; b; ...)".
std::string GroupSubject(const DiffGroup& g);
/// "2 regressions, 1 improvement, 3 changes, 1 info" (zero counts left out); "no differences".
std::string DiffCountsText(const RunDiff& diff);
/// "corpus/x.log (log): 1 host, 4 processes, 5 communicators, NCCL 2.28.9".
std::string SnapshotHeadline(const RunSnapshot& s);

}  // namespace ncclscope

#endif  // NCCLSCOPE_DIFF_DIFF_REPORT_H_
