// JUnit writer: one test case per rule, failures for warning/error, system-out for info,
// well-formed XML on hand-built and real input.
#include "ncclscope/report/junit_report.h"

#include <gtest/gtest.h>

#include "report/report_fixtures.h"
#include "report/xml_checker.h"

namespace ncclscope {
namespace {

using testing::Count;
using testing::ReportCase;
using testing::SmallCase;
using testing::XmlProblem;

std::string Junit(const ReportCase& c, const std::vector<std::string>& ids) {
  std::ostringstream out;
  WriteJunit(c.input(), ids, out);
  return out.str();
}

TEST(JunitReport, OneTestCasePerRuleWithTestsAndFailuresCounted) {
  std::string xml = Junit(SmallCase(), {"socket-fallback", "slow-init", "nccl-version", "quiet"});
  EXPECT_EQ(XmlProblem(xml), "") << xml;
  // The four rules and the root-cause test case (passing: the small case's job did not fail).
  EXPECT_NE(xml.find("<testsuite name=\"ncclscope\" tests=\"5\" failures=\"2\" errors=\"0\""),
            std::string::npos)
      << xml;
  EXPECT_EQ(Count(xml, "<testcase classname=\"ncclscope.rules\""), 4);
  EXPECT_NE(xml.find("name=\"quiet\"/>"), std::string::npos);
}

TEST(JunitReport, RuleWithFindingsButNotListedStillGetsATestCase) {
  std::string xml = Junit(SmallCase(), {"quiet"});
  EXPECT_EQ(Count(xml, "<testcase "), 5);  // with the root-cause test case
  EXPECT_NE(xml.find("name=\"slow-init\""), std::string::npos);
}

TEST(JunitReport, FailureCarriesSeverityTypeMessageAndEvidenceLines) {
  std::string xml = Junit(SmallCase(), {});
  EXPECT_NE(xml.find("<failure message=\"Inter-node traffic falls back to TCP sockets: 6 links"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("type=\"error\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"warning\""), std::string::npos);
  EXPECT_NE(xml.find("train.log:12: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 100%"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("train.log:13: second line"), std::string::npos);
  EXPECT_NE(xml.find("fix: set NCCL_IB_HCA"), std::string::npos);
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
}

TEST(JunitReport, InfoFindingGoesToSystemOutAndDoesNotFail) {
  std::string xml = Junit(SmallCase(), {});
  size_t tc = xml.find("name=\"nccl-version\"");
  ASSERT_NE(tc, std::string::npos);
  size_t end = xml.find("</testcase>", tc);
  std::string body = xml.substr(tc, end - tc);
  EXPECT_NE(body.find("<system-out>[info] NCCL 2.21.5"), std::string::npos) << body;
  EXPECT_EQ(body.find("<failure"), std::string::npos);
}

TEST(JunitReport, ControlCharactersAndInvalidUtf8StillGiveWellFormedXml) {
  ReportCase c = SmallCase();
  c.findings[0].message = std::string("bad\x01\x02 bytes \xff\xfe <&> \"q\" \x1b[0m", 26);
  c.findings[0].rule = "rule\"with<odd>&chars";
  std::string xml = Junit(c, {});
  EXPECT_EQ(XmlProblem(xml), "") << xml;
  EXPECT_NE(xml.find("name=\"rule&quot;with&lt;odd&gt;&amp;chars\""), std::string::npos);
}

TEST(JunitReport, InputProblemsAreErroringTestCases) {
  ReportCase c = SmallCase();
  c.problems.push_back(InputProblem{"missing.log", "cannot open: No such file"});
  std::string xml = Junit(c, {});
  EXPECT_EQ(XmlProblem(xml), "") << xml;
  EXPECT_NE(xml.find("errors=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("<error message=\"cannot open: No such file\" type=\"input\">"),
            std::string::npos);
}

TEST(JunitReport, TwoNodesLogGivesWellFormedXmlThroughTheFormatTable) {
  ReportCase c = testing::CorpusCase("corpus/h200x4/two_nodes.log");
  c.findings = SmallCase().findings;
  const ReportFormat* f = FindReportFormat("junit");
  ASSERT_NE(f, nullptr);
  std::string xml = testing::Render(f->write, c);
  EXPECT_EQ(XmlProblem(xml), "") << xml;
  EXPECT_NE(xml.find("two_nodes.log:12: "), std::string::npos);
  EXPECT_GE(Count(xml, "<testcase "), 3);
}

}  // namespace
}  // namespace ncclscope
