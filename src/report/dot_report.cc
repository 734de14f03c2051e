#include "ncclscope/report/dot_report.h"

#include <fmt/format.h>

#include "ncclscope/report/class_style.h"

namespace ncclscope {
std::string DotQuote(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F) {
      out += c;
    }
  }
  return out;
}

void WriteDotGraph(const LinkGraph& g, std::ostream& out) {
  out << "digraph ncclscope {\n";
  out << fmt::format(
      "  graph [label=\"{}{}\", labelloc=t, fontname=\"Helvetica\", rankdir=LR, newrank=true];\n",
      DotQuote(g.title),
      g.bottleneck ? DotQuote(fmt::format("\nbottleneck: {}", TransportClassName(*g.bottleneck)))
                   : "");
  out << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
         "fontname=\"Helvetica\"];\n";
  out << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (size_t i = 0; i < g.groups.size(); ++i) {
    const GraphGroup& grp = g.groups[i];
    out << fmt::format(
        "  subgraph cluster_{} {{\n    label=\"{}{}\";\n    style=\"rounded,filled\";\n"
        "    fillcolor=\"#f5f5f5\";\n",
        i, DotQuote(grp.name), grp.host.empty() ? "" : DotQuote(" (host " + grp.host + ")"));
    for (int n : grp.members) {
      const GraphNode& node = g.nodes[n];
      out << fmt::format("    {} [label=\"{}{}\"];\n", node.id, DotQuote(node.label),
                         node.detail.empty() ? "" : DotQuote("\n" + node.detail));
    }
    out << "  }\n";
  }
  for (const auto& e : g.edges) {
    std::string dir = e.forward && e.backward ? "both" : e.forward ? "forward" : "back";
    out << fmt::format("  {} -> {} [color=\"{}\", fontcolor=\"{}\", label=\"{}\", dir={}{}];\n",
                       g.nodes[e.a].id, g.nodes[e.b].id, ClassColor(e.cls), ClassColor(e.cls),
                       DotQuote(EdgeLabel(e, g.by_host, "×", "\n")), dir,
                       e.bottleneck ? ", penwidth=3.5, style=bold" : ", penwidth=1.2");
  }
  if (!g.classes.empty()) {
    out << "  subgraph cluster_legend {\n    label=\"legend\";\n    style=dashed;\n"
           "    node [shape=plaintext, style=\"\"];\n";
    int i = 0;
    for (TransportClass cls : AllTransportClasses()) {
      if (!g.classes.count(cls)) continue;
      bool bn = g.bottleneck && *g.bottleneck == cls;
      out << fmt::format("    legend_{} [label=\"{}{}\", fontcolor=\"{}\"];\n", i,
                         DotQuote(TransportClassName(cls)), bn ? " (bottleneck)" : "",
                         ClassColor(cls));
      ++i;
    }
    out << "  }\n";
  }
  out << "}\n";
}

void WriteDotReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  WriteDotGraph(BuildLinkGraph(in.job, DefaultGraphComm(in.job)), out);
}

}  // namespace ncclscope
