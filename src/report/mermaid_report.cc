#include "ncclscope/report/mermaid_report.h"

#include <fmt/format.h>

#include "ncclscope/report/class_style.h"

namespace ncclscope {
std::string MermaidQuote(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"':
        out += "#quot;";
        break;
      case '<':
        out += "#lt;";
        break;
      case '>':
        out += "#gt;";
        break;
      case '|':
        out += "#124;";
        break;
      case '#':
        out += "#35;";
        break;
      case '&':
        out += "#amp;";
        break;
      case '\n':
        out += "<br/>";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F) out += c;
    }
  }
  return out;
}

void WriteMermaidGraph(const LinkGraph& g, std::ostream& out) {
  out << "---\ntitle: \"" << MermaidQuote(g.title) << "\"\n---\n";
  out << "flowchart LR\n";
  for (size_t i = 0; i < g.groups.size(); ++i) {
    const GraphGroup& grp = g.groups[i];
    out << fmt::format("  subgraph g{}[\"{}{}\"]\n", i, MermaidQuote(grp.name),
                       grp.host.empty() ? "" : MermaidQuote(" (host " + grp.host + ")"));
    for (int n : grp.members) {
      const GraphNode& node = g.nodes[n];
      out << fmt::format("    {}[\"{}{}\"]\n", node.id, MermaidQuote(node.label),
                         node.detail.empty() ? "" : MermaidQuote("\n" + node.detail));
    }
    out << "  end\n";
  }
  for (const auto& e : g.edges) {
    std::string_view arrow = e.forward && e.backward ? "<-->" : "-->";
    const GraphNode& a = g.nodes[e.forward ? e.a : e.b];
    const GraphNode& b = g.nodes[e.forward ? e.b : e.a];
    out << fmt::format("  {} {}|\"{}\"| {}\n", a.id, arrow,
                       MermaidQuote(EdgeLabel(e, g.by_host, "x", ", ")), b.id);
  }
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    out << fmt::format("  linkStyle {} stroke:{},stroke-width:{}px,color:{}\n", i,
                       ClassColor(e.cls), e.bottleneck ? 4 : 1.5, ClassColor(e.cls));
  }
  if (!g.classes.empty()) {
    out << "  subgraph legend[\"legend\"]\n";
    int i = 0;
    for (TransportClass cls : AllTransportClasses()) {
      if (!g.classes.count(cls)) continue;
      bool bn = g.bottleneck && *g.bottleneck == cls;
      out << fmt::format("    legend{}[\"{}{}\"]\n", i, MermaidQuote(TransportClassName(cls)),
                         bn ? " (bottleneck)" : "");
      out << fmt::format("    style legend{} fill:{},color:#ffffff,stroke:{}\n", i, ClassColor(cls),
                         ClassColor(cls));
      ++i;
    }
    out << "  end\n";
  }
}

void WriteMermaidReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  WriteMermaidGraph(BuildLinkGraph(in.job, DefaultGraphComm(in.job)), out);
}

}  // namespace ncclscope
