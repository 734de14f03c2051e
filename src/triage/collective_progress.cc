// FromCollectiveProgress: a job that hung and was stopped from outside (a scheduler's time
// limit, a preemption, kubectl delete) before any timeout fired leaves no watchdog line saying
// who was missing. With NCCL_DEBUG_SUBSYS=COLL every rank printed each collective it enqueued
// (`AllReduce: opCount 3 sendbuff ... comm 0x..`), so each rank's last opCount on a
// communicator says how far it got (LastCollective). Ranks behind the others on a communicator
// whose every rank is in the input stopped calling collectives while the others waited.
#include <fmt/format.h>

#include <map>
#include <set>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// One rank of a communicator, as far as the COLL lines tell.
struct Position {
  const ProcessInstance* process = nullptr;
  const LastCollective* last = nullptr;
};

/// One communicator whose ranks did not all get as far.
struct Gap {
  const Communicator* comm = nullptr;
  std::vector<Position> behind, ahead;
  uint64_t top = 0;  ///< The highest opCount enqueued on it.
};

/// The positions of every rank of `c`, each a process of the attempt; empty when a rank is
/// missing, ended, or logged point-to-point operations (their counts are per rank), or when
/// the ranks all got as far (the model keeps positions only where they differ).
std::vector<Position> PositionsOf(const AttemptView& view, const Communicator& c) {
  std::vector<Position> out;
  if (c.nranks < 2 || static_cast<int>(c.ranks.size()) != c.nranks) return {};
  for (const auto& [rank, cr] : c.ranks) {
    if (cr.last_collective < 0 ||
        static_cast<size_t>(cr.last_collective) >= view.job->last_collectives.size() || cr.ended ||
        cr.process < 0 || static_cast<size_t>(cr.process) >= view.job->processes.size()) {
      return {};
    }
    const LastCollective& last = view.job->last_collectives[cr.last_collective];
    if (last.p2p) return {};
    const Process& p = view.job->processes[cr.process];
    const ProcessInstance* pi = view.LastProcessWithPid(p.pid);
    if (pi == nullptr || pi->host != p.hostname) return {};
    out.push_back(Position{pi, &last});
  }
  return out;
}

std::string Who(const ProcessInstance& p) {
  return p.rank >= 0 ? fmt::format("rank {}", p.rank) : fmt::format("{} pid {}", p.host, p.pid);
}

std::string Ranks(const std::vector<Position>& ps) {
  std::vector<int> ranks;
  std::vector<std::string> others;
  for (const Position& p : ps) {
    if (p.process->rank >= 0) {
      ranks.push_back(p.process->rank);
    } else {
      others.push_back(Who(*p.process));
    }
  }
  std::string out = ranks.empty()
                        ? std::string()
                        : fmt::format("rank{} {}", ranks.size() > 1 ? "s" : "", RankRanges(ranks));
  for (const std::string& o : others) out += (out.empty() ? "" : ", ") + o;
  return out;
}

/// "the launcher received signal 15", or the scheduler's words.
std::string StopText(const Incident& stop) {
  if (stop.kind == IncidentKind::kSignalSent) {
    return stop.message.empty() ? std::string("the launcher received a signal")
                                : fmt::format("the launcher received signal {}", stop.message);
  }
  return stop.message.empty() ? std::string("the scheduler cancelled it")
                              : fmt::format("\"{}\"", stop.message);
}

}  // namespace

std::optional<RootCause> FromCollectiveProgress(const AttemptView& view, const Incident& stop) {
  if (view.job == nullptr) return std::nullopt;
  std::vector<Gap> gaps;
  std::set<const ProcessInstance*> behind, compared;
  std::vector<Position> culprits;  ///< The processes of `behind`, each once, in gap order.
  for (const Communicator& c : view.job->comms) {
    std::vector<Position> ranks = PositionsOf(view, c);
    if (ranks.empty()) continue;
    Gap g;
    g.comm = &c;
    for (const Position& p : ranks) g.top = std::max(g.top, p.last->op_count);
    for (const Position& p : ranks) {
      compared.insert(p.process);
      (p.last->op_count < g.top ? g.behind : g.ahead).push_back(p);
    }
    if (g.behind.empty()) continue;
    for (const Position& p : g.behind) {
      if (behind.insert(p.process).second) culprits.push_back(p);
    }
    gaps.push_back(std::move(g));
  }
  // Every rank compared was behind somewhere: the communicators disagree on who waits for whom
  // (an ordering deadlock, or lines the input lacks), which names no rank.
  if (gaps.empty() || behind.size() == compared.size()) return std::nullopt;
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = CauseClass::kStuckRank;
  rc.confidence = Confidence::kMedium;
  rc.time = stop.time;
  rc.time_text = stop.time_text;
  std::vector<std::string> parts;
  for (const Gap& g : gaps) {
    const Position& lag = g.behind.front();
    parts.push_back(fmt::format("on comm {} ({} ranks) {} reached opCount {}, {} stopped at {}",
                                g.comm->id, g.comm->nranks, Ranks(g.ahead), g.top, Ranks(g.behind),
                                lag.last->op_count));
  }
  for (const Position& p : culprits) {
    rc.culprits.push_back(Culprit{p.process->rank, p.process->host, p.process->pid});
  }
  rc.what = fmt::format(
      "stopped calling collectives: {} behind the other ranks when the job was "
      "stopped",
      culprits.size() > 1 ? "they were" : "it was");
  rc.reasoning = fmt::format(
      "no rank reported an error or a timeout and the job was stopped from outside ({}); "
      "NCCL's COLL lines give each rank's last enqueued collective: {}. {} stopped calling "
      "collectives while the others waited for {} (a job still running when it was stopped "
      "can show a rank momentarily one collective behind: the further behind, the surer)",
      StopText(stop), fmt::join(parts, "; "), culprits.size() > 1 ? "They" : "It",
      culprits.size() > 1 ? "them" : "it");
  rc.evidence.push_back(stop.evidence);
  // The culprits' last collective lines that were quoted (a rank's last COLL line of the job),
  // then one of a rank ahead.
  for (const Gap& g : gaps) {
    for (const Position& p : g.behind) {
      const Evidence& line = p.last->line;
      if (line.text.empty() || rc.evidence.size() >= 4) continue;
      bool seen = false;
      for (const Evidence& e : rc.evidence)
        seen = seen || (e.source == line.source && e.line == line.line);
      if (seen) continue;
      rc.evidence.push_back(line);
      rc.cause_lines.push_back({line.source, line.line});
    }
  }
  for (const Gap& g : gaps) {
    for (const Position& p : g.ahead) {
      if (p.last->line.text.empty()) continue;
      rc.evidence.push_back(p.last->line);
      return rc;
    }
  }
  return rc;
}

}  // namespace ncclscope::triage_internal
