// Mermaid writer: flowchart with a subgraph per node and one linkStyle per edge.
#include "ncclscope/report/mermaid_report.h"

#include <gtest/gtest.h>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::Count;
using testing::Render;

TEST(MermaidReport, TwoNodesLogHasSubgraphPerNodeAndOneLinkStylePerEdge) {
  std::string mm = Render(FindReportFormat("mermaid")->write,
                          testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  EXPECT_NE(mm.find("\nflowchart LR\n"), std::string::npos);
  EXPECT_EQ(Count(mm, "  subgraph g"), 2);
  EXPECT_EQ(Count(mm, "  subgraph "), Count(mm, "  end\n"));
  EXPECT_EQ(Count(mm, "  linkStyle "), 5);
  EXPECT_EQ(Count(mm, "stroke:#c62828,stroke-width:4px"), 3);
  EXPECT_NE(mm.find("r0 <-->|\"P2P\"| r1"), std::string::npos) << mm;
  EXPECT_NE(mm.find("legend1[\"NET/Socket (bottleneck)\"]"), std::string::npos) << mm;
}

TEST(MermaidReport, LabelTextCannotCloseQuotesOrInjectMarkup) {
  EXPECT_EQ(MermaidQuote("a\"b|c<d>&#"), "a#quot;b#124;c#lt;d#gt;#amp;#35;");
  auto c = testing::SmallCase();
  c.job.processes[0].node = "x\"]\nend";
  std::string mm = Render(WriteMermaidReport, c);
  EXPECT_NE(mm.find("subgraph g0[\"x#quot;]<br/>end (host node-0)\"]"), std::string::npos) << mm;
}

}  // namespace
}  // namespace ncclscope
