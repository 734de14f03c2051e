// What every report writer receives, and the writer table (one writer per format).
#ifndef NCCLSCOPE_REPORT_REPORT_H_
#define NCCLSCOPE_REPORT_REPORT_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/input/input_set.h"
#include "ncclscope/model/job.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/triage/root_cause.h"

namespace ncclscope {

struct ReportInput {
  const Job& job;
  const std::vector<Finding>& findings;
  const std::vector<InputProblem>& problems;
  /// The root cause when the caller computed it (Analyze does); writers compute it otherwise.
  const RootCauseReport* root_cause = nullptr;
};

/// input.root_cause, or the root cause computed into *storage.
const RootCauseReport& RootCauseOf(const ReportInput& input, RootCauseReport* storage);

struct ReportOptions {
  bool color = false;         ///< ANSI colours (text format, TTY only unless --color always).
  int matrix_max_ranks = 16;  ///< Rank × rank matrix up to this size; host × host beyond.
  bool verbose = false;       ///< Text: list every link instead of summaries.
  /// The exit code the run ends with (README "Exit codes"), -1 when not known (SARIF invocation).
  int exit_code = -1;
  /// Base address of the docs/ folder online (rule help links: <docs_url>/rules.md#<id>); empty
  /// = no links.
  std::string docs_url;
};

/// Writes a report in one format.
using ReportWriter = void (*)(const ReportInput&, const ReportOptions&, std::ostream&);

struct ReportFormat {
  std::string_view name;
  std::string_view description;
  ReportWriter write;
};

/// "source:line: text" of one evidence line, as the plain-text-like writers print it.
std::string EvidenceLine(const Job& job, const Evidence& e);

/// Every format, in help order.
const std::vector<ReportFormat>& ReportFormats();
/// The format with this name, or nullptr.
const ReportFormat* FindReportFormat(std::string_view name);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_REPORT_H_
