// SARIF writer: rule descriptors from the registry, results with level, message and one location
// per evidence line, URIs of the inputs as given, the invocation's exit code and input problems.
// The whole log is validated against the official schema by tests/report/sarif_schema_test.sh.
#include "ncclscope/report/sarif_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ncclscope/rules/registry.h"
#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using nlohmann::json;
using testing::Render;
using testing::ReportCase;
using testing::SmallCase;

json Sarif(const ReportCase& c, const ReportOptions& opts = {}) {
  return json::parse(Render(WriteSarifReport, c, opts));
}

const json* RuleById(const json& log, std::string_view id) {
  for (const auto& r : log["runs"][0]["tool"]["driver"]["rules"]) {
    if (r["id"] == id) return &r;
  }
  return nullptr;
}

TEST(SarifUri, KeepsThePathAsGivenAndPercentEncodesWhatAUriCannotHold) {
  EXPECT_EQ(SarifUri("logs/node-0/nccl.1234.log"), "logs/node-0/nccl.1234.log");
  EXPECT_EQ(SarifUri("/var/log/a b#1?.log"), "/var/log/a%20b%231%3F.log");
  EXPECT_EQ(SarifUri("c:d/50%[x].log"), "c%3Ad/50%25%5Bx%5D.log");
  EXPECT_EQ(SarifUri("caf\xc3\xa9.log"), "caf%C3%A9.log");
}

TEST(SarifRuleName, CamelCasesTheRuleId) {
  EXPECT_EQ(SarifRuleName("socket-fallback"), "SocketFallback");
  EXPECT_EQ(SarifRuleName("p2p-read-mode"), "P2pReadMode");
}

TEST(SarifReport, IsOneRunOfVersion210WithTheOasisSchema) {
  json log = Sarif(SmallCase());
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_NE(log["$schema"].get<std::string>().find("sarif-schema-2.1.0.json"), std::string::npos);
  ASSERT_EQ(log["runs"].size(), 1u);
  EXPECT_EQ(log["runs"][0]["tool"]["driver"]["name"], "ncclscope");
  EXPECT_EQ(log["runs"][0]["tool"]["driver"]["version"], NCCLSCOPE_VERSION);
}

TEST(SarifReport, EveryRegistryRuleAndThePolicyRuleHaveADescriptorWithTitleFixAndLevel) {
  json log = Sarif(SmallCase());
  for (const auto& rule : AllRules()) {
    const json* d = RuleById(log, rule->id());
    ASSERT_NE(d, nullptr) << rule->id();
    EXPECT_EQ((*d)["shortDescription"]["text"], std::string(rule->title()));
    EXPECT_NE((*d)["fullDescription"]["text"].get<std::string>().find(std::string(rule->fix())),
              std::string::npos);
    std::string_view want = rule->default_severity() == Severity::kError     ? "error"
                            : rule->default_severity() == Severity::kWarning ? "warning"
                                                                             : "note";
    EXPECT_EQ((*d)["defaultConfiguration"]["level"], want) << rule->id();
  }
  EXPECT_NE(RuleById(log, "policy-violation"), nullptr);
}

TEST(SarifReport, HelpUriPointsAtTheRuleInRulesMdWhenTheDocsAddressIsKnown) {
  ReportOptions opts;
  opts.docs_url = "https://github.com/acme/ncclscope/blob/v1/docs";
  json log = Sarif(SmallCase(), opts);
  EXPECT_EQ((*RuleById(log, "socket-fallback"))["helpUri"],
            "https://github.com/acme/ncclscope/blob/v1/docs/rules.md#socket-fallback");
  EXPECT_EQ(log["runs"][0]["tool"]["driver"]["informationUri"], opts.docs_url);
  json without = Sarif(SmallCase());
  EXPECT_FALSE(RuleById(without, "socket-fallback")->contains("helpUri"));
  EXPECT_FALSE(without["runs"][0]["tool"]["driver"].contains("informationUri"));
}

