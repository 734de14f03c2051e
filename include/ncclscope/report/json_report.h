// The JSON report (schema in docs/json-output.md). Stable and versioned: schema_version 1.
#ifndef NCCLSCOPE_REPORT_JSON_REPORT_H_
#define NCCLSCOPE_REPORT_JSON_REPORT_H_

#include <nlohmann/json.hpp>

#include "ncclscope/report/report.h"

namespace ncclscope {

inline constexpr int kJsonSchemaVersion = 1;

/// The whole report as a JSON value.
nlohmann::json JsonReport(const ReportInput& in);
/// Individual parts, reused by other writers (summaries, HTML).
nlohmann::json JsonFinding(const Job& job, const Finding& f);
/// The "configuration" object: versions, settings, interfaces, NICs, plugins, algorithms, each
/// value with the number of processes that reported it (JobConfiguration).
nlohmann::json JsonConfiguration(const Job& job);

/// JsonReport(in) printed with two-space indentation; links are streamed, not built as a tree.
void WriteJsonReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_JSON_REPORT_H_
