#include "ncclscope/report/github_report.h"

#include <fmt/format.h>

#include "ncclscope/report/root_cause_section.h"

namespace ncclscope {
namespace {

std::string Escape(std::string_view text, bool property) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string_view CommandOf(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "notice";
}

}  // namespace

std::string GithubEscapeData(std::string_view text) { return Escape(text, false); }

std::string GithubEscapeProperty(std::string_view text) { return Escape(text, true); }

void WriteGithubReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  const Job& job = in.job;
  for (const auto& p : in.problems) {
    out << fmt::format("::error title=input-problem::{}\n",
                       GithubEscapeData(p.path + ": " + p.message));
  }
  // The root cause leads: one annotation on its first evidence line.
  RootCauseReport storage;
  const RootCause& cause = RootCauseOf(in, &storage).cause;
  if (cause.job_failed && cause.cls != CauseClass::kNone) {
    std::string props;
    if (!cause.evidence.empty() && cause.evidence[0].source < job.sources.size()) {
      const Evidence& e = cause.evidence[0];
      props = fmt::format("file={},line={},", GithubEscapeProperty(job.sources[e.source].name),
                          e.line);
    }
    props += "title=" + GithubEscapeProperty(fmt::format("root cause: {}", CauseClassName(cause.cls)));
    out << fmt::format("::error {}::{}\n", props,
                       GithubEscapeData(fmt::format("Root cause: {}\n{}", RootCauseHeadline(cause),
                                                    cause.reasoning)));
  }
  int counts[3] = {0, 0, 0};
  std::vector<const Finding*> order;
  for (const auto& f : in.findings) {
    if (f.caused_by.empty()) order.push_back(&f);
  }
  for (const auto& f : in.findings) {
    if (!f.caused_by.empty()) order.push_back(&f);
  }
  for (const Finding* fp : order) {
    const Finding& f = *fp;
    ++counts[static_cast<int>(f.severity)];
    std::string props;
    if (!f.evidence.empty() && f.evidence[0].source < job.sources.size()) {
      const Evidence& e = f.evidence[0];
      props =
          fmt::format("file={},line={},", GithubEscapeProperty(job.sources[e.source].name), e.line);
    }
    props += "title=" + GithubEscapeProperty(f.rule.empty() ? "ncclscope" : f.rule);
    std::string msg = f.title;
    if (!f.caused_by.empty()) msg = "(fallout of the root cause: " + f.caused_by + ") " + msg;
    if (!f.message.empty()) msg += ": " + f.message;
    if (!f.fix.empty()) msg += "\nfix: " + f.fix;
    if (msg.empty()) msg = f.rule.empty() ? "finding" : f.rule;
    out << fmt::format("::{} {}::{}\n", CommandOf(f.severity), props, GithubEscapeData(msg));
  }
  out << fmt::format(
      "ncclscope: {} error{}, {} warning{}, {} info; {} host{}, {} process{}, {} "
      "communicator{}\n",
      counts[2], counts[2] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s", counts[0],
      job.hosts.size(), job.hosts.size() == 1 ? "" : "s", job.processes.size(),
      job.processes.size() == 1 ? "" : "es", job.CommunicatorCount(),
      job.CommunicatorCount() == 1 ? "" : "s");
}

}  // namespace ncclscope
