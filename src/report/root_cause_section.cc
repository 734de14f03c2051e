#include "ncclscope/report/root_cause_section.h"

#include <fmt/format.h>

#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/triage/failure_timeline.h"

namespace ncclscope {
namespace {

constexpr size_t kTimelineRows = 8;

std::string Where(const Job& job, const Evidence& e) {
  return fmt::format("{}:{}", job.SourceName(e.source), e.line);
}

std::string Who(const RootCause& c) {
  if (c.culprits.empty()) return "no single rank";
  std::vector<int> ranks;
  for (const Culprit& k : c.culprits) {
    if (k.rank >= 0) ranks.push_back(k.rank);
  }
  if (c.culprits.size() == 1 || ranks.size() < 2) return CulpritText(c.culprits.front());
  return fmt::format("ranks {} (first: {})", RankRanges(ranks), CulpritText(c.culprits.front()));
}

bool Worth(const RootCause& c) { return c.cls != CauseClass::kNone || c.job_failed; }

void WriteCause(const Job& job, const AttemptCause& a, const std::string& indent,
                std::ostream& out) {
  const RootCause& c = a.cause;
  out << fmt::format("{}class {}, confidence {}{}\n", indent, CauseClassName(c.cls),
                     ConfidenceName(c.confidence),
                     c.time_text.empty() ? std::string() : ", at " + c.time_text);
  if (!c.reasoning.empty()) out << fmt::format("{}why: {}\n", indent, c.reasoning);
  if (!c.evidence.empty()) {
    out << fmt::format("{}evidence:\n", indent);
    for (const Evidence& e : c.evidence) {
      out << fmt::format("{}  {}: {}\n", indent, Where(job, e), e.text);
    }
  }
  if (!c.fallout.empty()) {
    out << fmt::format("{}fallout:\n", indent);
    for (const Fallout& f : c.fallout) {
      out << fmt::format("{}  rank {} {}{} ({})\n", indent, f.rank, f.what,
                         f.time_text.empty() ? std::string() : " at " + f.time_text,
                         Where(job, f.evidence));
    }
  }
  const std::vector<TimelineRow> rows = BuildFailureTimeline(job, a);
  if (rows.size() < 2) return;
  out << fmt::format("{}first failure and spread (`ncclscope timeline` for all {}):\n", indent,
                     rows.size());
  size_t start = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].first_failure) start = i > 2 ? i - 2 : 0;
  }
  for (size_t i = start; i < rows.size() && i < start + kTimelineRows; ++i) {
    const TimelineRow& r = rows[i];
    const Incident& inc = *r.incident;
    out << fmt::format("{}  {:<26} {:>10}  {:<8} {}{}\n", indent,
                       r.time_text.empty() ? "(no time)" : r.time_text, r.delta,
                       inc.rank >= 0 ? fmt::format("rank {}", inc.rank) : std::string("-"),
                       r.summary, r.first_failure ? "   <- first failure" : "");
  }
}

}  // namespace

std::string RootCauseHeadline(const RootCause& c) {
  if (c.cls == CauseClass::kNone) {
    if (!c.job_failed) return "no failure in the input";
    return c.what.empty() ? "processes were stopped; the input does not say why" : c.what;
  }
  // No culprit: the sentence is the cause itself ("no single rank: the job hung").
  return fmt::format("{}{} {}", Who(c), c.culprits.empty() ? ":" : "", c.what);
}

void WriteRootCauseSection(const Job& job, const RootCauseReport& report, std::ostream& out) {
  bool any = false;
  for (const AttemptCause& a : report.attempts) any = any || Worth(a.cause);
  if (!any) return;
  out << fmt::format("Root cause: {}\n", RootCauseHeadline(report.cause));
  if (report.attempts.size() == 1) {
    WriteCause(job, report.attempts[0], "  ", out);
  } else {
    out << fmt::format("  the job ran {} attempts (the launcher restarted it); each has its own "
                       "cause:\n",
                       report.attempts.size());
    for (const AttemptCause& a : report.attempts) {
      std::vector<std::string> procs;
      for (const ProcessInstance& p : a.processes) {
        procs.push_back(p.rank >= 0 ? fmt::format("rank {} pid {}", p.rank, p.pid)
                                    : fmt::format("pid {}", p.pid));
      }
      out << fmt::format("  attempt {} ({}): {}\n", a.info.index + 1,
                         procs.empty() ? std::string("no NCCL process") : fmt::format("{}", fmt::join(procs, ", ")),
                         RootCauseHeadline(a.cause));
      if (Worth(a.cause)) WriteCause(job, a, "    ", out);
    }
  }
  if (job.incidents.dropped > 0) {
    out << fmt::format("  not kept for the triage: {} failure line(s) over its caps ({} per "
                       "process and kind; past {} in all, {} per process)\n",
                       job.incidents.dropped, kMaxIncidentsPerProcessKind, kMaxIncidents,
                       kIncidentsPerProcess);
  }
  out << "\n";
}

}  // namespace ncclscope
