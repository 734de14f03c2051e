#include "ncclscope/report/triage_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/model/timeline.h"
#include "ncclscope/model/watchdog_table.h"
#include "ncclscope/report/rank_table.h"
#include "ncclscope/rules/warn_filter.h"

namespace ncclscope {
namespace {

constexpr size_t kMaxTimeline = 10;
constexpr size_t kMaxText = 160;

std::string Clip(std::string_view s) { return ClipText(s, kMaxText); }

std::string Where(const Job& job, uint32_t source, uint64_t line) {
  return fmt::format("{}:{}", job.SourceName(source), line);
}

std::string Num(int64_t v) { return v >= 0 ? std::to_string(v) : "-"; }

void WriteWatchdog(const Job& job, const std::vector<WatchdogGroup>& groups, std::ostream& out) {
  for (const WatchdogGroup& g : groups) {
    std::string name = g.pg_id >= 0 ? fmt::format("process group {}", g.pg_id)
                                    : std::string("process group (unknown id)");
    if (!g.pg_desc.empty()) name += " (" + g.pg_desc + ")";
    out << fmt::format("  {}: {} of {} rank(s) timed out", name, g.timed_out.size(), g.rows.size());
    if (g.timeout_seq >= 0) out << fmt::format(" on SeqNum {}", g.timeout_seq);
    if (!g.op_type.empty()) out << " " << g.op_type;
    if (g.timeout_ms >= 0) out << fmt::format(" (timeout {} s)", g.timeout_ms / 1000);
    out << "\n";
    out << fmt::format("    {:>5}  {:<16} {:>8}  {:>8} {:>9}  {:<24} {}\n", "rank", "host", "pid",
                       "enqueued", "completed", "timed out", "state");
    for (const WatchdogRow& r : g.rows) {
      std::string host = "?", pid = "?";
      if (r.process >= 0) {
        host = job.processes[r.process].hostname;
        pid = std::to_string(job.processes[r.process].pid);
      }
      std::string timeout =
          r.timed_out ? fmt::format("SeqNum {} {}", Num(r.timeout_seq), r.op_type) : "-";
      std::string state = r.suspect     ? "SUSPECT: " + r.why
                          : !r.reported ? "reported nothing"
                          : r.timed_out ? "timed out"
                                        : "ok";
      const std::string rank = r.rank >= 0 ? std::to_string(r.rank) : "?";
      out << fmt::format("    {:>5}  {:<16} {:>8}  {:>8} {:>9}  {:<24} {}\n", rank, host, pid,
                         Num(r.last_enqueued), Num(r.last_completed), timeout, state);
    }
    out << fmt::format("    ranks that reported nothing: {}\n",
                       g.silent.empty() ? "none" : RankRanges(g.silent));
    for (const WatchdogRow& r : g.rows) {
      if (!r.suspect || r.process < 0) continue;
      const Evidence& last = job.processes[r.process].last_line;
      if (last.text.empty()) continue;
      out << fmt::format("    suspect rank {} ({}) last NCCL line {}: {}\n", r.rank,
                         HostPid(job, r.process), Where(job, last.source, last.line),
                         Clip(last.text));
    }
  }
}

void WriteStuckInit(const Job& job, std::ostream& out) {
  for (const Communicator& c : job.comms) {
    std::vector<int> stuck, absent;
    for (const auto& [r, cr] : c.ranks) {
      if (cr.started && !cr.completed) stuck.push_back(r);
    }
    if (stuck.empty()) continue;
    for (int r = 0; r < c.nranks && c.ranks.size() < static_cast<size_t>(c.nranks); ++r) {
      if (!c.ranks.count(r)) absent.push_back(r);
    }
    out << fmt::format(
        "  init of comm {}: rank(s) {} of {} never reached Init COMPLETE{}\n", c.id,
        RankRanges(stuck), c.nranks,
        absent.empty() ? ""
                       : fmt::format("; rank(s) {} absent from the inputs", RankRanges(absent)));
  }
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// "bootstrap: slowest rank 0 (host) 59.8 s, median 0.1 s; outliers ..." or "" if unremarkable.
std::string TimingLine(const std::vector<RankRow>& rows, bool bootstrap, bool always) {
  std::vector<std::pair<double, const RankRow*>> t;
  for (const RankRow& r : rows) {
    double s = bootstrap ? r.bootstrap_seconds : r.init_seconds;
    if (s >= 0) t.push_back({s, &r});
  }
  if (t.empty()) return "";
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<double> all;
  for (const auto& [s, r] : t) all.push_back(s);
  double med = Median(all);
  std::vector<std::string> outliers;
  for (const auto& [s, r] : t) {
    if (s > 10.0 || (s >= 2.0 && s > 5 * std::max(med, 0.01))) {
      outliers.push_back(fmt::format("rank {} ({}) {:.1f} s",
                                     r->global_rank >= 0 ? std::to_string(r->global_rank) : "?",
                                     r->host, s));
    }
  }
  if (outliers.empty() && !always) return "";
  std::string line = fmt::format(
      "  {}: slowest rank {} ({}) {:.2f} s, median {:.2f} s over {} rank(s)",
      bootstrap ? "bootstrap" : "init",
      t.front().second->global_rank >= 0 ? std::to_string(t.front().second->global_rank) : "?",
      t.front().second->host, t.front().first, med, t.size());
  if (!outliers.empty()) {
    line += "; slow/outliers: ";
    for (size_t i = 0; i < outliers.size() && i < 4; ++i) line += (i ? ", " : "") + outliers[i];
    if (outliers.size() > 4) line += fmt::format(", and {} more", outliers.size() - 4);
  }
  return line + "\n";
}

void WriteTimeline(const Job& job, const std::vector<TimelineEntry>& tl, std::ostream& out) {
  int first = FirstFailure(tl);
  out << "  errors in order (by timestamp where the lines have one, else input order):\n";
  for (size_t i = 0; i < tl.size() && i < kMaxTimeline; ++i) {
    const TimelineEntry& e = tl[i];
    out << fmt::format("    {:>2}. {} {} rank {} [{}] {}: {}{}\n", i + 1,
                       e.time.empty() ? "(no time)" : e.time, e.host.empty() ? "?" : e.host,
                       e.rank >= 0 ? std::to_string(e.rank) : "?", e.kind,
                       Where(job, e.source, e.line), Clip(e.text),
                       static_cast<int>(i) != first ? ""
                       : e.kind == "watchdog-timeout"
                           ? "  <- first failure (a timeout: a symptom, see the suspects above)"
                           : "  <- first failure — likely the cause");
  }
  if (tl.size() > kMaxTimeline) {
    out << fmt::format("    ... and {} more (see --format json)\n", tl.size() - kMaxTimeline);
  }
  std::map<std::string, const TimelineEntry*> per_host;
  // Lines without a host (framework lines without a [rankN] prefix) cannot be placed on one.
  for (const TimelineEntry& e : tl) {
    if (!e.host.empty()) per_host.emplace(e.host, &e);
  }
  if (per_host.size() < 2) return;
  out << "  first error per host:\n";
  for (const auto& [host, e] : per_host) {
    out << fmt::format(
        "    {}: rank {} {} {}: {}\n", host, e->rank >= 0 ? std::to_string(e->rank) : "?",
        e->time.empty() ? "(no time)" : e->time, Where(job, e->source, e->line), Clip(e->text));
  }
}

}  // namespace

void WriteTriageSection(const Job& job, std::ostream& out) {
  std::vector<WatchdogGroup> groups = BuildWatchdogGroups(job);
  std::vector<TimelineEntry> tl = BuildTimeline(job, &IsErrorWarning);
  bool stuck = false;
  for (const Communicator& c : job.comms) {
    for (const auto& [r, cr] : c.ranks) stuck = stuck || (cr.started && !cr.completed);
  }
  std::vector<RankRow> rows = BuildRankTable(job);
  bool busy = !groups.empty() || !tl.empty() || stuck;
  std::string timings = TimingLine(rows, true, busy) + TimingLine(rows, false, busy);
  if (!busy && timings.empty()) return;
  out << "\nTriage\n";
  WriteWatchdog(job, groups, out);
  WriteStuckInit(job, out);
  out << timings;
  if (!tl.empty()) WriteTimeline(job, tl, out);
}

}  // namespace ncclscope
