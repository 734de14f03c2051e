// GitHub Actions workflow commands: one ::error/::warning/::notice annotation per finding, placed
// on its first evidence line, then a one-line summary.
#ifndef NCCLSCOPE_REPORT_GITHUB_REPORT_H_
#define NCCLSCOPE_REPORT_GITHUB_REPORT_H_

#include <string>
#include <string_view>

#include "ncclscope/report/report.h"

namespace ncclscope {

/// Escapes a workflow command's message: % → %25, CR → %0D, LF → %0A.
std::string GithubEscapeData(std::string_view text);
/// Escapes a workflow command's property value: as GithubEscapeData, plus : → %3A, , → %2C.
std::string GithubEscapeProperty(std::string_view text);

void WriteGithubReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_GITHUB_REPORT_H_
