#include "ncclscope/report/html_report.h"

#include <fmt/format.h>

#include "ncclscope/report/root_cause_section.h"

#include <set>

#include "ncclscope/model/link_summary.h"
#include "ncclscope/report/class_style.h"
#include "ncclscope/report/html_parts.h"
#include "ncclscope/report/job_headline.h"
#include "ncclscope/report/link_graph.h"
#include "ncclscope/report/text_report.h"
#include "ncclscope/report/xml_escape.h"

namespace ncclscope {
namespace {

constexpr size_t kMaxInputs = 16;
constexpr size_t kMaxComms = 24;

constexpr std::string_view kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
 margin:0 auto;max-width:1200px;padding:16px 24px;color:#111827;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:2px solid #e5e7eb;padding-bottom:4px;margin-top:1.6em}
h3{margin:1.2em 0 .3em;font-size:1.05em}p{margin:.35em 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f3f4f6;padding:8px;border-radius:6px;overflow-x:auto;white-space:pre-wrap;
 word-break:break-all;margin:.4em 0}
.summary{display:flex;flex-wrap:wrap;gap:8px;margin:.6em 0}
.pill{border-radius:999px;padding:2px 12px;border:1px solid #d1d5db;background:#f9fafb}
.pill.error{background:#fee2e2;border-color:#c62828;color:#7f1d1d}
.pill.warning{background:#fef3c7;border-color:#b45309;color:#78350f}
.pill.info{background:#dbeafe;border-color:#1565c0;color:#1e3a8a}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:left}
table.matrix td,table.matrix th{text-align:center;min-width:1.6em;padding:2px 4px;
 font-family:ui-monospace,monospace}
table.matrix th.rowname{text-align:left}
td.self{background:#e5e7eb;color:#6b7280}td.none{color:#9ca3af}
.finding{border-left:6px solid #1565c0;background:#f9fafb;padding:8px 14px;margin:10px 0;
 border-radius:4px}
.finding.error{border-color:#c62828;background:#fef2f2}
.finding.warning{border-color:#d97706;background:#fffbeb}
.sev{font-weight:bold;font-size:.85em;padding:1px 8px;border-radius:4px;color:#fff;
 background:#1565c0;margin-right:6px}
.sev.error{background:#c62828}.sev.warning{background:#b45309}
.rule{color:#4b5563;font-family:ui-monospace,monospace;font-size:.9em}
.fix{margin:.4em 0}.fix b{color:#166534}
.note{color:#4b5563;font-size:.92em}
.legend span{display:inline-block;margin:2px 6px 2px 0;padding:1px 8px;border-radius:4px;
 font-family:ui-monospace,monospace;font-size:.9em}
.problem{color:#991b1b}
svg.graph{max-width:100%;height:auto;border:1px solid #e5e7eb;border-radius:6px;background:#fff}
)css";

std::string E(std::string_view s) { return XmlEscape(s); }

void WriteSummary(const ReportInput& in, std::ostream& out) {
  const Job& job = in.job;
  const JobHeadline h = MakeJobHeadline(in);
  const int counts[3] = {h.infos, h.warnings, h.errors};
  const auto& nodes = h.nodes;
  const auto& ranks = h.ranks;
  const std::string& versions = h.versions;
  out << fmt::format("<h1>ncclscope report</h1>\n<p class=\"note\">ncclscope {}</p>\n",
                     NCCLSCOPE_VERSION);
  out << "<div class=\"summary\">";
  out << fmt::format("<span class=\"pill{}\">{} error{}</span>", counts[2] ? " error" : "",
                     counts[2], counts[2] == 1 ? "" : "s");
  out << fmt::format("<span class=\"pill{}\">{} warning{}</span>", counts[1] ? " warning" : "",
                     counts[1], counts[1] == 1 ? "" : "s");
  out << fmt::format("<span class=\"pill{}\">{} info</span>", counts[0] ? " info" : "", counts[0]);
  out << fmt::format(
      "<span class=\"pill\">{} input{}</span><span class=\"pill\">{} host{}</span>"
      "<span class=\"pill\">{} NCCL node{}</span><span class=\"pill\">{} process{}</span>"
      "<span class=\"pill\">{} rank{}</span><span class=\"pill\">{} communicator{}</span>"
      "<span class=\"pill\">NCCL {}</span></div>\n",
      job.sources.size(), job.sources.size() == 1 ? "" : "s", job.hosts.size(),
      job.hosts.size() == 1 ? "" : "s", nodes.size(), nodes.size() == 1 ? "" : "s",
      job.processes.size(), job.processes.size() == 1 ? "" : "es", ranks.size(),
      ranks.size() == 1 ? "" : "s", job.CommunicatorCount(),
      job.CommunicatorCount() == 1 ? "" : "s",
      versions.empty() ? "unknown" : E(versions));
  for (const auto& p : in.problems)
    out << fmt::format("<p class=\"problem\">input problem: <code>{}</code>: {}</p>\n", E(p.path),
                       E(p.message));
  out << "<table><tr><th>input</th><th>lines</th><th>NCCL lines</th><th>unrecognized</th>"
         "<th>problem</th></tr>\n";
  for (size_t i = 0; i < job.sources.size() && i < kMaxInputs; ++i) {
    const auto& s = job.sources[i];
    out << fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        E(s.name), s.lines, s.nccl_lines, s.unrecognized, E(s.problem));
  }
  if (job.sources.size() > kMaxInputs)
    out << fmt::format("<tr><td colspan=\"5\">… and {} more</td></tr>\n",
                       job.sources.size() - kMaxInputs);
  out << "</table>\n";
  out << "<table><tr><th>host</th><th>address</th><th>NCCL nodes</th><th>processes</th>"
         "<th>ranks</th></tr>\n";
  for (const auto& h : job.hosts) {
    std::string node_list, rank_list;
    for (const auto& n : h.nodes) node_list += (node_list.empty() ? "" : ", ") + n;
    std::set<int> host_ranks;
    for (int pi : h.processes) {
      if (job.processes[pi].global_rank >= 0) host_ranks.insert(job.processes[pi].global_rank);
    }
    for (int r : host_ranks) rank_list += (rank_list.empty() ? "" : ", ") + std::to_string(r);
    out << fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       E(h.name), E(h.address), E(node_list), h.processes.size(), E(rank_list));
  }
  out << "</table>\n";
}

void WriteRootCause(const ReportInput& in, std::ostream& out) {
  RootCauseReport storage;
  const RootCauseReport& report = RootCauseOf(in, &storage);
  bool any = false;
  for (const AttemptCause& a : report.attempts) {
    any = any || a.cause.cls != CauseClass::kNone || a.cause.job_failed;
  }
  if (!any) return;
  out << "<h2>Root cause</h2>\n";
  for (const AttemptCause& a : report.attempts) {
    const RootCause& c = a.cause;
    out << "<div class=\"finding error\"><div>";
    if (report.attempts.size() > 1) out << fmt::format("<b>Attempt {}:</b> ", a.info.index + 1);
    out << fmt::format("<b>{}</b> <span class=\"rule\">[{}, confidence {}{}]</span></div>\n",
                       E(RootCauseHeadline(c)), E(CauseClassName(c.cls)),
                       E(ConfidenceName(c.confidence)),
                       c.time_text.empty() ? std::string() : ", at " + E(c.time_text));
    if (!c.reasoning.empty()) out << "<p>" << E(c.reasoning) << "</p>\n";
    if (!c.evidence.empty()) {
      out << "<pre>";
      for (const Evidence& e : c.evidence) out << E(EvidenceLine(in.job, e)) << "\n";
      out << "</pre>\n";
    }
    out << "</div>\n";
  }
}

void WriteFindings(const ReportInput& in, std::ostream& out) {
  const Job& job = in.job;
  out << "<h2>Findings</h2>\n";
  if (in.findings.empty()) out << "<p>None.</p>\n";
  for (const auto& f : in.findings) {
    std::string sev(SeverityName(f.severity));
    std::string upper = sev;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out << fmt::format(
        "<div class=\"finding {}\"><div><span class=\"sev {}\">{}</span><b>{}</b> "
        "<span class=\"rule\">[{}]</span></div>\n",
        E(sev), E(sev), E(upper), E(f.title), E(f.rule));
    if (!f.caused_by.empty()) {
      out << "<p class=\"note\">fallout of the root cause (" << E(f.caused_by) << ")</p>\n";
    }
    if (!f.message.empty()) out << "<p>" << E(f.message) << "</p>\n";
    if (!f.evidence.empty()) {
      out << "<pre>";
      for (const auto& e : f.evidence) out << E(EvidenceLine(job, e)) << "\n";
      out << "</pre>\n";
    }
    if (!f.fix.empty()) out << "<p class=\"fix\"><b>Fix:</b> " << E(f.fix) << "</p>\n";
    out << "</div>\n";
  }
}

void WriteLegend(std::ostream& out) {
  out << "<p class=\"legend\">";
  for (TransportClass c : AllTransportClasses())
    out << fmt::format("<span class=\"{}\">{} {}</span>", HtmlClassCss(c), ClassLetter(c),
                       TransportClassName(c));
  out << "<span class=\"self\">- self</span><span>. no link</span></p>\n";
}

void WriteCommSummary(const CommLinkSummary& s, std::ostream& out) {
  std::string counts;
  for (const auto& [cls, n] : s.by_class)
    counts += fmt::format("<span class=\"{}\">{} {}</span>", HtmlClassCss(cls),
                          TransportClassName(cls), n);
  out << fmt::format("<p class=\"legend\">{} links ({} intra-node, {} inter-node): {}</p>\n",
                     s.links, s.intra, s.inter, counts);
  if (s.bottleneck) {
    auto bw = IndicativeBandwidth(*s.bottleneck);
    out << fmt::format(
        "<p>bottleneck: <span class=\"legend\"><span class=\"{}\">{}</span></span> "
        "(~{:g}–{:g} GB/s per direction)</p>\n",
        HtmlClassCss(*s.bottleneck), TransportClassName(*s.bottleneck), bw.low_gbps, bw.high_gbps);
  }
}

void WriteComms(const ReportInput& in, const ReportOptions& opts, std::ostream& out) {
  const Job& job = in.job;
  out << "<h2>Communicators</h2>\n";
  WriteLegend(out);
  auto summaries = SummarizeLinks(job);
  std::map<int, const CommLinkSummary*> by_comm;
  for (const auto& s : summaries) by_comm[s.comm] = &s;
  if (job.comms.empty() && summaries.empty()) out << "<p>None found (no init lines).</p>\n";
  for (size_t i = 0; i < job.comms.size() && i < kMaxComms; ++i) {
    const Communicator& c = job.comms[i];
    int complete = 0;
    for (const auto& [r, cr] : c.ranks) complete += cr.completed ? 1 : 0;
    bool ok = complete == c.nranks && static_cast<int>(c.ranks.size()) == c.nranks;
    out << fmt::format(
        "<h3><code>{}</code></h3>\n<p>{} ranks{}{}, {}{}</p>\n", E(c.id), c.nranks,
        c.nnodes >= 0 ? fmt::format(", {} node{}", c.nnodes, c.nnodes == 1 ? "" : "s") : "",
        c.nchannels >= 0 ? fmt::format(", {} channels", c.nchannels) : "",
        ok ? "init complete"
           : fmt::format("{}/{} ranks seen, {} complete", c.ranks.size(), c.nranks, complete),
        c.parent_id.empty() ? "" : ", split of <code>" + E(c.parent_id) + "</code>");
    auto it = by_comm.find(static_cast<int>(i));
    if (it == by_comm.end()) {
      out << "<p class=\"note\">No connection lines.</p>\n";
      continue;
    }
    WriteCommSummary(*it->second, out);
    WriteHtmlMatrix(job, *it->second, c.nranks, opts.matrix_max_ranks, out);
  }
  if (job.comms.size() > kMaxComms)
    out << fmt::format("<p class=\"note\">… and {} more communicators (see the JSON report).</p>\n",
                       job.comms.size() - kMaxComms);
  auto unknown = by_comm.find(-1);
  if (unknown != by_comm.end()) {
    out << "<h3>Communicator unknown</h3>\n<p class=\"note\">Connection lines from processes whose "
           "init lines are not in the input.</p>\n";
    WriteCommSummary(*unknown->second, out);
    WriteHtmlMatrix(job, *unknown->second, 0, opts.matrix_max_ranks, out);
  }
}

}  // namespace

void WriteHtmlReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>ncclscope report</title>\n<style>"
      << kStyle << HtmlClassStyles() << "</style>\n</head>\n<body>\n";
  WriteRootCause(in, out);
  WriteSummary(in, out);
  WriteFindings(in, out);
  LinkGraph graph = BuildLinkGraph(in.job, DefaultGraphComm(in.job));
  out << "<h2>Link graph</h2>\n<p class=\"note\">" << E(graph.title)
      << (graph.by_host ? "; aggregated by NCCL node" : "")
      << "; one line per rank pair, coloured by the slowest class between them</p>\n";
  WriteLinkGraphSvg(graph, out);
  WriteComms(in, opts, out);
  out << "</body>\n</html>\n";
}

}  // namespace ncclscope
