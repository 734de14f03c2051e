// SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format) for GitHub code scanning and
// other SARIF viewers: one reportingDescriptor per ncclscope rule, one result per finding located
// on its evidence lines, the run's exit code and input problems in the invocation.
#ifndef NCCLSCOPE_REPORT_SARIF_REPORT_H_
#define NCCLSCOPE_REPORT_SARIF_REPORT_H_

#include <ostream>
#include <string>
#include <string_view>

#include "ncclscope/report/report.h"

namespace ncclscope {

/// A file path as a SARIF artifact URI reference: the path as given, with bytes that a URI
/// cannot hold (space, %, #, ?, :, [, ], non-ASCII, controls) percent-encoded.
std::string SarifUri(std::string_view path);

/// "SocketFallback" for "socket-fallback": the reportingDescriptor's friendly name.
std::string SarifRuleName(std::string_view id);

void WriteSarifReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_SARIF_REPORT_H_
