// HTML writer: self-contained page, escaping, findings, matrices, inline SVG graph.
#include "ncclscope/report/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::Count;
using testing::Render;
using testing::ReportCase;

bool HasNetworkReference(const std::string& html) {
  const std::regex ref(R"((src|href|xlink:href|action)\s*=\s*["']?\s*(https?:)?//)",
                       std::regex::icase);
  return std::regex_search(html, ref) || html.find("url(") != std::string::npos ||
         html.find("@import") != std::string::npos;
}

TEST(HtmlReport, TwoNodesLogIsOneSelfContainedPage) {
  std::string html =
      Render(FindReportFormat("html")->write, testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_FALSE(HasNetworkReference(html));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg"), 1);
  EXPECT_EQ(Count(html, "<table class=\"matrix\">"), 5);
  EXPECT_NE(html.find("simhost0 (vm)"), std::string::npos);
  EXPECT_NE(html.find("NCCL 2.28.9"), std::string::npos);
  EXPECT_NE(html.find("</html>\n"), std::string::npos);
}

TEST(HtmlReport, ScriptInjectedThroughLogLinesAndSourceNamesIsEscaped) {
  std::string log = testing::ReadFileOrDie(testing::TestData("corpus/h200x4/two_nodes.log"));
  AnalysisResult r = AnalyzeText(log, "<script>alert(1)</script>.log");
  ReportCase c;
  c.job = std::move(r.job);
  c.findings = testing::SmallCase().findings;  // evidence text carries <script>alert("x")
  std::string html = Render(WriteHtmlReport, c);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;.log"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 100%"),
            std::string::npos);
}

TEST(HtmlReport, FindingsShowSeverityEvidenceAndFix) {
  std::string html = Render(WriteHtmlReport, testing::SmallCase());
  EXPECT_NE(html.find("<div class=\"finding error\"><div><span class=\"sev error\">ERROR</span>"
                      "<b>Inter-node traffic falls back to TCP sockets</b>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<span class=\"sev warning\">WARNING</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"sev info\">INFO</span>"), std::string::npos);
  EXPECT_NE(html.find("train.log:13: second line"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"fix\"><b>Fix:</b> set NCCL_IB_HCA"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"pill error\">1 error</span>"), std::string::npos);
}

TEST(HtmlReport, MatrixCellsCarryClassLettersSoTheyReadWithoutColour) {
  std::string html = Render(WriteHtmlReport, testing::SmallCase());
  EXPECT_NE(html.find("title=\"rank 0 to rank 1: NVL\">N</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("title=\"rank 1 to rank 2: NET/IB\">I</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"self\">-</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"none\">.</td>"), std::string::npos);
}

TEST(HtmlReport, CommunicatorBeyondMatrixLimitShowsNodeByNodeMatrixAndAggregatedGraph) {
  ReportCase c;
  c.job = testing::MakeRingJob(10, 8, TransportClass::kNVL, TransportClass::kNetSocket);
  ReportOptions opts;
  opts.matrix_max_ranks = 16;
  std::string html = Render(WriteHtmlReport, c, opts);
  EXPECT_NE(html.find("NCCL node × NCCL node"), std::string::npos);
  EXPECT_EQ(html.find("src\\dst"), std::string::npos);
  EXPECT_NE(html.find("title=\"node-0 to node-0: NVL\">N</td>"), std::string::npos);
  EXPECT_NE(html.find("title=\"node-0 to node-1: NET/Socket\">T</td>"), std::string::npos);
  EXPECT_NE(html.find("aggregated by NCCL node"), std::string::npos);
  EXPECT_EQ(Count(html, "<circle "), 10);
}

TEST(HtmlReport, LinkGraphSvgHasOneBoxPerNodeOneCirclePerRankAndALegend) {
  std::string html = Render(WriteHtmlReport, testing::CorpusCase("corpus/h200x4/two_nodes.log"));
  size_t svg = html.find("<svg");
  ASSERT_NE(svg, std::string::npos);
  std::string part = html.substr(svg, html.find("</svg>") - svg);
  EXPECT_EQ(Count(part, "<rect "), 2);
  EXPECT_EQ(Count(part, "<circle "), 4);
  EXPECT_EQ(Count(part, "<path "), 5);
  EXPECT_EQ(Count(part, "stroke-width=\"4.5\""), 4);  // 3 bottleneck edges + legend swatch
  EXPECT_NE(part.find("NET/Socket (bottleneck)"), std::string::npos);
}

}  // namespace
}  // namespace ncclscope
