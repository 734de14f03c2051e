// Pieces of the HTML report that stand on their own: the class matrix table and the link graph
// as inline SVG. Every string from the log is HTML-escaped.
#ifndef NCCLSCOPE_REPORT_HTML_PARTS_H_
#define NCCLSCOPE_REPORT_HTML_PARTS_H_

#include <ostream>
#include <string>

#include "ncclscope/model/link_summary.h"
#include "ncclscope/report/link_graph.h"

namespace ncclscope {

/// CSS class of a transport class's cells and swatches: "k0" … "k9".
std::string HtmlClassCss(TransportClass c);
/// The CSS rules for every HtmlClassCss class (background colour, white text).
std::string HtmlClassStyles();

/// Rank × rank table of the slowest class from each src (row) to each dst (column) when
/// nranks <= max_ranks, else NCCL node × NCCL node. Cells hold the class letter, so the table
/// reads without colour too.
void WriteHtmlMatrix(const Job& job, const CommLinkSummary& summary, int nranks, int max_ranks,
                     std::ostream& out);

/// The graph as an inline <svg>: NCCL nodes as boxes in a grid, ranks as circles inside, edges as
/// lines coloured by class (bottleneck edges thicker), with a legend. Deterministic.
void WriteLinkGraphSvg(const LinkGraph& graph, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_HTML_PARTS_H_
