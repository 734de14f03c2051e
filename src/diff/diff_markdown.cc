// The diff as markdown: a verdict line, the two runs, and one table per topic (for a PR comment
// or $GITHUB_STEP_SUMMARY).
#include <fmt/format.h>

#include "ncclscope/diff/diff_report.h"
#include "ncclscope/report/markdown_report.h"

namespace ncclscope {
namespace {

std::string Marker(DiffVerdict v) {
  switch (v) {
    case DiffVerdict::kRegression:
      return "**[REGRESSION]**";
    case DiffVerdict::kImprovement:
      return "[improvement]";
    case DiffVerdict::kChange:
      return "[change]";
    case DiffVerdict::kInfo:
      break;
  }
  return "[info]";
}

std::string Cell(const std::string& v) { return v.empty() ? "—" : MarkdownText(v); }

}  // namespace

void WriteDiffMarkdown(const DiffReportInput& in, const DiffReportOptions&, std::ostream& out) {
  out << "## ncclscope diff\n\n";
  out << fmt::format("**{}**{}\n\n", MarkdownText(DiffCountsText(in.diff)),
                     DiffFails(in.diff, in.fail_on)
                         ? fmt::format(" — fails (`--fail-on {}`)", DiffFailOnName(in.fail_on))
                         : std::string());
  out << fmt::format("- before: {}\n- after: {}\n", MarkdownText(SnapshotHeadline(in.before)),
                     MarkdownText(SnapshotHeadline(in.after)));
  for (int t = 0; t <= static_cast<int>(DiffTopic::kFindings); ++t) {
    const auto topic = static_cast<DiffTopic>(t);
    const auto groups = GroupDiffItems(in.diff.items, topic);
    if (groups.empty()) continue;
    out << fmt::format("\n### {}\n\n", DiffTopicTitle(topic));
    out << "| | What | Before | After | Note |\n|---|---|---|---|---|\n";
    for (const DiffGroup& g : groups) {
      const DiffItem& i = *g.first;
      std::string what = MarkdownText(GroupSubject(g));
      if (!i.aspect.empty()) what += ": " + MarkdownText(i.aspect);
      out << fmt::format("| {} | {} | {} | {} | {} |\n", Marker(i.verdict), what, Cell(i.before),
                         Cell(i.after), MarkdownText(i.note));
    }
  }
}

}  // namespace ncclscope
