// GitHub Actions writer: workflow-command syntax and escaping, severity mapping, summary line.
#include "ncclscope/report/github_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::Lines;
using testing::Render;
using testing::ReportCase;
using testing::SmallCase;

const std::regex kAnnotation(R"(^::(error|warning|notice) file=[^,]+,line=\d+,title=[^:]+::.+$)");

TEST(GithubEscape, DataEscapesPercentAndLineBreaksPropertiesAlsoColonAndComma) {
  EXPECT_EQ(GithubEscapeData("100%\r\nx: a,b"), "100%25%0D%0Ax: a,b");
  EXPECT_EQ(GithubEscapeProperty("C:\\logs\\a,b%.log"), "C%3A\\logs\\a%2Cb%25.log");
}

TEST(GithubReport, EveryFindingIsOneWellFormedAnnotationThenASummary) {
  auto lines = Lines(Render(WriteGithubReport, SmallCase()));
  ASSERT_EQ(lines.size(), 4u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::regex_match(lines[i], kAnnotation)) << lines[i];
  EXPECT_EQ(lines[3].rfind("ncclscope: 1 error, 1 warning, 1 info", 0), 0u) << lines[3];
}

TEST(GithubReport, SeverityMapsToErrorWarningNoticeAtFirstEvidenceLine) {
  auto lines = Lines(Render(WriteGithubReport, SmallCase()));
  EXPECT_EQ(lines[0].rfind("::error file=train.log,line=12,title=socket-fallback::", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1].rfind("::warning file=train.log,line=40,title=slow-init::", 0), 0u);
  EXPECT_EQ(lines[2].rfind("::notice file=train.log,line=1,title=nccl-version::", 0), 0u);
  EXPECT_NE(lines[0].find("%0Afix: set NCCL_IB_HCA"), std::string::npos);
}

TEST(GithubReport, HostilePathAndMessageStayOnOneEscapedLine) {
  ReportCase c = SmallCase();
  c.job.sources[0].name = "logs/run,1:a%.log";
  c.findings[0].message = "50% of links\nare TCP, see: x";
  auto lines = Lines(Render(WriteGithubReport, c));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(std::regex_match(lines[0], kAnnotation)) << lines[0];
  EXPECT_NE(lines[0].find("file=logs/run%2C1%3Aa%25.log,line=12"), std::string::npos);
  EXPECT_NE(lines[0].find("50%25 of links%0Aare TCP, see: x"), std::string::npos);
}

TEST(GithubReport, TwoNodesLogAnnotationsMatchTheSyntaxAndEndWithSummary) {
  ReportCase c = testing::CorpusCase("corpus/h200x4/two_nodes.log");
  c.findings = SmallCase().findings;
  auto lines = Lines(Render(FindReportFormat("github")->write, c));
  ASSERT_FALSE(lines.empty());
  for (const auto& l : lines) {
    if (l.rfind("::", 0) == 0) {
      EXPECT_TRUE(std::regex_match(l, kAnnotation)) << l;
    }
  }
  EXPECT_NE(lines.back().find("1 host, 4 processes, 5 communicators"), std::string::npos)
      << lines.back();
}

}  // namespace
}  // namespace ncclscope
