#include "ncclscope/rules/job_messages.h"

#include "rule_util.h"

namespace ncclscope {
namespace {

using rules_internal::ContainsNoCase;

/// Fallback for warnings the knowledge table does not know: the rule of their family.
std::string_view FallbackRule(const WarnRecord& w) {
  const std::string& m = w.message;
  switch (w.category) {
    case WarnCategory::kShm:
      return "shm-failure";
    case WarnCategory::kSocket:
    case WarnCategory::kProxy:
    case WarnCategory::kBootstrap:
      return "connection-error";
    case WarnCategory::kCuda:
      return "cuda-error";
    case WarnCategory::kIb:
      return "ib-error";
    case WarnCategory::kOfi:
      return "net-error";  // OFI warnings that are not initialisation failures: runtime errors
    case WarnCategory::kPlugin:
      return "net-plugin-failed";
    case WarnCategory::kNvls:
      return "nvls-failure";
    case WarnCategory::kCollNet:
      return "collnet-failure";
    case WarnCategory::kSyscall:
    case WarnCategory::kOther:
      break;
  }
  if (ContainsNoCase(m, "shared memory") || ContainsNoCase(m, "/dev/shm")) return "shm-failure";
  if (ContainsNoCase(m, "ibv_") || ContainsNoCase(m, "memlock")) return "ib-error";
  if (ContainsNoCase(m, "NVLS")) return "nvls-failure";
  if (ContainsNoCase(m, "CollNet")) return "collnet-failure";
  return kUnclaimedWarningRule;
}

}  // namespace

std::string_view RuleOfWarning(const WarnRecord& w) {
  if (const KnownMessage* k = MatchMessage(w.message, w.location)) return k->rule;
  return FallbackRule(w);
}

std::vector<const MessageHit*> JobMessages::OfRule(std::string_view rule) const {
  std::vector<const MessageHit*> out;
  for (const MessageHit& h : hits) {
    if (h.rule == rule) out.push_back(&h);
  }
  return out;
}

JobMessages BuildJobMessages(const Job& job) {
  JobMessages out;
  for (const WarnRecord& w : job.warnings) {
    MessageHit h;
    h.source = MessageHit::Source::kWarning;
    h.record = &w;
    h.text = w.message;
    h.known = MatchMessage(w.message, w.location);
    h.rule = h.known != nullptr ? h.known->rule : FallbackRule(w);
    h.details = ExtractDetails(w.message);
    out.hits.push_back(std::move(h));
  }
  for (const WarnRecord& n : job.notices) {
    const KnownMessage* k = MatchMessage(n.message, n.location);
    if (k == nullptr) continue;
    MessageHit h;
    h.source = MessageHit::Source::kNotice;
    h.record = &n;
    h.text = n.message;
    h.known = k;
    h.rule = k->rule;
    h.details = ExtractDetails(n.message);
    out.hits.push_back(std::move(h));
  }
  for (const FrameworkRecord& r : job.framework) {
    // The line as the framework printed it: "NCCL error in: ..., <reason>", a detail line
    // ("ncclRemoteError: ..."), or a watchdog line that quotes NCCL's last WARN. A line may
    // hold several messages: one hit per rule.
    std::string_view text = r.evidence.text;
    if (text.empty()) text = r.reason;
    for (const KnownMessage* k : MatchAllMessages(text)) {
      if (k->rule == kBenignRule) continue;
      MessageHit h;
      h.source = MessageHit::Source::kFramework;
      h.framework = &r;
      h.text = text;
      h.known = k;
      h.rule = k->rule;
      h.details = ExtractDetails(text);
      out.hits.push_back(std::move(h));
    }
  }
  return out;
}

}  // namespace ncclscope
