#include "ncclscope/rules/rule_list.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ncclscope/rules/registry.h"

namespace ncclscope {

std::string RenderRuleListText() {
  size_t width = 0;
  for (const auto& r : AllRules()) width = std::max(width, r->id().size());
  std::string out;
  for (const auto& r : AllRules()) {
    std::string id(r->id());
    std::string sev(SeverityName(r->default_severity()));
    out += id + std::string(width - id.size() + 2, ' ') + sev +
           std::string(9 - std::min<size_t>(sev.size(), 8), ' ') + std::string(r->title()) + "\n";
  }
  return out;
}

std::string RenderRuleListJson() {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : AllRules()) {
    arr.push_back({{"id", std::string(r->id())},
                   {"severity", std::string(SeverityName(r->default_severity()))},
                   {"title", std::string(r->title())},
                   {"fix", std::string(r->fix())}});
  }
  return arr.dump(2) + "\n";
}

}  // namespace ncclscope
