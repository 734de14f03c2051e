// The format table: every documented format is registered and copes with an empty job.
#include <gtest/gtest.h>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

TEST(ReportFormats, EveryDocumentedFormatIsRegistered) {
  for (std::string_view name :
       {"text", "json", "junit", "github", "markdown", "dot", "mermaid", "html"}) {
    EXPECT_NE(FindReportFormat(name), nullptr) << name;
  }
}

TEST(ReportFormats, EveryFormatWritesSomethingForAnEmptyJob) {
  testing::ReportCase empty;
  for (const auto& f : ReportFormats()) {
    EXPECT_FALSE(testing::Render(f.write, empty).empty()) << f.name;
  }
}

}  // namespace
}  // namespace ncclscope
