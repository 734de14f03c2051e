// `ncclscope timeline`: the failure timeline of every attempt.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/model/incident.h"
#include "ncclscope/report/root_cause_section.h"
#include "ncclscope/triage/failure_timeline.h"

namespace ncclscope::cli {
namespace {

void WriteText(const Job& job, const RootCauseReport& report, std::ostream& out) {
  for (const AttemptCause& a : report.attempts) {
    if (report.attempts.size() > 1) out << fmt::format("Attempt {}\n", a.info.index + 1);
    out << fmt::format("Root cause: {}\n", RootCauseHeadline(a.cause));
    const std::vector<TimelineRow> rows = BuildFailureTimeline(job, a);
    if (rows.empty()) out << "  no failure incidents in the input\n";
    for (const TimelineRow& r : rows) {
      const Incident& i = *r.incident;
      out << fmt::format("  {:<26} {:>10}  {:<8} {:<24} {}:{}  {}{}\n",
                         r.time_text.empty() ? "(no time)" : r.time_text, r.delta,
                         i.rank >= 0 ? fmt::format("rank {}", i.rank) : std::string("-"),
                         i.host.empty() ? std::string("-")
                                        : i.pid > 0 ? fmt::format("{} pid {}", i.host, i.pid)
                                                    : i.host,
                         job.SourceName(i.evidence.source), i.evidence.line, r.summary,
                         r.first_failure ? "   <- first failure" : r.fallout ? "   (fallout)" : "");
    }
    out << "\n";
  }
}

void WriteJson(const Job& job, const RootCauseReport& report, std::ostream& out) {
  nlohmann::json attempts = nlohmann::json::array();
  for (const AttemptCause& a : report.attempts) {
    nlohmann::json rows = nlohmann::json::array();
    for (const TimelineRow& r : BuildFailureTimeline(job, a)) {
      const Incident& i = *r.incident;
      rows.push_back({{"time", r.time_text.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.time_text)},
                      {"since_first_failure", r.delta.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.delta)},
                      {"kind", IncidentKindName(i.kind)},
                      {"rank", i.rank >= 0 ? nlohmann::json(i.rank) : nlohmann::json(nullptr)},
                      {"host", i.host.empty() ? nlohmann::json(nullptr) : nlohmann::json(i.host)},
                      {"pid", i.pid > 0 ? nlohmann::json(i.pid) : nlohmann::json(nullptr)},
                      {"summary", r.summary},
                      {"first_failure", r.first_failure},
                      {"fallout", r.fallout},
                      {"file", job.SourceName(i.evidence.source)},
                      {"line", i.evidence.line},
                      {"text", i.evidence.text}});
    }
    attempts.push_back({{"attempt", a.info.index + 1},
                        {"root_cause", RootCauseHeadline(a.cause)},
                        {"class", CauseClassName(a.cause.cls)},
                        {"incidents", std::move(rows)}});
  }
  out << nlohmann::json{{"attempts", std::move(attempts)}}.dump(2) << "\n";
}

}  // namespace

int RunTimeline(const TimelineCommandOptions& opts, std::ostream& out, std::ostream& err) {
  AnalyzeOptions aopts;
  aopts.inputs = opts.inputs;
  aopts.run_rules = false;
  AnalysisResult result;
  Status s = Analyze(aopts, &result);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  for (const auto& p : result.problems) err << "ncclscope: " << p.path << ": " << p.message << "\n";
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  if (opts.format == "json") {
    WriteJson(result.job, result.root_cause, output.stream());
  } else {
    WriteText(result.job, result.root_cause, output.stream());
  }
  if (!result.problems.empty()) return kExitUsage;
  return result.job.stats.events == 0 ? kExitNoNccl : kExitOk;
}

}  // namespace ncclscope::cli
