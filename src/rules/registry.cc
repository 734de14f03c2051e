#include "ncclscope/rules/registry.h"

#include <algorithm>

#include "rule_factories.h"

namespace ncclscope {
namespace {

std::vector<std::unique_ptr<Rule>> BuildRules() {
  using namespace rules_internal;
  std::vector<std::unique_ptr<Rule>> rules;
  rules.push_back(MakeDebugInfoMissingRule());
  rules.push_back(MakeNcclVersionMismatchRule());
  rules.push_back(MakeNcclErrorRule());
  rules.push_back(MakeWatchdogTimeoutRule());
  rules.push_back(MakeInitIncompleteRule());
  rules.push_back(MakeHangSuspectedRule());
  rules.push_back(MakeNetPluginFailedRule());
  rules.push_back(MakeSocketFallbackRule());
  rules.push_back(MakeIntraNodeNetRule());
  rules.push_back(MakeBootstrapInterfaceRule());
  rules.push_back(MakeShmFailureRule());
  rules.push_back(MakeIbErrorRule());
  rules.push_back(MakeNetErrorRule());
  rules.push_back(MakeConnectionErrorRule());
  rules.push_back(MakeRanksDisagreeRule());
  rules.push_back(MakeCudaErrorRule());
  rules.push_back(MakeNvlsFailureRule());
  rules.push_back(MakeCollNetFailureRule());
  rules.push_back(MakeDuplicateGpuRule());
  rules.push_back(MakeP2pDisabledRule());
  rules.push_back(MakeNoGdrdmaRule());
  rules.push_back(MakeSlowInitRule());
  rules.push_back(MakeEnvMismatchRule());
  rules.push_back(MakeRankInconsistencyRule());
  rules.push_back(MakeCostlySettingRule());
  rules.push_back(MakeEnvOverrideRule());
  rules.push_back(MakeP2pReadModeRule());
  rules.push_back(MakeP2pPathUnknownRule());
  rules.push_back(MakeNcclWarnRule());
  return rules;
}

size_t RuleOrder(std::string_view id) {
  const auto& rules = AllRules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rules[i]->id() == id) return i;
  }
  return rules.size();
}

}  // namespace

const std::vector<std::unique_ptr<Rule>>& AllRules() {
  static const std::vector<std::unique_ptr<Rule>>* const kRules =
      new std::vector<std::unique_ptr<Rule>>(BuildRules());
  return *kRules;
}

const Rule* FindRule(std::string_view id) {
  for (const auto& r : AllRules()) {
    if (r->id() == id) return r.get();
  }
  return nullptr;
}

void SortFindings(std::vector<Finding>* findings) {
  std::stable_sort(findings->begin(), findings->end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return RuleOrder(a.rule) < RuleOrder(b.rule);
  });
}

std::vector<Finding> RunRules(const Job& job, const RuleOptions& options) {
  std::vector<Finding> findings;
  const JobMessages messages = BuildJobMessages(job);
  RuleContext ctx{job, options, messages};
  for (const auto& r : AllRules()) r->Check(ctx, &findings);
  SortFindings(&findings);
  return findings;
}

}  // namespace ncclscope
