// `ncclscope analyze --follow`: wires the live analysis (analysis/follow.h) to the terminal.
// New findings go to the report stream as they are found, one per line (text, or JSON Lines with
// --format json); a status line is redrawn on stderr when it is a terminal; the full report comes
// at end of input or on Ctrl-C. The exit code is the same as without --follow.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "ncclscope/analysis/follow.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/interrupt.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/report.h"
#include "ncclscope/rules/policy.h"

namespace ncclscope::cli {
namespace {

/// Prints findings as they come and keeps the status line on stderr.
class CliFollowListener : public FollowListener {
 public:
  CliFollowListener(std::ostream* out, std::ostream* err, bool json, bool status_line)
      : out_(out), err_(err), json_(json), status_line_(status_line) {}

  void OnFinding(const Job& job, const Finding& f) override {
    ClearStatus();
    if (json_) {
      // Evidence lines may hold invalid UTF-8: replaced, never a throw.
      *out_ << nlohmann::json{{"event", "finding"}, {"finding", JsonFinding(job, f)}}.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace)
            << '\n';
    } else {
      std::string sev(SeverityName(f.severity));
      for (char& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      *out_ << fmt::format("{:<7} [{}] {}{}{}\n", sev, f.rule, f.title,
                           f.message.empty() ? "" : ": ", f.message);
    }
    out_->flush();
    RedrawStatus();
  }

  void OnStatus(const FollowStatus& s) override {
    last_ = fmt::format("ncclscope: {} lines, {} NCCL, {} ranks, {} comms, {} finding{}", s.lines,
                        s.nccl_lines, s.ranks, s.comms, s.findings, s.findings == 1 ? "" : "s");
    RedrawStatus();
  }

  /// Erases the status line (before the report, and at exit).
  void ClearStatus() {
    if (!status_line_ || shown_ == 0) return;
    *err_ << '\r' << std::string(shown_, ' ') << '\r';
    err_->flush();
    shown_ = 0;
  }

 private:
  void RedrawStatus() {
    if (!status_line_ || last_.empty()) return;
    *err_ << '\r' << last_ << std::string(shown_ > last_.size() ? shown_ - last_.size() : 0, ' ');
    err_->flush();
    shown_ = std::max(shown_, last_.size());
  }

  std::ostream* out_;
  std::ostream* err_;
  bool json_;
  bool status_line_;
  std::string last_;
  size_t shown_ = 0;  // width of the status line on screen
};

}  // namespace

int RunFollow(const AnalyzeCommandOptions& opts, std::ostream& out, std::ostream& err) {
  const ReportFormat* format = FindReportFormat(opts.format);
  if (!format) {
    err << "ncclscope: unknown format '" << opts.format << "'\n";
    return kExitUsage;
  }
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  const bool json = opts.format == "json";
  AnalyzeOptions aopts;
  Policy policy;
  Status ps = MakeAnalyzeOptions(opts, &aopts, &policy);
  if (!ps.ok()) {
    err << "ncclscope: " << ps.message() << "\n";
    return kExitUsage;
  }
  CliFollowListener listener(&output.stream(), &err, json, !opts.quiet && IsTerminal(err));
  InstallInterruptHandler();
  FollowOptions fopts;
  fopts.stop = &InterruptFlag();
  AnalysisResult result;
  Status s = Follow(aopts, fopts, &listener, &result);
  listener.ClearStatus();
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  if (!opts.policy.empty()) ApplyPolicy(policy, result.job, &result.findings);
  for (const auto& p : result.problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  const ReportInput report{result.job, result.findings, result.problems};
  const int exit_code = AnalyzeExitCode(opts, result, err);
  if (json) {  // Stay JSON Lines: the report is one more line.
    output.stream() << nlohmann::json{{"event", "report"}, {"report", JsonReport(report)}}.dump(
                           -1, ' ', false, nlohmann::json::error_handler_t::replace)
                    << '\n';
  } else {
    ReportOptions ropts;
    ropts.color = UseColor(opts.color, output.is_file());
    ropts.verbose = opts.verbose;
    ropts.exit_code = exit_code;
    ropts.docs_url = DocsUrl();
    format->write(report, ropts, output.stream());
  }
  output.stream().flush();
  return exit_code;
}

}  // namespace ncclscope::cli
