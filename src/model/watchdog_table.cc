#include "ncclscope/model/watchdog_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ncclscope/model/process_index.h"
#include "ncclscope/model/rank_ranges.h"

namespace ncclscope {
namespace {

void CopyTimeout(const TorchRankState& from, WatchdogRow* to) {
  to->timed_out = true;
  to->timeout_seq = std::max(to->timeout_seq, from.timeout_seq);
  if (to->op_type.empty()) to->op_type = from.op_type;
  if (to->timeout_ms < 0) to->timeout_ms = from.timeout_ms;
  to->evidence.insert(to->evidence.begin(), from.evidence.begin(), from.evidence.end());
}

WatchdogRow RowOf(const ProcessIndex& processes, const TorchRankState& s) {
  WatchdogRow r;
  r.rank = s.rank;
  r.process = processes.OfRank(s.rank);
  r.last_enqueued = s.last_enqueued;
  r.last_completed = s.last_completed;
  r.evidence = s.evidence;
  if (s.timed_out) {
    r.timed_out = true;
    r.op_type = s.op_type;
    r.timeout_ms = s.timeout_ms;
  }
  r.timeout_seq = s.timeout_seq;  // Progress lines name the failed SeqNum too.
  return r;
}

/// Whether no rank of `rows` timed out in another operation at the timeout's SeqNum.
bool SameCollective(const std::map<int, WatchdogRow>& rows, const TorchRankState& t) {
  for (const auto& [rank, row] : rows) {
    if (row.timed_out && row.timeout_seq == t.timeout_seq && !row.op_type.empty() &&
        !t.op_type.empty() && row.op_type != t.op_type)
      return false;
  }
  return true;
}

/// Marks suspects of a group in which some rank timed out.
void FindSuspects(const Job& job, WatchdogGroup* g) {
  int64_t max_enq = -1, max_done = -1;
  for (const WatchdogRow& r : g->rows) {
    max_enq = std::max(max_enq, r.last_enqueued);
    max_done = std::max(max_done, r.last_completed);
  }
  // The ranks at the front, written once: half the ranks of a large job may be behind.
  std::string ahead_enq, ahead_done;
  auto ranks_with = [&](int64_t WatchdogRow::*field, int64_t value) {
    std::vector<int> ahead;
    for (const WatchdogRow& o : g->rows) {
      if (o.*field == value) ahead.push_back(o.rank);
    }
    return RankRanges(ahead);
  };
  // The first exit line of each rank (PyTorch's exit warning, the end of its world
  // communicator), for the rows of ranks that reported nothing: one pass, not one per row.
  std::map<int, const Incident*> exit_of;
  if (std::any_of(g->rows.begin(), g->rows.end(),
                  [](const WatchdogRow& r) { return !r.reported; })) {
    for (const Incident& i : job.incidents.incidents) {
      if (i.kind == IncidentKind::kOrderlyExit && i.rank >= 0) exit_of.emplace(i.rank, &i);
    }
  }
  for (WatchdogRow& r : g->rows) {
    std::vector<std::string> why;
    if (!r.reported) {
      why.push_back("reported nothing (no watchdog or progress line)");
      // A world rank that said it was leaving: what the table can add to its silence.
      if (const auto it = exit_of.find(r.rank); it != exit_of.end()) {
        why.push_back(fmt::format("it left the job (\"{}\", line {})", it->second->message,
                                  it->second->evidence.line));
      }
    } else if (!r.timed_out && r.timeout_seq < 0) {
      // A progress line that names the failed SeqNum ("failure detected by watchdog at work
      // sequence id: N") is the rank's own watchdog catching the failure: not a silent rank.
      why.push_back("reported no timeout");
    }
    // Behind the others in what it enqueued, and short of the collective that timed out: it
    // never called it. Ranks that enqueued past it were not stopped, whatever they did next.
    const int64_t needed = g->timeout_seq >= 0 ? std::min(g->timeout_seq, max_enq) : max_enq;
    if (r.last_enqueued >= 0 && r.last_enqueued < needed) {
      if (ahead_enq.empty()) ahead_enq = ranks_with(&WatchdogRow::last_enqueued, max_enq);
      why.push_back("its last enqueued work is " + std::to_string(r.last_enqueued) +
                    " while ranks " + ahead_enq + " enqueued " + std::to_string(max_enq) +
                    ": it stopped calling collectives");
    } else if (r.last_completed >= 0 && r.last_completed < max_done) {
      if (ahead_done.empty()) ahead_done = ranks_with(&WatchdogRow::last_completed, max_done);
      why.push_back("its last completed work is " + std::to_string(r.last_completed) +
                    " while ranks " + ahead_done + " completed " + std::to_string(max_done) +
                    ": it is stuck in an earlier collective");
    }
    if (why.empty()) continue;
    r.suspect = true;
    for (size_t i = 0; i < why.size(); ++i) r.why += (i ? "; " : "") + why[i];
    g->suspects.push_back(r.rank);
  }
}

}  // namespace

int WorldSize(const Job& job) {
  int n = 0;
  for (const Communicator& c : job.comms) {
    if (c.parent_id.empty()) n = std::max(n, c.nranks);
  }
  return n;
}

std::string HostPid(const Job& job, int process) {
  if (process < 0 || static_cast<size_t>(process) >= job.processes.size()) return "?";
  const Process& p = job.processes[process];
  // A headless process (NCCL lines without their host:pid head): what the prefixes said, or the
  // input it came from.
  if (p.headless && p.pid == 0) {
    if (p.hostname.starts_with('?'))
      return "lines without a host:pid head in " + p.hostname.substr(1);
    return p.hostname + ", pid not printed";
  }
  return (p.hostname.empty() ? "?" : p.hostname) + " pid " + std::to_string(p.pid);
}

std::vector<WatchdogGroup> BuildWatchdogGroups(const Job& job) {
  // (pg, rank) → row; timeouts (pg -1) wait for their group.
  std::map<int, std::map<int, WatchdogRow>> groups;
  std::map<int, std::string> desc;
  std::vector<const TorchRankState*> timeouts;
  const ProcessIndex processes(job);
  for (const TorchRankState& s : job.torch_ranks) {
    if (s.pg_id < 0) {
      timeouts.push_back(&s);
      continue;
    }
    groups[s.pg_id][s.rank] = RowOf(processes, s);
    if (!s.pg_desc.empty()) desc[s.pg_id] = s.pg_desc;
  }
  // The process group, when the progress lines show exactly one.
  const int only_pg = groups.size() == 1 ? groups.begin()->first : -1;
  for (const TorchRankState* t : timeouts) {
    WatchdogRow* target = nullptr;
    WatchdogRow* only = nullptr;
    int candidates = 0;
    for (auto& [pg, rows] : groups) {
      auto it = rows.find(t->rank);
      if (it == rows.end()) continue;
      ++candidates;
      only = &it->second;
      if (t->timeout_seq >= 0 && it->second.timeout_seq == t->timeout_seq) target = &it->second;
    }
    if (target == nullptr && candidates == 1) target = only;
    if (target != nullptr) {
      CopyTimeout(*t, target);
    } else if (candidates == 0 && only_pg >= 0 && SameCollective(groups[only_pg], *t)) {
      // One process group shows in the progress lines: a timeout of another rank is in it too
      // (unless its ranks timed out in another operation at that SeqNum: a mismatch, kept apart).
      groups[only_pg][t->rank] = RowOf(processes, *t);
    } else {
      groups[-1][t->rank] = RowOf(processes, *t);
    }
  }
  std::vector<WatchdogGroup> out;
  const int world = WorldSize(job);
  for (auto& [pg, rows] : groups) {
    WatchdogGroup g;
    g.pg_id = pg;
    g.pg_desc = desc.count(pg) ? desc[pg] : "";
    // The default group (0, or the unknown group when it is the only one) spans the world.
    bool world_group = pg == 0 || (pg < 0 && groups.size() == 1);
    // Silent ranks get a row each, so a damaged or hostile `nranks` (800,275 in a fuzzed line)
    // would cost seconds of rows that nobody reads: beyond kMaxSilentRows the silent ranks of
    // the world are not listed (the ranks that reported still are).
    constexpr int kMaxSilentRows = 1 << 16;
    if (world_group && world <= kMaxSilentRows) {
      for (int r = 0; r < world; ++r) {
        if (rows.count(r)) continue;
        WatchdogRow silent;
        silent.rank = r;
        silent.process = processes.OfRank(r);
        silent.reported = false;
        rows[r] = silent;
        g.silent.push_back(r);
      }
    }
    for (auto& [r, row] : rows) {
      if (row.timed_out) {
        g.timed_out.push_back(r);
        g.timeout_seq = std::max(g.timeout_seq, row.timeout_seq);
        if (g.op_type.empty()) g.op_type = row.op_type;
        if (g.timeout_ms < 0) g.timeout_ms = row.timeout_ms;
      }
      g.rows.push_back(std::move(row));
    }
    if (!g.timed_out.empty()) FindSuspects(job, &g);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ncclscope
