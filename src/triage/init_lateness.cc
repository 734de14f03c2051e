// FindLateStart: at init every rank waits in NCCL's bootstrap until the last one arrives, so the
// late rank is the one that waited least while the others waited long. A rank of the world that
// never started init while the others are stuck in it is the missing one. FromUniqueIdWait: a
// rank whose fetch of the NCCL unique id timed out waited for the rank that creates it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// A wait that makes init slow enough to matter, in seconds.
constexpr double kLateSeconds = 5.0;

struct Wait {
  int rank = -1;
  double seconds = 0;
  const Process* process = nullptr;
  Evidence evidence;
};

/// The rank PyTorch fetches the NCCL unique id from ("... retrieving ncclUniqueId from [0] via
/// c10d key-value store ..."), or -1.
int UniqueIdCreator(std::string_view message) {
  constexpr std::string_view kFrom = "ncclUniqueId from [";
  const size_t at = message.find(kFrom);
  if (at == std::string_view::npos) return -1;
  const size_t start = at + kFrom.size();
  const size_t close = message.find(']', start);
  if (close == std::string_view::npos || close - start > 7) return -1;
  const std::optional<int64_t> rank = ParseInt64(message.substr(start, close - start));
  return rank && *rank >= 0 ? static_cast<int>(*rank) : -1;
}

