// Markdown writer: header, communicator table, findings table and details; escaping.
#include "ncclscope/report/markdown_report.h"

#include <gtest/gtest.h>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::Lines;
using testing::Render;
using testing::ReportCase;
using testing::SmallCase;

/// Cell separators of a table row: '|' not preceded by a backslash.
int Separators(const std::string& row) {
  int n = 0;
  for (size_t i = 0; i < row.size(); ++i) n += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
  return n;
}

TEST(MarkdownEscape, TextEscapesMarkupAndPipesCodeUsesALongerFence) {
  EXPECT_EQ(MarkdownText("a|b <x> *y*"), "a\\|b \\<x\\> \\*y\\*");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");
  EXPECT_EQ(MarkdownCode("a|b", true), "`a\\|b`");
  EXPECT_EQ(MarkdownCode("a|b"), "`a|b`");
}

TEST(MarkdownReport, HandBuiltJobHasHeaderCommunicatorTableAndFindingDetails) {
  std::string md = Render(WriteMarkdownReport, SmallCase());
  EXPECT_EQ(md.rfind("## ncclscope report\n", 0), 0u);
  EXPECT_NE(md.find("**1 error, 1 warning, 1 info** — 1 input, 2 hosts, 4 processes, 4 ranks, "
                    "1 communicator, NCCL 2.21.5"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `0xabc` | 4 | 2 | NVL 2, NET/IB 2 | **NET/IB** |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **[ERROR]** | `socket-fallback` | Inter\\-node traffic"), std::string::npos)
      << md;
  EXPECT_NE(md.find("#### **[WARNING]** Init took 42 s (`slow-init`)"), std::string::npos) << md;
  EXPECT_NE(md.find("- `train.log:40` `NCCL INFO Init COMPLETE`"), std::string::npos) << md;
  EXPECT_NE(md.find("**Fix:** set NCCL\\_IB\\_HCA"), std::string::npos) << md;
}

TEST(MarkdownReport, TableRowsKeepTheirColumnsWithPipesInTextAndNoRawHtml) {
  ReportCase c = SmallCase();
  c.findings[0].title = "a | b <script>";
  c.findings[0].rule = "x|y";
  c.job.comms[0].id = "0x1|2";
  std::string md = Render(WriteMarkdownReport, c);
  for (const auto& line : Lines(md)) {
    if (line.rfind("| ", 0) != 0 && line.rfind("|---", 0) != 0) continue;
    int header = line.find("Severity") != std::string::npos || line.find("**[") != std::string::npos
                     ? 4
                     : -1;
    if (header > 0) {
      EXPECT_EQ(Separators(line), header) << line;
    }
  }
  EXPECT_NE(md.find("a \\| b \\<script\\>"), std::string::npos) << md;
  for (const auto& line : Lines(md)) {  // raw markup only inside code spans of evidence
    if (line.find("<script>") != std::string::npos) {
      EXPECT_EQ(line.rfind("- `train.log:12` `", 0), 0u) << line;
    }
  }
  EXPECT_NE(md.find("| `0x1\\|2` |"), std::string::npos) << md;
}

TEST(MarkdownReport, TwoNodesLogShowsVersionNodesAndSocketBottleneck) {
  std::string md = Render(FindReportFormat("markdown")->write,
                          testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  EXPECT_NE(md.find("1 host (2 NCCL nodes), 4 processes, 4 ranks, 5 communicators, NCCL 2.28.9"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `0xf5b9b78d81eae02b` | 4 | 2 | P2P 4, NET/Socket 6 | **NET/Socket** |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("### Findings\n\nNone."), std::string::npos);
}

}  // namespace
}  // namespace ncclscope
