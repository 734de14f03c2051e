// Rule listing and documentation coverage.
#include "ncclscope/rules/rule_list.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ncclscope/rules/knowledge.h"
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

TEST(RuleList, TextListsTheMessagesOfEachRuleWithMeaningAndFix) {
  std::string text = RenderRuleListText();
  for (const KnownMessage& m : KnowledgeBase()) {
    if (m.rule == kBenignRule) continue;
    EXPECT_NE(text.find("    - " + std::string(m.id) + " ("), std::string::npos) << m.id;
    EXPECT_NE(text.find(std::string(m.meaning)), std::string::npos) << m.id;
  }
}

TEST(RuleList, JsonMessagesBelongToTheirRule) {
  auto j = nlohmann::json::parse(RenderRuleListJson(), nullptr, false);
  ASSERT_TRUE(j.is_array());
  size_t listed = 0;
  for (const auto& rule : j) {
    for (const auto& m : rule["messages"]) {
      const KnownMessage* known = FindKnownMessage(m["id"].get<std::string>());
      ASSERT_NE(known, nullptr);
      EXPECT_EQ(known->rule, rule["id"].get<std::string>());
      EXPECT_FALSE(m["fix"].get<std::string>().empty());
      ++listed;
    }
  }
  size_t reported = 0;
  for (const KnownMessage& m : KnowledgeBase()) reported += m.rule != kBenignRule;
  EXPECT_EQ(listed, reported);
}

TEST(RuleDocs, MessageListIsCurrent) {
  // docs/rules.md holds `ncclscope rules --format markdown` verbatim: regenerate it with
  //   build/ncclscope rules --format markdown  (replacing the section up to the end of the file)
  std::string doc = ReadFileOrDie(TestData("../docs/rules.md"));
  EXPECT_NE(doc.find(RenderRuleListMarkdown()), std::string::npos)
      << "docs/rules.md: the 'Messages each rule reads' section is not the current output of "
         "`ncclscope rules --format markdown`";
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
