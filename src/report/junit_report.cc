#include "ncclscope/report/junit_report.h"

#include <fmt/format.h>

#include "ncclscope/report/root_cause_section.h"

#include <algorithm>
#include <map>

#include "ncclscope/report/xml_escape.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope {
namespace {

/// Plain-text account of findings: severity, title, message, evidence, fix.
std::string FindingsText(const Job& job, const std::vector<const Finding*>& findings) {
  std::string out;
  for (const Finding* f : findings) {
    out += fmt::format("[{}] {}\n", SeverityName(f->severity), f->title);
    if (!f->message.empty()) out += f->message + "\n";
    for (const auto& e : f->evidence) out += EvidenceLine(job, e) + "\n";
    if (!f->fix.empty()) out += "fix: " + f->fix + "\n";
  }
  return out;
}

std::string FailureMessage(const std::vector<const Finding*>& failing) {
  const Finding& f = *failing.front();
  std::string msg = f.message.empty() ? f.title : f.title + ": " + f.message;
  if (failing.size() > 1) msg += fmt::format(" (and {} more)", failing.size() - 1);
  return msg;
}

}  // namespace

void WriteJunit(const ReportInput& in, const std::vector<std::string>& rule_ids,
                std::ostream& out) {
  std::vector<std::string> ids = rule_ids;
  std::map<std::string, std::vector<const Finding*>> by_rule;
  for (const auto& f : in.findings) {
    if (!by_rule.count(f.rule) && std::find(ids.begin(), ids.end(), f.rule) == ids.end())
      ids.push_back(f.rule);
    by_rule[f.rule].push_back(&f);
  }
  int failures = 0;
  for (const auto& [rule, findings] : by_rule) {
    failures += std::any_of(findings.begin(), findings.end(),
                            [](const Finding* f) { return f->severity >= Severity::kWarning; });
  }
  int errors = static_cast<int>(in.problems.size());
  RootCauseReport storage;
  const RootCause& cause = RootCauseOf(in, &storage).cause;
  const bool failed = cause.job_failed && cause.cls != CauseClass::kNone;
  failures += failed ? 1 : 0;
  int tests = static_cast<int>(ids.size()) + errors + 1;

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites name=\"ncclscope\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
                     tests, failures, errors);
  out << fmt::format(
      "  <testsuite name=\"ncclscope\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n",
      tests, failures, errors);
  for (const auto& p : in.problems) {
    out << fmt::format(
        "    <testcase classname=\"ncclscope.inputs\" name=\"{}\">\n"
        "      <error message=\"{}\" type=\"input\">{}</error>\n    </testcase>\n",
        XmlAttributeEscape(p.path), XmlAttributeEscape(p.message), XmlEscape(p.message));
  }
  // The job's root cause first: a failure when the job failed, with the reasoning and evidence.
  if (failed) {
    std::string text = cause.reasoning;
    for (const Evidence& e : cause.evidence) text += "\n" + EvidenceLine(in.job, e);
    out << fmt::format(
        "    <testcase classname=\"ncclscope\" name=\"root-cause\">\n"
        "      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
        XmlAttributeEscape("Root cause: " + RootCauseHeadline(cause)), CauseClassName(cause.cls),
        XmlEscape(text));
  } else {
    out << "    <testcase classname=\"ncclscope\" name=\"root-cause\"/>\n";
  }
  for (const auto& id : ids) {
    out << fmt::format("    <testcase classname=\"ncclscope.rules\" name=\"{}\"",
                       XmlAttributeEscape(id));
    auto it = by_rule.find(id);
    if (it == by_rule.end()) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    std::vector<const Finding*> failing, info;
    for (const Finding* f : it->second)
      (f->severity >= Severity::kWarning ? failing : info).push_back(f);
    if (!failing.empty()) {
      Severity worst = Severity::kWarning;
      for (const Finding* f : failing) worst = std::max(worst, f->severity);
      out << fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                         XmlAttributeEscape(FailureMessage(failing)), SeverityName(worst),
                         XmlEscape(FindingsText(in.job, failing)));
    }
    if (!info.empty())
      out << fmt::format("      <system-out>{}</system-out>\n",
                         XmlEscape(FindingsText(in.job, info)));
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void WriteJunitReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  std::vector<std::string> ids;
  for (const auto& rule : AllRules()) ids.emplace_back(rule->id());
  WriteJunit(in, ids, out);
}

}  // namespace ncclscope
