// Policy: a JSON file (--policy FILE) for CI gates: expected transports and counts, per-rule
// severity overrides, ignored rules and thresholds. docs/policy.md documents the schema.
#ifndef NCCLSCOPE_RULES_POLICY_H_
#define NCCLSCOPE_RULES_POLICY_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/transport_class.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/rule_options.h"

namespace ncclscope {

/// The rule of the findings a policy adds, as rule lists (SARIF, JUnit) describe it.
inline constexpr std::string_view kPolicyRuleId = "policy-violation";
inline constexpr std::string_view kPolicyRuleTitle = "The job breaks the CI policy (--policy)";
inline constexpr std::string_view kPolicyRuleFix =
    "Fix the configuration (see the other findings for the cause) or update the policy file if "
    "the expectation is wrong.";

struct Policy {
  std::string name;  ///< File name (for messages).
  /// Allowed classes for links within a node / between nodes; empty = no expectation.
  std::vector<TransportClass> intra_node;
  std::vector<TransportClass> inter_node;
  bool require_gdrdma = false;                ///< NET/IB and NET/Libfabric links must have /GDRDMA.
  std::optional<int> expect_ranks;            ///< World size (largest top-level communicator).
  std::optional<int> expect_nodes;            ///< NCCL nodes (max nNodes of a communicator).
  std::optional<int> expect_hosts;            ///< Physical hosts.
  std::map<std::string, Severity> severity;   ///< Rule id → severity.
  std::set<std::string> ignore;               ///< Rule ids to drop.
  std::optional<double> init_seconds;         ///< → RuleOptions::slow_init_seconds.
  std::optional<double> init_outlier_factor;  ///< → RuleOptions::slow_init_outlier_factor.
};

/// Parses policy JSON; `name` names the source in error messages. Unknown keys, wrong types,
/// unknown transport classes, severities or rule ids are errors (InvalidInput).
Status ParsePolicy(std::string_view json_text, std::string_view name, Policy* out);
/// Reads and parses a policy file (NotFound/IoError if unreadable).
Status LoadPolicy(const std::string& path, Policy* out);
/// Feeds the policy's thresholds into the rule options.
void ApplyPolicyThresholds(const Policy& policy, RuleOptions* options);
/// Adds `policy-violation` findings for links/counts that break the policy, applies severity
/// overrides and ignores, and re-sorts the findings.
void ApplyPolicy(const Policy& policy, const Job& job, std::vector<Finding>* findings);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_POLICY_H_
