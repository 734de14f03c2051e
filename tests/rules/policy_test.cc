// Policy parsing and application.
#include "ncclscope/rules/policy.h"

#include <gtest/gtest.h>

#include "job_fixtures.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

TEST(Policy, LoadsExampleFile) {
  Policy p;
  Status s = LoadPolicy(TestData("policy/ci-gate.json"), &p);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(p.intra_node.size(), 2u);
  EXPECT_EQ(p.inter_node.size(), 2u);
  EXPECT_TRUE(p.require_gdrdma);
  EXPECT_EQ(p.expect_ranks, 16);
  EXPECT_EQ(p.expect_nodes, 2);
  EXPECT_EQ(p.severity.at("p2p-read-mode"), Severity::kWarning);
  EXPECT_EQ(p.ignore.count("env-override"), 1u);
  RuleOptions o;
  ApplyPolicyThresholds(p, &o);
  EXPECT_DOUBLE_EQ(o.slow_init_seconds, 30);
}

TEST(Policy, MissingFileIsNotFound) {
  Policy p;
  Status s = LoadPolicy(TestData("policy/none.json"), &p);
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
}

TEST(Policy, UnknownKeyIsError) {
  Policy p;
  Status s = ParsePolicy(R"({"transport": {}})", "p.json", &p);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidInput);
  EXPECT_NE(s.message().find("p.json"), std::string::npos);
  EXPECT_NE(s.message().find("\"transport\""), std::string::npos);
  s = ParsePolicy(R"({"transports": {"intra": ["NVL"]}})", "p.json", &p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("transports.intra"), std::string::npos);
}

TEST(Policy, WrongTypesAreErrors) {
  Policy p;
  for (const char* text :
       {R"({"expect": {"ranks": "16"}})", R"({"transports": {"require_gdrdma": 1}})",
        R"({"transports": {"inter_node": "NET/IB"}})", R"({"ignore": "env-override"})",
        R"({"severity": {"p2p-read-mode": "loud"}})", R"({"thresholds": {"init_seconds": -1}})",
        R"({"transports": {"inter_node": ["NET/Carrier-Pigeon"]}})", R"({"ignore": ["nope"]})",
        R"([1, 2])", R"({"expect": )"}) {
    Status s = ParsePolicy(text, "p.json", &p);
    EXPECT_FALSE(s.ok()) << text;
    EXPECT_NE(s.message().find("p.json"), std::string::npos) << s.message();
  }
  Status s = ParsePolicy(R"({"expect": {"ranks": "16"}})", "p.json", &p);
  EXPECT_NE(s.message().find("expect.ranks"), std::string::npos);
  EXPECT_NE(s.message().find("integer"), std::string::npos);
}

TEST(Policy, ViolationsNameLinks) {
  JobFixture fx;
  fx.AddProcess("a", 0);
  fx.AddProcess("b", 1);
  int c = fx.AddComm("0xabc", 2, 0, 2, 1);
  fx.AddLink(c, 0, 1, TransportClass::kNetSocket, "NET/Socket/0", false, false);
  fx.AddLink(c, 1, 0, TransportClass::kNetIB, "NET/IB/0", false, false);
  Policy p;
  ASSERT_TRUE(ParsePolicy(R"({"transports": {"inter_node": ["NET/IB"], "require_gdrdma": true},
                              "expect": {"ranks": 2, "nodes": 4}})",
                          "p.json", &p)
                  .ok());
  std::vector<Finding> findings;
  ApplyPolicy(p, fx.job(), &findings);
  ASSERT_EQ(findings.size(), 3u);  // inter-node class, GDR, nodes
  for (const Finding& f : findings) {
    EXPECT_EQ(f.rule, "policy-violation");
    EXPECT_EQ(f.severity, Severity::kError);
  }
  bool socket_named = false;
  for (const Finding& f : findings) {
    if (f.message.find("comm 0xabc 0->1 via NET/Socket/0 (NET/Socket)") != std::string::npos) {
      socket_named = true;
    }
  }
  EXPECT_TRUE(socket_named);
}

TEST(Policy, IgnoreAndSeverityOverride) {
  JobFixture fx = HealthySingleNode();
  for (Link& l : fx.job().links) l.read = true;
  fx.SetEnv(0, "NCCL_CUMEM_ENABLE", "0");
  auto findings = fx.Run();
  ASSERT_FALSE(Of(findings, "env-override").empty());
  Policy p;
  ASSERT_TRUE(ParsePolicy(R"({"severity": {"p2p-read-mode": "error"}, "ignore": ["env-override"]})",
                          "p.json", &p)
                  .ok());
  ApplyPolicy(p, fx.job(), &findings);
  EXPECT_TRUE(Of(findings, "env-override").empty());
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().rule, "p2p-read-mode");
  EXPECT_EQ(findings.front().severity, Severity::kError);
}

}  // namespace
}  // namespace ncclscope::testing