bool SaysTimedOut(std::string_view message) {
  for (std::string_view t : {"wait timeout", "timed out", "Timeout", "timeout after"}) {
    if (message.find(t) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<RootCause> FindLateStart(const AttemptView& view, bool job_failed) {
  const Job& job = *view.job;
  // The attempt's world communicator: the largest top-level one its processes joined.
  std::set<std::string_view> worlds;
  for (const ProcessInstance* p : view.processes) worlds.insert(p->world_comm);
  const Communicator* world = nullptr;
  for (const Communicator& c : job.comms) {
    if (!c.parent_id.empty() || worlds.count(c.id) == 0) continue;
    if (world == nullptr || c.nranks > world->nranks) world = &c;
  }
  if (world == nullptr) return std::nullopt;
  std::vector<Wait> waits;
  std::vector<int> stuck, absent;
  for (const auto& [r, cr] : world->ranks) {
    if (cr.started && !cr.completed) stuck.push_back(r);
    if (cr.process < 0) continue;
    const Process& p = job.processes[cr.process];
    Wait w;
    w.rank = r;
    w.process = &p;
    if (cr.init_timings && cr.init_timings->bootstrap >= 0) {
      w.seconds = cr.init_timings->bootstrap;
      w.evidence = p.bootstrap_timings ? p.bootstrap_timings_evidence : cr.complete_evidence;
    } else if (p.bootstrap_timings) {
      w.seconds = p.bootstrap_timings->total;
      w.evidence = p.bootstrap_timings_evidence;
    } else {
      continue;
    }
    waits.push_back(w);
  }
  // A rank missing from the communicator whose process is in the log (its other lines state
  // the rank: an excerpt that starts after its init, or a communicator it ended) did not
  // "never start": it is named apart and not blamed.
  std::vector<int> present;
  if (world->ranks.size() < static_cast<size_t>(world->nranks)) {
    std::set<int> logged;
    for (const ProcessInstance* p : view.processes) {
      if (p->world == world->nranks) logged.insert(p->rank);
    }
    for (int r = 0; r < world->nranks; ++r) {
      if (world->ranks.count(r)) continue;
      (logged.count(r) ? present : absent).push_back(r);
    }
  }
  RootCause rc;
  rc.attempt = view.attempt;
  rc.cls = CauseClass::kLateStart;
  rc.job_failed = job_failed;
  if (!stuck.empty() && !absent.empty()) {
    for (int r : absent) rc.culprits.push_back(Culprit{r, {}, -1});
    // Without a failure, an excerpt that ends during init looks the same: a guess then.
    rc.confidence = job_failed ? Confidence::kMedium : Confidence::kLow;
    rc.what = "never reached init";
    rc.reasoning = fmt::format(
        "rank(s) {} of communicator {} ({} ranks) never printed Init START while rank(s) {} "
        "waited in init: they were late, not scheduled, or died before NCCL started (or their "
        "logs are not in the input){}",
        RankRanges(absent), world->id, world->nranks, RankRanges(stuck),
        present.empty() ? std::string()
                        : fmt::format("; rank(s) {} are in the log but printed no Init START for "
                                      "it",
                                      RankRanges(present)));
    for (int r : stuck) {
      const CommRank& cr = world->ranks.at(r);
      if (rc.evidence.size() < 3) rc.evidence.push_back(cr.start_evidence);
    }
    return rc;
  }
  if (waits.size() < 2) return std::nullopt;
  auto [lo, hi] = std::minmax_element(waits.begin(), waits.end(), [](const Wait& a, const Wait& b) {
    return a.seconds < b.seconds;
  });
  const double gap = hi->seconds - lo->seconds;
  if (gap < kLateSeconds) return std::nullopt;
  std::vector<int> late, waited;
  for (const Wait& w : waits) {
    if (w.seconds <= lo->seconds + 1.0) {
      late.push_back(w.rank);
      rc.culprits.push_back(Culprit{w.rank, w.process->hostname, w.process->pid});
      rc.evidence.push_back(w.evidence);
    } else {
      waited.push_back(w.rank);
    }
  }
  for (const Wait& w : waits) {
    if (w.rank == hi->rank) rc.evidence.push_back(w.evidence);
  }
  rc.confidence = waited.empty() ? Confidence::kLow : Confidence::kHigh;
  rc.what = fmt::format("reached init about {:.1f} s after the other ranks", gap);
  rc.reasoning = fmt::format(
      "in NCCL's bootstrap rank(s) {} waited up to {:.1f} s (rank {}) while rank(s) {} waited "
      "{:.2f} s: the rank that waits least arrived last, and the others waited for it{}",
      RankRanges(waited), hi->seconds, hi->rank, RankRanges(late), lo->seconds,
      job_failed ? "" : "; the job then ran normally");
  return rc;
}

std::optional<RootCause> FromUniqueIdWait(const AttemptView& view,
                                          const std::vector<RankFailure>& failures,
                                          const RankFailure& head) {
  const Incident* fetch = nullptr;
  for (const Incident* i : head.lines) {
    if (IsUniqueIdFetchFailure(i->message) && SaysTimedOut(i->message)) {
      fetch = i;
      break;
    }
  }
  if (fetch == nullptr) return std::nullopt;
  const int creator = UniqueIdCreator(fetch->message);
  if (creator < 0 || creator == head.rank) return std::nullopt;
  // The creator's own failure (it crashed before publishing the id) is the cause, not a delay.
  for (const RankFailure& f : failures) {
    if (f.rank == creator && !f.fallout) return std::nullopt;
  }
  const ProcessInstance* p = view.ProcessOfRank(creator);
  if (p != nullptr && !p->world_init.text.empty()) return std::nullopt;  // it reached init
  RootCause rc;
  rc.attempt = view.attempt;
  rc.cls = CauseClass::kLateStart;
  rc.job_failed = true;
  rc.confidence = Confidence::kMedium;
  rc.culprits.push_back(view.CulpritOfRank(creator));
  rc.time = fetch->time;
  rc.time_text = fetch->time_text;
  rc.what = fmt::format(
      "did not reach NCCL's init in time: it never published the NCCL unique "
      "id that rank {} waited for",
      head.rank >= 0 ? std::to_string(head.rank) : std::string("another"));
  rc.reasoning = fmt::format(
      "{} timed out fetching the NCCL unique id from rank {} (PyTorch: \"{}\"), and rank {} "
      "printed no NCCL init line in the input and no failure of its own: it was late or stuck "
      "before init_process_group (a slow start: data loading, a download, a long first step), "
      "or its output is not in the input",
      head.rank >= 0 ? fmt::format("rank {}", head.rank) : std::string("a rank"), creator,
      Headline(fetch->message), creator);
  rc.evidence.push_back(fetch->evidence);
  rc.cause_lines.push_back({fetch->evidence.source, fetch->evidence.line});
  return rc;
}

}  // namespace ncclscope::triage_internal
