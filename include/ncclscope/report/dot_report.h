// Graphviz DOT of the job's link graph: NCCL nodes as clusters, ranks as nodes, one edge per rank
// pair coloured by its slowest transport class, bottleneck edges bold, and a legend. Large jobs
// (> 64 ranks or > 8 nodes) are drawn one graph node per NCCL node.
#ifndef NCCLSCOPE_REPORT_DOT_REPORT_H_
#define NCCLSCOPE_REPORT_DOT_REPORT_H_

#include <string>
#include <string_view>

#include "ncclscope/report/link_graph.h"
#include "ncclscope/report/report.h"

namespace ncclscope {

/// Text inside a double-quoted DOT string: " and \ escaped, line breaks as \n, controls dropped.
std::string DotQuote(std::string_view text);
/// Writes one graph.
void WriteDotGraph(const LinkGraph& graph, std::ostream& out);
/// The registered writer: the graph of DefaultGraphComm().
void WriteDotReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_DOT_REPORT_H_
