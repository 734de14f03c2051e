// Findings compared by (rule, title): added, gone, or found with another severity.
#include <fmt/format.h>

#include <map>

#include "diff_parts.h"
#include "ncclscope/rules/finding.h"

namespace ncclscope::diff_internal {
namespace {

struct Side {
  Severity severity = Severity::kInfo;
  int count = 0;
  std::string message;  ///< Of the first finding with the highest severity.
};

std::map<std::pair<std::string, std::string>, Side> ByKey(const std::vector<FindingSnapshot>& fs) {
  std::map<std::pair<std::string, std::string>, Side> out;
  for (const auto& f : fs) {
    const Severity sev = ParseSeverity(f.severity).value_or(Severity::kInfo);
    Side& s = out[{f.rule, f.title}];
    if (s.count == 0 || sev > s.severity) {
      s.severity = sev;
      s.message = f.message;
    }
    ++s.count;
  }
  return out;
}

}  // namespace

void DiffFindings(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  const auto fa = ByKey(a.findings);
  const auto fb = ByKey(b.findings);
  std::map<std::pair<std::string, std::string>, std::pair<const Side*, const Side*>> all;
  for (const auto& [k, s] : fa) all[k].first = &s;
  for (const auto& [k, s] : fb) all[k].second = &s;
  for (const auto& [key, sides] : all) {
    const auto& [sa, sb] = sides;
    DiffItem item;
    item.topic = DiffTopic::kFindings;
    item.subject = key.first;
    item.aspect = key.second;
    if (sa) item.before = std::string(SeverityName(sa->severity));
    if (sb) item.after = std::string(SeverityName(sb->severity));
    if (sa && sb) {
      if (sa->severity == sb->severity) continue;  // Still there: not a difference.
      item.verdict =
          sb->severity > sa->severity ? DiffVerdict::kRegression : DiffVerdict::kImprovement;
      if (item.verdict == DiffVerdict::kRegression && sb->severity == Severity::kInfo)
        item.verdict = DiffVerdict::kChange;
      item.note = sb->message;
    } else if (sb) {
      item.verdict =
          sb->severity >= Severity::kWarning ? DiffVerdict::kRegression : DiffVerdict::kChange;
      item.note = sb->message;
    } else {
      item.verdict =
          sa->severity >= Severity::kWarning ? DiffVerdict::kImprovement : DiffVerdict::kChange;
      item.note = sa->message;
    }
    out->push_back(std::move(item));
  }
}

}  // namespace ncclscope::diff_internal
