// Markdown summary for a pull-request comment or $GITHUB_STEP_SUMMARY: job header, communicator
// table, findings table and details.
#ifndef NCCLSCOPE_REPORT_MARKDOWN_REPORT_H_
#define NCCLSCOPE_REPORT_MARKDOWN_REPORT_H_

#include <string>
#include <string_view>

#include "ncclscope/report/report.h"

namespace ncclscope {

/// Text as literal Markdown: punctuation that could start markup (including |, < and >) is
/// backslash-escaped and line breaks become spaces, so it is safe in a table cell.
std::string MarkdownText(std::string_view text);
/// Text as an inline code span (backtick fence longer than any run inside); in a table cell, `|`
/// is escaped as GitHub requires.
std::string MarkdownCode(std::string_view text, bool table_cell = false);

void WriteMarkdownReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_MARKDOWN_REPORT_H_
