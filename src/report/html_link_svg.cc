#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ncclscope/report/class_style.h"
#include "ncclscope/report/html_parts.h"
#include "ncclscope/report/xml_escape.h"

namespace ncclscope {
namespace {

constexpr int kCell = 64;        // Spacing of rank circles inside a box.
constexpr int kRadius = 20;      // Rank circle.
constexpr int kHostRadius = 34;  // Host circle when aggregated.
constexpr int kTitle = 30;       // Box title band.
constexpr int kGap = 50;         // Between boxes.
constexpr int kMargin = 20;
constexpr int kLegendRow = 22;

int CeilSqrt(int n) {
  int r = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(n, 1)))));
  return std::max(r, 1);
}

struct Point {
  int x = 0, y = 0;
};

/// Straight line between neighbours; a quadratic curve bowed to the left of a→b otherwise, so
/// edges between ranks of one row do not hide each other.
std::string EdgePath(Point a, Point b) {
  double dx = b.x - a.x, dy = b.y - a.y;
  double len = std::sqrt(dx * dx + dy * dy);
  if (len <= kCell * 1.2) return fmt::format("M{} {} L{} {}", a.x, a.y, b.x, b.y);
  double bow = 0.22 * len;
  double cx = (a.x + b.x) / 2.0 + dy / len * bow, cy = (a.y + b.y) / 2.0 - dx / len * bow;
  return fmt::format("M{} {} Q{:.0f} {:.0f} {} {}", a.x, a.y, cx, cy, b.x, b.y);
}

}  // namespace

void WriteLinkGraphSvg(const LinkGraph& g, std::ostream& out) {
  int ngroups = static_cast<int>(g.groups.size());
  if (ngroups == 0) {
    out << "<p class=\"note\">No links to draw.</p>\n";
    return;
  }
  size_t most = 1;
  for (const auto& grp : g.groups) most = std::max(most, grp.members.size());
  int inner_cols = CeilSqrt(static_cast<int>(most));
  int inner_rows = (static_cast<int>(most) + inner_cols - 1) / inner_cols;
  int box_w = std::max(inner_cols * kCell, 150) + 20;
  int box_h = inner_rows * kCell + kTitle + 10;
  int cols = std::min(CeilSqrt(ngroups), 4);
  int rows = (ngroups + cols - 1) / cols;
  int legend_h = static_cast<int>(g.classes.size() + 1) * kLegendRow + 10;
  int width = kMargin * 2 + cols * box_w + (cols - 1) * kGap;
  int graph_h = kMargin * 2 + rows * box_h + (rows - 1) * kGap;
  int height = graph_h + legend_h;

  std::vector<Point> center(g.nodes.size());
  for (int i = 0; i < ngroups; ++i) {
    int bx = kMargin + (i % cols) * (box_w + kGap), by = kMargin + (i / cols) * (box_h + kGap);
    const auto& members = g.groups[i].members;
    int used_cols = std::min(inner_cols, static_cast<int>(members.size()));
    int x0 = bx + (box_w - used_cols * kCell) / 2 + kCell / 2;
    for (size_t k = 0; k < members.size(); ++k) {
      int col = static_cast<int>(k) % inner_cols, row = static_cast<int>(k) / inner_cols;
      center[members[k]] = Point{x0 + col * kCell, by + kTitle + row * kCell + kCell / 2};
    }
  }

  out << fmt::format(
      "<svg class=\"graph\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\">\n",
      width, height, width, height, XmlAttributeEscape(g.title));
  for (int i = 0; i < ngroups; ++i) {
    int bx = kMargin + (i % cols) * (box_w + kGap), by = kMargin + (i / cols) * (box_h + kGap);
    const GraphGroup& grp = g.groups[i];
    std::string name = grp.name + (grp.host.empty() ? "" : " (" + grp.host + ")");
    out << fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#f3f4f6\" "
        "stroke=\"#9ca3af\"/><text x=\"{}\" y=\"{}\" font-size=\"13\" "
        "font-weight=\"bold\" fill=\"#111827\">{}</text>\n",
        bx, by, box_w, box_h, bx + 8, by + 19,
        XmlEscape(name.size() > 28 ? name.substr(0, 27) + "…" : name));
  }
  for (const auto& e : g.edges) {
    Point a = center[e.a], b = center[e.b];
    std::string counts;
    for (const auto& [cls, n] : e.counts)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", TransportClassName(cls), n);
    out << fmt::format(
        "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}>"
        "<title>{} – {}: {}{}</title></path>\n",
        EdgePath(a, b), ClassColor(e.cls), e.bottleneck ? 4.5 : 2,
        e.bottleneck ? "" : " stroke-opacity=\"0.85\"", XmlEscape(g.nodes[e.a].label),
        XmlEscape(g.nodes[e.b].label), XmlEscape(counts), e.bottleneck ? " (bottleneck)" : "");
  }
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    int r = g.by_host ? kHostRadius : kRadius;
    std::string text = g.by_host ? std::to_string(n.group) : std::to_string(n.rank);
    out << fmt::format(
        "<g><title>{}{}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" "
        "stroke=\"#374151\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" font-size=\"13\" "
        "text-anchor=\"middle\" fill=\"#111827\">{}</text></g>\n",
        XmlEscape(n.label), XmlEscape(n.detail.empty() ? "" : " — " + n.detail), center[i].x,
        center[i].y, r, center[i].x, center[i].y + 5, XmlEscape(text));
  }
  int ly = graph_h;
  out << fmt::format(
      "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#374151\">legend: line "
      "colour = transport class; thick = bottleneck; circles = {}</text>\n",
      kMargin, ly, g.by_host ? "NCCL nodes" : "ranks");
  for (TransportClass cls : AllTransportClasses()) {
    if (!g.classes.count(cls)) continue;
    ly += kLegendRow;
    bool bn = g.bottleneck && *g.bottleneck == cls;
    out << fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#111827\">{}{}</text>\n",
        kMargin, ly - 4, kMargin + 40, ly - 4, ClassColor(cls), bn ? 4.5 : 1.8, kMargin + 50, ly,
        TransportClassName(cls), bn ? " (bottleneck)" : "");
  }
  out << "</svg>\n";
}

}  // namespace ncclscope
