// JobMessages: every message a job's log states (WARN lines, notable INFO lines, errors the
// framework surfaced), each paired once with the knowledge entry that explains it and the rule
// that reports it. Built once per rule run (RunRules) so that every rule reads the same answer:
// each warning belongs to exactly one rule, and `nccl-warn` reports the ones no rule claims.
#ifndef NCCLSCOPE_RULES_JOB_MESSAGES_H_
#define NCCLSCOPE_RULES_JOB_MESSAGES_H_

#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"
#include "ncclscope/rules/knowledge.h"

namespace ncclscope {

/// The id of the catch-all rule for warnings that no other rule claims.
inline constexpr std::string_view kUnclaimedWarningRule = "nccl-warn";

struct MessageHit {
  enum class Source : uint8_t { kWarning, kNotice, kFramework };
  Source source = Source::kWarning;
  const KnownMessage* known = nullptr;  ///< nullptr when only a category fallback claims it.
  std::string_view rule;                ///< Reporting rule; kBenignRule for harmless messages.
  const WarnRecord* record = nullptr;   ///< For warnings and notices (points into the Job).
  const FrameworkRecord* framework = nullptr;  ///< For framework errors.
  std::string_view text;                       ///< The message (a view into the Job).
  MessageDetails details;
};

struct JobMessages {
  std::vector<MessageHit> hits;
  /// The hits a rule reports, in job order.
  std::vector<const MessageHit*> OfRule(std::string_view rule) const;
};

/// Pairs every warning, notice and framework error of the job with its knowledge entry and
/// rule. Notices and framework lines that no entry explains are left out (other rules or none
/// report them); every warning is kept (nccl-warn when nothing else claims it).
JobMessages BuildJobMessages(const Job& job);

/// The rule reporting a warning: its knowledge entry's rule, else a fallback by category
/// (socket → connection-error, cuda → cuda-error, ...), else nccl-warn; kBenignRule for
/// known-harmless probing.
std::string_view RuleOfWarning(const WarnRecord& w);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_JOB_MESSAGES_H_
