// JUnit XML report for CI test-report views (GitLab, Jenkins): one test case per rule, failing
// where the rule fired at warning or error severity; info findings go to <system-out>.
#ifndef NCCLSCOPE_REPORT_JUNIT_REPORT_H_
#define NCCLSCOPE_REPORT_JUNIT_REPORT_H_

#include <ostream>
#include <string>
#include <vector>

#include "ncclscope/report/report.h"

namespace ncclscope {

/// Writes the JUnit report with one test case per id in rule_ids, plus one for every rule that
/// has findings but is not listed, plus one erroring test case per input problem.
void WriteJunit(const ReportInput& in, const std::vector<std::string>& rule_ids, std::ostream& out);

/// The registered writer: the test cases are every rule of the registry (AllRules()).
void WriteJunitReport(const ReportInput& in, const ReportOptions& opts, std::ostream& out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_JUNIT_REPORT_H_