TEST(SarifReport, ResultsCarryLevelMessageAndOneLocationPerEvidenceLine) {
  json log = Sarif(SmallCase());
  const json& results = log["runs"][0]["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["ruleId"], "socket-fallback");
  EXPECT_EQ(results[0]["level"], "error");
  EXPECT_EQ(results[1]["level"], "warning");
  EXPECT_EQ(results[2]["level"], "note");
  const std::string msg = results[0]["message"]["text"];
  EXPECT_EQ(msg.rfind("Inter-node traffic falls back to TCP sockets: 6 links", 0), 0u) << msg;
  EXPECT_NE(msg.find("Fix: set NCCL_IB_HCA"), std::string::npos);
  ASSERT_EQ(results[0]["locations"].size(), 2u);
  const json& loc = results[0]["locations"][1]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "train.log");
  EXPECT_EQ(loc["region"]["startLine"], 13);
  EXPECT_EQ(loc["region"]["snippet"]["text"], "second line");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["snippet"]["text"],
            std::string(testing::kHostileText));
}

TEST(SarifReport, RuleIndexPointsAtTheDescriptorOfTheResultsRule) {
  json log = Sarif(SmallCase());
  const json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  for (const auto& r : log["runs"][0]["results"]) {
    size_t i = r["ruleIndex"];
    ASSERT_LT(i, rules.size());
    EXPECT_EQ(rules[i]["id"], r["ruleId"]);
  }
  // "nccl-version" is not a registry rule: it gets a descriptor from its finding.
  EXPECT_EQ((*RuleById(log, "nccl-version"))["shortDescription"]["text"], "NCCL 2.21.5");
}

TEST(SarifReport, PodSourceAndStdinPointAtTheirInput) {
  ReportCase c = SmallCase();
  SourceInfo pod;
  pod.name = "job.log[pod/train-0]";
  pod.pod = "train-0";
  SourceInfo in;
  in.name = "<stdin>";
  c.job.sources.push_back(pod);
  c.job.sources.push_back(in);
  c.findings[0].evidence = {Evidence{1, 7, "x", {}}, Evidence{2, 3, "y", {}}};
  json log = Sarif(c);
  const json& locs = log["runs"][0]["results"][0]["locations"];
  EXPECT_EQ(locs[0]["physicalLocation"]["artifactLocation"]["uri"], "job.log");
  EXPECT_EQ(locs[0]["physicalLocation"]["artifactLocation"]["description"]["text"],
            "kubectl pod train-0");
  EXPECT_FALSE(locs[1]["physicalLocation"]["artifactLocation"].contains("uri"));
  EXPECT_EQ(locs[1]["physicalLocation"]["region"]["startLine"], 3);
}

TEST(SarifReport, FindingWithoutEvidenceIsPlacedOnTheFirstInput) {
  ReportCase c = SmallCase();
  c.findings[1].evidence.clear();
  json log = Sarif(c);
  const json& locs = log["runs"][0]["results"][1]["locations"];
  ASSERT_EQ(locs.size(), 1u);
  EXPECT_EQ(locs[0]["physicalLocation"]["artifactLocation"]["uri"], "train.log");
  EXPECT_FALSE(locs[0]["physicalLocation"].contains("region"));
}

TEST(SarifReport, InvocationHasTheExitCodeAndInputProblemsAsNotifications) {
  ReportCase c = SmallCase();
  c.problems.push_back(InputProblem{"missing.log", "No such file or directory"});
  ReportOptions opts;
  opts.exit_code = 2;
  json inv = Sarif(c, opts)["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["exitCode"], 2);
  EXPECT_FALSE(inv["executionSuccessful"]);
  ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["level"], "error");
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]
               ["artifactLocation"]["uri"],
            "missing.log");

  opts.exit_code = 1;  // Findings: the run itself succeeded.
  json ok = Sarif(SmallCase(), opts)["runs"][0]["invocations"][0];
  EXPECT_EQ(ok["exitCode"], 1);
  EXPECT_TRUE(ok["executionSuccessful"]);
  EXPECT_EQ(ok["exitCodeDescription"], "findings at or above --fail-on");
}

TEST(SarifReport, NoNcclLinesIsAWarningNotificationOfASuccessfulRun) {
  ReportOptions opts;
  opts.exit_code = 3;
  json inv = Sarif(SmallCase(), opts)["runs"][0]["invocations"][0];
  EXPECT_TRUE(inv["executionSuccessful"]);
  ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["level"], "warning");
  EXPECT_FALSE(Sarif(SmallCase())["runs"][0]["invocations"][0].contains(
      "toolExecutionNotifications"));
}

TEST(SarifReport, InvalidUtf8InEvidenceStillGivesValidJson) {
  ReportCase c = SmallCase();
  c.findings[0].evidence[0].text = "bad \xff\xfe bytes";
  EXPECT_NO_THROW(Sarif(c));
}

}  // namespace
}  // namespace ncclscope
