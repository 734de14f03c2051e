// Rule listing and documentation coverage.
#include "ncclscope/rules/rule_list.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ncclscope/rules/registry.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

TEST(RuleList, TextHasEveryRule) {
  std::string text = RenderRuleListText();
  for (const auto& r : AllRules()) {
    EXPECT_NE(text.find(std::string(r->id())), std::string::npos) << r->id();
  }
}

TEST(RuleList, JsonHasFields) {
  auto j = nlohmann::json::parse(RenderRuleListJson(), nullptr, false);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), AllRules().size());
  EXPECT_EQ(j[0]["id"], std::string(AllRules()[0]->id()));
  for (const auto& e : j) {
    EXPECT_TRUE(e["severity"] == "info" || e["severity"] == "warning" || e["severity"] == "error");
    EXPECT_FALSE(e["fix"].get<std::string>().empty());
    EXPECT_FALSE(e["title"].get<std::string>().empty());
  }
}

TEST(RuleDocs, EveryRuleHasAHeading) {
  std::string doc = ReadFileOrDie(TestData("../docs/rules.md"));
  for (const auto& r : AllRules()) {
    EXPECT_NE(doc.find("\n## " + std::string(r->id()) + "\n"), std::string::npos)
        << "docs/rules.md lacks a '## " << r->id() << "' heading";
  }
  EXPECT_NE(doc.find("\n## policy-violation\n"), std::string::npos);
}

}  // namespace
}  // namespace ncclscope::testing
