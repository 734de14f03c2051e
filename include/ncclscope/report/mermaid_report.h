// Mermaid flowchart of the job's link graph (same graph as the dot format): a subgraph per NCCL
// node, ranks as nodes, edges labelled and coloured (linkStyle) by transport class.
#ifndef NCCLSCOPE_REPORT_MERMAID_REPORT_H_
#define NCCLSCOPE_REPORT_MERMAID_REPORT_H_

#include <string>
#include <string_view>

#include "ncclscope/report/link_graph.h"
#include "ncclscope/report/report.h"

namespace ncclscope {

/// Text inside a quoted Mermaid label: " < > | # & become #quot; #lt; #gt; #124; #35; #amp;.
std::string MermaidQuote(std::string_view text);
/// Writes one graph as `flowchart LR`.
void WriteMermaidGraph(const LinkGraph& graph, std::ostream& out);
/// The registered writer: the graph of DefaultGraphComm().
void WriteMermaidReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_MERMAID_REPORT_H_
