// Rule: one check over the job model. Each rule lives in its own file under src/rules/ and is
// listed once in the registry (src/rules/registry.cc).
#ifndef NCCLSCOPE_RULES_RULE_H_
#define NCCLSCOPE_RULES_RULE_H_

#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/job_messages.h"
#include "ncclscope/rules/rule_options.h"

namespace ncclscope {

/// What a rule sees: the model, the thresholds in force, and the job's messages paired with
/// the knowledge that explains them (built once per run).
struct RuleContext {
  const Job& job;
  const RuleOptions& options;
  const JobMessages& messages;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view id() const = 0;
  virtual Severity default_severity() const = 0;
  virtual std::string_view title() const = 0;
  /// Generic fix text (findings may specialise it).
  virtual std::string_view fix() const = 0;
  /// Appends zero or more findings. Must not throw; must stay quiet on healthy jobs.
  virtual void Check(const RuleContext& ctx, std::vector<Finding>* out) const = 0;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_RULE_H_
