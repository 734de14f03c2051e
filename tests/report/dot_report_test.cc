// Graphviz writer: clusters per node, balanced braces, colours, bottleneck, legend, quoting.
#include "ncclscope/report/dot_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::Count;
using testing::Render;

int HostClusters(const std::string& dot) {
  const std::regex cluster(R"(subgraph cluster_\d+ \{)");
  return static_cast<int>(
      std::distance(std::sregex_iterator(dot.begin(), dot.end(), cluster), std::sregex_iterator()));
}

/// Braces balance outside quoted strings, and the nesting never goes negative.
bool BracesBalanced(const std::string& dot) {
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < dot.size(); ++i) {
    if (quoted && dot[i] == '\\') {
      ++i;
    } else if (dot[i] == '"') {
      quoted = !quoted;
    } else if (!quoted && dot[i] == '{') {
      ++depth;
    } else if (!quoted && dot[i] == '}' && --depth < 0) {
      return false;
    }
  }
  return depth == 0 && !quoted;
}

TEST(DotReport, TwoNodesLogHasOneClusterPerNodeAndBalancedBraces) {
  std::string dot =
      Render(FindReportFormat("dot")->write, testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  EXPECT_EQ(dot.rfind("digraph ncclscope {", 0), 0u);
  EXPECT_EQ(HostClusters(dot), 2) << dot;
  EXPECT_TRUE(BracesBalanced(dot)) << dot;
  EXPECT_EQ(Count(dot, " -> "), 5);
  EXPECT_NE(dot.find("label=\"simhost0 (host vm)\""), std::string::npos);
}

TEST(DotReport, BottleneckEdgesAreBoldAndEveryClassHasOneColourInTheLegend) {
  std::string dot = Render(WriteDotReport, testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  EXPECT_EQ(Count(dot, "label=\"NET/Socket\", dir="), 3);
  EXPECT_EQ(Count(dot, "penwidth=3.5, style=bold"), 3);
  EXPECT_NE(dot.find("subgraph cluster_legend"), std::string::npos);
  EXPECT_NE(dot.find("[label=\"NET/Socket (bottleneck)\", fontcolor=\"#c62828\"]"),
            std::string::npos);
  EXPECT_NE(dot.find("[label=\"P2P\", fontcolor=\"#1565c0\"]"), std::string::npos);
}

TEST(DotReport, QuotesAndBackslashesInLabelsAreEscaped) {
  EXPECT_EQ(DotQuote("a\"b\\c\nd\x01"), "a\\\"b\\\\c\\nd");
  auto c = testing::SmallCase();
  c.job.processes[0].node = "evil\"} digraph {";
  std::string dot = Render(WriteDotReport, c);
  EXPECT_TRUE(BracesBalanced(dot)) << dot;
  EXPECT_NE(dot.find("label=\"evil\\\"} digraph { (host node-0)\""), std::string::npos) << dot;
}

TEST(DotReport, LargeJobDrawsOneNodePerHostWithCountedEdges) {
  testing::ReportCase c;
  c.job = testing::MakeRingJob(10, 8, TransportClass::kNVL, TransportClass::kNetSocket);
  std::string dot = Render(WriteDotReport, c);
  EXPECT_EQ(HostClusters(dot), 10);
  EXPECT_EQ(Count(dot, " -> "), 10);
  EXPECT_NE(dot.find("h0 [label=\"node-0\\n8 ranks; within: NVL 7\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"NET/Socket ×1\""), std::string::npos) << dot;
  EXPECT_TRUE(BracesBalanced(dot));
}

}  // namespace
}  // namespace ncclscope
