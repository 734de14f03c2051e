#include "ncclscope/report/markdown_report.h"

#include <fmt/format.h>

#include "ncclscope/report/root_cause_section.h"

#include <algorithm>
#include <set>

#include "ncclscope/model/link_summary.h"
#include "ncclscope/report/job_headline.h"

namespace ncclscope {
namespace {

constexpr size_t kMaxInputs = 8;
constexpr size_t kMaxComms = 24;

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string SeverityMarker(Severity s) {
  return s == Severity::kError     ? "**[ERROR]**"
         : s == Severity::kWarning ? "**[WARNING]**"
                                   : "[info]";
}

std::string ClassCounts(const std::map<TransportClass, int>& m) {
  std::string out;
  for (const auto& [cls, n] : m)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", TransportClassName(cls), n);
  return out.empty() ? "none" : out;
}

std::string EvidenceName(const Job& job, const Evidence& e) {
  return fmt::format("{}:{}", job.SourceName(e.source), e.line);
}

void WriteHeader(const ReportInput& in, std::ostream& out) {
  const Job& job = in.job;
  const JobHeadline h = MakeJobHeadline(in);
  const int counts[3] = {h.infos, h.warnings, h.errors};
  const auto& nodes = h.nodes;
  const auto& ranks = h.ranks;
  const std::string& versions = h.versions;
  out << "## ncclscope report\n\n";
  out << fmt::format(
      "**{}, {}, {} info** — {}, {}{}, {}, {}, {}, NCCL {}\n\n",
      Plural(counts[2], "error", "errors"), Plural(counts[1], "warning", "warnings"), counts[0],
      Plural(job.sources.size(), "input", "inputs"), Plural(job.hosts.size(), "host", "hosts"),
      nodes.size() > job.hosts.size() ? fmt::format(" ({} NCCL nodes)", nodes.size()) : "",
      Plural(job.processes.size(), "process", "processes"), Plural(ranks.size(), "rank", "ranks"),
      Plural(job.CommunicatorCount(), "communicator", "communicators"),
      versions.empty() ? "unknown" : MarkdownText(versions));
  if (!job.sources.empty()) {
    out << "| Input | Lines | NCCL lines | Unrecognized |\n|---|---:|---:|---:|\n";
    for (size_t i = 0; i < job.sources.size() && i < kMaxInputs; ++i) {
      const auto& s = job.sources[i];
      out << fmt::format("| {}{} | {} | {} | {} |\n", MarkdownCode(s.name, true),
                         s.problem.empty() ? "" : " — " + MarkdownText(s.problem), s.lines,
                         s.nccl_lines, s.unrecognized);
    }
    if (job.sources.size() > kMaxInputs)
      out << fmt::format("| … and {} more | | | |\n", job.sources.size() - kMaxInputs);
    out << "\n";
  }
  for (const auto& p : in.problems)
    out << fmt::format("- **input problem:** {}: {}\n", MarkdownCode(p.path),
                       MarkdownText(p.message));
  if (!in.problems.empty()) out << "\n";
}

void WriteComms(const Job& job, std::ostream& out) {
  out << "### Communicators\n\n";
  auto summaries = SummarizeLinks(job);
  if (job.comms.empty() && summaries.empty()) {
    out << "None found (no init lines in the input).\n\n";
    return;
  }
  std::map<int, const CommLinkSummary*> by_comm;
  for (const auto& s : summaries) by_comm[s.comm] = &s;
  out << "| Communicator | Ranks | Nodes | Links | Bottleneck |\n|---|---:|---:|---|---|\n";
  auto row = [&](std::string id, std::string nranks, std::string nnodes, int comm) {
    auto it = by_comm.find(comm);
    const CommLinkSummary* s = it == by_comm.end() ? nullptr : it->second;
    out << fmt::format(
        "| {} | {} | {} | {} | {} |\n", id, nranks, nnodes,
        s ? ClassCounts(s->by_class) : "no connection lines",
        s && s->bottleneck ? fmt::format("**{}**", TransportClassName(*s->bottleneck)) : "—");
  };
  for (size_t i = 0; i < job.comms.size() && i < kMaxComms; ++i) {
    const Communicator& c = job.comms[i];
    row(MarkdownCode(c.id, true), std::to_string(c.nranks),
        c.nnodes >= 0 ? std::to_string(c.nnodes) : "?", static_cast<int>(i));
  }
  if (job.comms.size() > kMaxComms)
    out << fmt::format("| … and {} more | | | | |\n", job.comms.size() - kMaxComms);
  if (by_comm.count(-1)) row("(unknown communicator)", "?", "?", -1);
  out << "\n";
}

void WriteRootCause(const ReportInput& in, std::ostream& out) {
  RootCauseReport storage;
  const RootCauseReport& report = RootCauseOf(in, &storage);
  bool any = false;
  for (const AttemptCause& a : report.attempts) {
    any = any || a.cause.cls != CauseClass::kNone || a.cause.job_failed;
  }
  if (!any) return;
  out << "### Root cause\n\n";
  for (const AttemptCause& a : report.attempts) {
    const RootCause& c = a.cause;
    if (report.attempts.size() > 1) {
      out << fmt::format("**Attempt {}:** ", a.info.index + 1);
    }
    out << fmt::format("**{}** — `{}`, confidence {}{}\n\n", MarkdownText(RootCauseHeadline(c)),
                       CauseClassName(c.cls), ConfidenceName(c.confidence),
                       c.time_text.empty() ? std::string() : ", at " + MarkdownText(c.time_text));
    if (!c.reasoning.empty()) out << MarkdownText(c.reasoning) << "\n\n";
    for (const Evidence& e : c.evidence) {
      out << fmt::format("- {} {}\n", MarkdownCode(EvidenceName(in.job, e)), MarkdownCode(e.text));
    }
    if (!c.evidence.empty()) out << "\n";
  }
}

void WriteFindings(const ReportInput& in, std::ostream& out) {
  const Job& job = in.job;
  out << "### Findings\n\n";
  if (in.findings.empty()) {
    out << "None.\n";
    return;
  }
  out << "| Severity | Rule | Title |\n|---|---|---|\n";
  for (const auto& f : in.findings) {
    out << fmt::format("| {} | {} | {}{} |\n", SeverityMarker(f.severity),
                       MarkdownCode(f.rule, true), MarkdownText(f.title),
                       f.caused_by.empty() ? std::string()
                                           : " (fallout of " + MarkdownText(f.caused_by) + ")");
  }
  for (const auto& f : in.findings) {
    out << fmt::format("\n#### {} {} ({})\n\n", SeverityMarker(f.severity), MarkdownText(f.title),
                       MarkdownCode(f.rule));
    if (!f.message.empty()) out << MarkdownText(f.message) << "\n\n";
    if (!f.evidence.empty()) {
      out << "Evidence:\n\n";
      for (const auto& e : f.evidence)
        out << fmt::format("- {} {}\n", MarkdownCode(EvidenceName(job, e)), MarkdownCode(e.text));
      out << "\n";
    }
    if (!f.fix.empty()) out << "**Fix:** " << MarkdownText(f.fix) << "\n";
  }
}

}  // namespace

std::string MarkdownText(std::string_view text) {
  static constexpr std::string_view kSpecial = "\\`*_[]{}<>()#+-!|~&";
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (kSpecial.find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownCode(std::string_view text, bool table_cell) {
  std::string body;
  size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '\n' || c == '\r') {
      body += ' ';
    } else if (c == '|' && table_cell) {
      body += "\\|";
    } else {
      body += c;
    }
  }
  if (body.empty()) return "` `";
  std::string fence(longest + 1, '`');
  bool pad = body.front() == '`' || body.back() == '`';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

void WriteMarkdownReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  WriteHeader(in, out);
  WriteRootCause(in, out);
  WriteComms(in.job, out);
  WriteFindings(in, out);
}

}  // namespace ncclscope
