// One self-contained HTML page (inline CSS and SVG, nothing fetched from the network): summary,
// findings with evidence and fixes, per-communicator class matrices, and the link graph.
#ifndef NCCLSCOPE_REPORT_HTML_REPORT_H_
#define NCCLSCOPE_REPORT_HTML_REPORT_H_

#include "ncclscope/report/report.h"

namespace ncclscope {

void WriteHtmlReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_HTML_REPORT_H_
