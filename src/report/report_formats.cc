// The table of report formats: adding a format = one writer file + one line here.
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/report.h"
#include "ncclscope/report/text_report.h"

namespace ncclscope {

const std::vector<ReportFormat>& ReportFormats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "human-readable summary (default)", WriteTextReport},
      {"json", "stable machine-readable report, schema in docs/json-output.md", WriteJsonReport},
  };
  return formats;
}

const ReportFormat* FindReportFormat(std::string_view name) {
  for (const auto& f : ReportFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace ncclscope
