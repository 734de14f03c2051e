#include <fmt/format.h>

#include <optional>

#include "ncclscope/report/class_style.h"
#include "ncclscope/report/html_parts.h"
#include "ncclscope/report/text_report.h"
#include "ncclscope/report/xml_escape.h"

namespace ncclscope {
namespace {

constexpr int kMaxHostMatrix = 64;

void WriteCell(const std::optional<TransportClass>& cls, const std::string& what,
               std::ostream& out) {
  if (!cls) {
    out << "<td class=\"none\">.</td>";
    return;
  }
  out << fmt::format("<td class=\"{}\" title=\"{}: {}\">{}</td>", HtmlClassCss(*cls),
                     XmlAttributeEscape(what), TransportClassName(*cls), ClassLetter(*cls));
}

void WriteRankMatrix(const Job& job, const CommLinkSummary& s, int nranks, std::ostream& out) {
  std::vector<std::vector<std::optional<TransportClass>>> cell(
      nranks, std::vector<std::optional<TransportClass>>(nranks));
  for (int idx : s.link_indexes) {
    const Link& l = job.links[idx];
    if (l.src < 0 || l.dst < 0 || l.src >= nranks || l.dst >= nranks) continue;
    auto& c = cell[l.src][l.dst];
    c = c ? SlowerClass(*c, l.cls) : l.cls;
  }
  out << "<table class=\"matrix\"><tr><th>src\\dst</th>";
  for (int d = 0; d < nranks; ++d) out << "<th>" << d << "</th>";
  out << "</tr>\n";
  for (int r = 0; r < nranks; ++r) {
    out << "<tr><th>" << r << "</th>";
    for (int d = 0; d < nranks; ++d) {
      if (r == d) {
        out << "<td class=\"self\">-</td>";
      } else {
        WriteCell(cell[r][d], fmt::format("rank {} to rank {}", r, d), out);
      }
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

void WriteHostMatrix(const Job& job, int comm, std::ostream& out) {
  LinkGraph g = BuildLinkGraph(job, comm, LinkGraphLimits{0, 0});
  size_t n = g.groups.size();
  if (n == 0 || n > kMaxHostMatrix) {
    out << fmt::format(
        "<p class=\"note\">{} NCCL nodes: matrix omitted (see the JSON report).</p>\n", n);
    return;
  }
  std::vector<std::vector<std::optional<TransportClass>>> cell(
      n, std::vector<std::optional<TransportClass>>(n));
  for (size_t i = 0; i < n; ++i) {
    for (const auto& [cls, count] : g.groups[i].intra)
      cell[i][i] = cell[i][i] ? SlowerClass(*cell[i][i], cls) : cls;
  }
  for (const auto& e : g.edges) {
    int a = g.nodes[e.a].group, b = g.nodes[e.b].group;
    cell[a][b] = cell[b][a] = e.cls;
  }
  out << "<p class=\"note\">NCCL node × NCCL node: slowest class between each pair; the "
         "diagonal is within the node.</p>\n<table class=\"matrix\"><tr><th></th>";
  for (size_t j = 0; j < n; ++j)
    out << fmt::format("<th title=\"{}\">h{}</th>", XmlAttributeEscape(g.groups[j].name), j);
  out << "</tr>\n";
  for (size_t i = 0; i < n; ++i) {
    out << fmt::format("<tr><th class=\"rowname\">h{} {}</th>", i, XmlEscape(g.groups[i].name));
    for (size_t j = 0; j < n; ++j)
      WriteCell(cell[i][j], g.groups[i].name + " to " + g.groups[j].name, out);
    out << "</tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

std::string HtmlClassCss(TransportClass c) { return fmt::format("k{}", static_cast<int>(c)); }

std::string HtmlClassStyles() {
  std::string css;
  for (TransportClass c : AllTransportClasses())
    css += fmt::format(".{}{{background:{};color:#fff}}\n", HtmlClassCss(c), ClassColor(c));
  return css;
}

void WriteHtmlMatrix(const Job& job, const CommLinkSummary& s, int nranks, int max_ranks,
                     std::ostream& out) {
  if (nranks > 1 && nranks <= max_ranks) {
    WriteRankMatrix(job, s, nranks, out);
  } else if (nranks > max_ranks || s.comm < 0) {
    WriteHostMatrix(job, s.comm, out);
  }
}

}  // namespace ncclscope
