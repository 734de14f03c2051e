#include "ncclscope/rules/rule_list.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ncclscope/rules/knowledge.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

/// The non-empty strings of a fixed-size table field.
template <size_t N>
std::vector<std::string> NonEmpty(const std::array<std::string_view, N>& items) {
  std::vector<std::string> out;
  for (std::string_view s : items) {
    if (!s.empty()) out.emplace_back(s);
  }
  return out;
}

/// Markdown inline code that survives backticks inside the text.
std::string Code(std::string_view text) {
  const std::string fence = text.find('`') == std::string_view::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  return fence + std::string(text) + close;
}

}  // namespace

std::string RenderRuleListText() {
  size_t width = 0;
  for (const auto& r : AllRules()) width = std::max(width, r->id().size());
  std::string out;
  for (const auto& r : AllRules()) {
    std::string id(r->id());
    std::string sev(SeverityName(r->default_severity()));
    out += id + std::string(width - id.size() + 2, ' ') + sev +
           std::string(9 - std::min<size_t>(sev.size(), 8), ' ') + std::string(r->title()) + "\n";
    out += "    fix: " + std::string(r->fix()) + "\n";
    for (const KnownMessage* m : KnownMessagesOfRule(r->id())) {
      out += "    - " + std::string(m->id) + " (" + std::string(SeverityName(m->severity)) +
             "): " + std::string(m->title) + "\n";
      out += "      means: " + std::string(m->meaning) + "\n";
      out += "      fix: " + std::string(m->fix) + "\n";
    }
  }
  out += "\n`ncclscope explain RULE|MESSAGE-ID` prints a rule's or a message's causes, versions "
         "and example lines.\n";
  return out;
}

std::string RenderRuleListJson() {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : AllRules()) {
    nlohmann::json messages = nlohmann::json::array();
    for (const KnownMessage* m : KnownMessagesOfRule(r->id())) {
      messages.push_back({{"id", std::string(m->id)},
                          {"family", std::string(m->family)},
                          {"severity", std::string(SeverityName(m->severity))},
                          {"title", std::string(m->title)},
                          {"meaning", std::string(m->meaning)},
                          {"causes", NonEmpty(m->causes)},
                          {"fix", std::string(m->fix)},
                          {"versions", std::string(m->versions)},
                          {"patterns", NonEmpty(m->patterns)},
                          {"examples", NonEmpty(m->examples)}});
    }
    arr.push_back({{"id", std::string(r->id())},
                   {"severity", std::string(SeverityName(r->default_severity()))},
                   {"title", std::string(r->title())},
                   {"fix", std::string(r->fix())},
                   {"messages", std::move(messages)}});
  }
  return arr.dump(2) + "\n";
}

std::string RenderRuleListMarkdown() {
  std::string out =
      "## Messages each rule reads\n\n"
      "Generated from the knowledge table by `ncclscope rules --format markdown` (the test "
      "`RuleDocs.MessageListIsCurrent` keeps it in sync). Patterns are case-insensitive "
      "fragments, `*` is any text. Rules not listed here read the job model, not messages.\n";
  for (const auto& r : AllRules()) {
    std::vector<const KnownMessage*> messages = KnownMessagesOfRule(r->id());
    if (messages.empty()) continue;
    out += "\n**" + std::string(r->id()) + "**\n\n";
    for (const KnownMessage* m : messages) {
      out += "- " + Code(m->id) + " (" + std::string(SeverityName(m->severity)) + "): **" +
             std::string(m->title) + "**. " + std::string(m->meaning) +
             " *Fix:* " + std::string(m->fix) + " *Messages:*";
      bool first = true;
      for (const std::string& p : NonEmpty(m->patterns)) {
        out += (first ? " " : ", ") + Code(p);
        first = false;
      }
      if (!m->versions.empty()) out += " (" + std::string(m->versions) + ")";
      out += "\n";
    }
  }
  out += "\nKnown harmless messages (explained by `ncclscope explain`, never reported):";
  bool first = true;
  for (const KnownMessage& m : KnowledgeBase()) {
    if (m.rule != kBenignRule) continue;
    out += (first ? " " : ", ") + Code(m.id);
    first = false;
  }
  out += ".\n";
  return out;
}

}  // namespace ncclscope
