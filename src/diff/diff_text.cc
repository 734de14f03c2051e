// The diff for a terminal: a headline, each run in one line, then one section per topic with
// one line per (grouped) difference, and the exit reason.
#include <fmt/format.h>

#include "ncclscope/diff/diff_report.h"

namespace ncclscope {
namespace {

std::string_view Color(DiffVerdict v, bool on) {
  if (!on) return "";
  switch (v) {
    case DiffVerdict::kRegression:
      return "\x1b[31m";
    case DiffVerdict::kImprovement:
      return "\x1b[32m";
    case DiffVerdict::kChange:
      return "\x1b[33m";
    case DiffVerdict::kInfo:
      break;
  }
  return "\x1b[2m";
}

std::string_view Label(DiffVerdict v) {
  return v == DiffVerdict::kRegression ? "REGRESSION" : DiffVerdictName(v);
}

std::string Value(const std::string& v) { return v.empty() ? "(none)" : v; }

/// "subject: aspect before → after", findings as "+ warning rule: title".
std::string ItemLine(const DiffGroup& g) {
  const DiffItem& i = *g.first;
  const std::string subject = GroupSubject(g);
  if (i.topic == DiffTopic::kFindings) {
    if (i.before.empty()) return fmt::format("+ {} {}: {}", i.after, subject, i.aspect);
    if (i.after.empty()) return fmt::format("- {} {}: {}", i.before, subject, i.aspect);
    return fmt::format("{}: {}: {} → {}", subject, i.aspect, i.before, i.after);
  }
  std::string out = subject + ":";
  if (!i.aspect.empty()) out += " " + i.aspect;
  out += fmt::format(" {} → {}", Value(i.before), Value(i.after));
  return out;
}

}  // namespace

void WriteDiffText(const DiffReportInput& in, const DiffReportOptions& opts, std::ostream& out) {
  const bool c = opts.color;
  const std::string_view bold = c ? "\x1b[1m" : "", reset = c ? "\x1b[0m" : "";
  out << fmt::format("{}ncclscope diff: {}{}\n", bold, DiffCountsText(in.diff), reset);
  out << "  before  " << SnapshotHeadline(in.before) << "\n";
  out << "  after   " << SnapshotHeadline(in.after) << "\n";
  for (int t = 0; t <= static_cast<int>(DiffTopic::kFindings); ++t) {
    const auto topic = static_cast<DiffTopic>(t);
    const auto groups = GroupDiffItems(in.diff.items, topic);
    if (groups.empty()) continue;
    out << "\n" << bold << DiffTopicTitle(topic) << reset << "\n";
    for (const DiffGroup& g : groups) {
      const DiffItem& i = *g.first;
      out << fmt::format("  {}{:<11}{} {}\n", Color(i.verdict, c), Label(i.verdict), reset,
                         ItemLine(g));
      if (!i.note.empty()) out << fmt::format("  {:<11} {}\n", "", i.note);
    }
  }
  out << "\n";
  if (DiffFails(in.diff, in.fail_on)) {
    out << fmt::format("exit 1: differences that --fail-on {} counts\n",
                       DiffFailOnName(in.fail_on));
  } else {
    out << fmt::format("exit 0: nothing that --fail-on {} counts\n", DiffFailOnName(in.fail_on));
  }
}

}  // namespace ncclscope
