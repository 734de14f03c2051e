// CompareTimeouts: PyTorch watchdog timeouts compared across the ranks of an attempt. The ranks
// that time out in the first wave wait; the rank whose state differs from theirs is the suspect:
// another operation or a further SeqNum (collective mismatch), a lagging SeqNum or a last
// enqueued work below the others' (it stopped calling collectives: stuck), or no report at all.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// Timeouts later than this after the first one belong to a second wave (fallout of the first).
constexpr int64_t kWaveNanos = int64_t{10} * 1000000000;

struct RankState {
  const Incident* timeout = nullptr;   ///< First-wave timeout.
  const Incident* progress = nullptr;  ///< Its own progress report (enqueued/completed).
  const Incident* late_timeout = nullptr;
};

/// Ranks whose processes printed connection lines of point-to-point channels (connection index
/// 1, NCCL's send/recv and all-to-all connections): a rank that alone set those up entered a
/// point-to-point operation that the others did not call.
std::set<int> RanksWithP2pChannels(const AttemptView& view) {
  std::set<int> out;
  const Job& job = *view.job;
  std::unordered_multimap<uint64_t, const ProcessInstance*> by_pid;
  for (const ProcessInstance* pi : view.processes) {
    if (pi->rank >= 0) by_pid.emplace(pi->pid, pi);
  }
  std::set<int> reporters;
  for (const Link& l : job.links) {
    if (l.reporter >= 0 && l.conn_indexes.count(1) > 0) reporters.insert(l.reporter);
  }
  for (int reporter : reporters) {
    const Process& p = job.processes[reporter];
    auto [from, to] = by_pid.equal_range(p.pid);
    for (auto it = from; it != to; ++it) {
      if (it->second->host == p.hostname) out.insert(it->second->rank);
    }
  }
  return out;
}

/// The rank's exit (kOrderlyExit) before `first`, when no failure of the rank came before it:
/// the rank left the job while the others went on; nullptr otherwise.
const Incident* LeftBefore(const AttemptView& view, int rank, const Incident& first) {
  for (const Incident* i : view.incidents) {
    if (!AttemptView::Before(i, &first)) break;
    if (i->rank != rank) continue;
    switch (i->kind) {
      case IncidentKind::kOrderlyExit:
        return i;
      case IncidentKind::kException:
      case IncidentKind::kCppTerminate:
      case IncidentKind::kNcclWarn:
      case IncidentKind::kNcclError:
      case IncidentKind::kWatchdogTimeout:
      case IncidentKind::kTeardown:
      case IncidentKind::kHeartbeat:
      case IncidentKind::kExit:
        return nullptr;  // its own failure came first: the exit is that failure's end
      default:
        break;
    }
  }
  return nullptr;
}

/// " (barrier, called at train.py:139 in main)": where the rank's failed collective was called,
/// from the flight recorder's stack; empty when the input has none.
std::string Where(const Incident& t) {
  return t.frame.empty() ? std::string() : fmt::format(" ({})", t.frame);
}

/// The collective's API in a timeout's frame ("barrier"), empty when unknown.
std::string_view Api(const Incident& t) {
  const std::string_view f = t.frame;
  return f.substr(0, f.find(','));
}

/// A point-to-point operation (PyTorch's OpType SEND, RECV, _SEND, _RECV...): it waits for one
/// peer, and the log names only this side of the pair.
bool IsPointToPoint(const Incident& t) {
  const std::string_view op = t.op;
  return op.find("SEND") != std::string_view::npos || op.find("RECV") != std::string_view::npos;
}

std::string SeqOp(const Incident& i) {
  return i.op.empty() ? fmt::format("SeqNum {}", i.seq) : fmt::format("SeqNum {} {}", i.seq, i.op);
}

}  // namespace

std::optional<RootCause> CompareTimeouts(const AttemptView& view) {
  const Incident* first = nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kWatchdogTimeout && i->rank >= 0) {
      first = i;
      break;
    }
  }
  if (first == nullptr) return std::nullopt;
  std::map<int, RankState> ranks;
  // Ranks that lost a peer (its socket closed, "remote process exited") before the first
  // timeout: alive, in the collective, and not the one that went away.
  std::map<int, const Incident*> lost_peer;
  for (const Incident* i : view.incidents) {
    if (i->rank < 0) continue;
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) && i->cascade &&
        AttemptView::Before(i, first)) {
      lost_peer.emplace(i->rank, i);
    }
    RankState& r = ranks[i->rank];
    if (i->kind == IncidentKind::kWatchdogTimeout) {
      const bool same_wave =
          !(first->time && i->time) || *i->time - *first->time <= kWaveNanos;
      if (same_wave && r.timeout == nullptr && r.late_timeout == nullptr) {
        r.timeout = i;
      } else if (r.timeout == nullptr && r.late_timeout == nullptr) {
        r.late_timeout = i;
      }
    } else if (i->kind == IncidentKind::kProgress && r.progress == nullptr && (i->pg <= 0) &&
               i->last_enqueued >= 0 &&
               (r.late_timeout == nullptr || AttemptView::Before(i, r.late_timeout)) &&
               // PyTorch prints a rank's progress when a failure is detected: one printed long
               // before the first timeout in the input is an earlier failure's (an excerpt that
               // lost that failure's timeouts), not where the rank stood when these timed out.
               !(first->time && i->time && *first->time - *i->time > kWaveNanos)) {
      r.progress = i;
    }
  }
  // The waiting majority: the most common (SeqNum, op, size) among the first-wave timeouts whose
  // line said the most of them. A paste that wraps a line loses what follows the wrap (`OpTy` /
  // `pe=BROADCAST` loses the op, a wrap before `WorkNCCL(` loses all three), and an old PyTorch
  // prints no NumelIn: such a line is compared on what it said.
  auto said = [](const Incident& t) {
    return (t.seq >= 0 ? 4 : 0) + (!t.op.empty() ? 2 : 0) + (t.numel >= 0 ? 1 : 0);
  };
  int most_said = 0;
  for (auto& [rank, s] : ranks) most_said = std::max(most_said, s.timeout ? said(*s.timeout) : 0);
  std::map<std::tuple<int64_t, std::string, int64_t>, std::vector<int>> groups;
  for (auto& [rank, s] : ranks) {
    if (s.timeout && said(*s.timeout) == most_said)
      groups[{s.timeout->seq, s.timeout->op.str(), s.timeout->numel}].push_back(rank);
  }
  auto major = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.second.size() < b.second.size();
  });
  const int64_t seq = std::get<0>(major->first);
  const std::string& op = std::get<1>(major->first);
  const int64_t numel = std::get<2>(major->first);
  bool tie = false;
  for (const auto& [k, v] : groups) {
    tie = tie || (&v != &major->second && v.size() == major->second.size());
  }
  // A field the line did not say is no difference: an unknown SeqNum, op or size waits with the
  // majority.
  auto waits_with_majority = [&](const Incident& t) {
    return (t.seq < 0 || seq < 0 || t.seq == seq) && (t.op.empty() || op.empty() || t.op == op) &&
           (t.numel < 0 || numel < 0 || t.numel == numel);
  };
  std::vector<int> waiting;
  for (auto& [rank, s] : ranks) {
    if (s.timeout && waits_with_majority(*s.timeout)) waiting.push_back(rank);
  }

  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  std::vector<int> mismatched, lagging, stopped, silent, left;
  bool left_by_abort = false;  ///< A leaver's only sign is an abort of its communicator.
  std::vector<std::string> why;
  const std::set<int> p2p = RanksWithP2pChannels(view);
  const int world = std::max<int>(view.world, ranks.empty() ? 0 : ranks.rbegin()->first + 1);
  for (int r = 0; r < world; ++r) {
    auto it = ranks.find(r);
    const RankState* s = it == ranks.end() ? nullptr : &it->second;
    if (s != nullptr && s->timeout != nullptr) {
      const Incident& t = *s->timeout;
      if (waits_with_majority(t)) continue;
      if (tie || t.seq >= seq) {
        mismatched.push_back(r);
      } else {
        lagging.push_back(r);
      }
      const std::string waiting_where =
          waiting.empty() ? std::string() : Where(*ranks[waiting.front()].timeout);
      if (t.seq == seq && t.op == op) {
        why.push_back(
            fmt::format("rank {} timed out in {} with {} elements{} while rank(s) {} "
                        "waited in it with {}{}",
                        r, SeqOp(t), t.numel, Where(t), RankRanges(waiting), numel, waiting_where));
      } else {
        why.push_back(fmt::format("rank {} timed out in {}{} while rank(s) {} waited in {}{}", r,
                                  SeqOp(t), Where(t), RankRanges(waiting),
                                  fmt::format("SeqNum {} {}", seq, op), waiting_where));
      }
      rc.evidence.push_back(t.evidence);
      continue;
    }
    if (const Incident* exit = LeftBefore(view, r, *first)) {
      left.push_back(r);
      left_by_abort = left_by_abort || exit->type == kExitAbort;
      why.push_back(
          fmt::format("rank {} left the job with no error of its own (\"{}\") before "
                      "rank(s) {} timed out in {}",
                      r, exit->message, RankRanges(waiting), SeqOp(*first)));
      rc.evidence.push_back(exit->evidence);
      continue;
    }
    if (s != nullptr && s->progress != nullptr && s->progress->last_enqueued >= 0 && seq >= 0 &&
        s->progress->last_enqueued < seq) {
      stopped.push_back(r);
      why.push_back(fmt::format("rank {}'s last enqueued collective is SeqNum {} while rank(s) {} "
                                "waited in SeqNum {}",
                                r, s->progress->last_enqueued, RankRanges(waiting), seq));
      rc.evidence.push_back(s->progress->evidence);
      continue;
    }
    if (lost_peer.count(r) > 0) continue;
    if (s == nullptr || (s->timeout == nullptr && s->progress == nullptr)) silent.push_back(r);
  }
  std::vector<int> lost;
  for (const auto& [r, i] : lost_peer) {
    if (ranks[r].timeout == nullptr) lost.push_back(r);
  }
  // Ranks with no line at all are suspects only while they are fewer than the ranks that timed
  // out and than the ranks the input has lines of: a job whose input holds a few ranks' logs
  // (one worker's paste, one pod's log) says nothing about the others.
  size_t timed_out = 0;
  for (const auto& [r, s] : ranks) timed_out += s.timeout != nullptr ? 1 : 0;
  const std::vector<int> unheard = silent;
  if (silent.size() > std::max<size_t>(1, timed_out) || silent.size() >= ranks.size())
    silent.clear();
  const bool waiters_have_p2p = std::any_of(waiting.begin(), waiting.end(),
                                            [&](int r) { return p2p.count(r) > 0; });
  std::vector<int> suspects;
  if (!mismatched.empty()) {
    suspects = mismatched;
    rc.cls = CauseClass::kCollectiveMismatch;
    // PyTorch's barrier is the all-reduce of one element that ends a loop: ranks the flight
    // recorder shows in barrier() while the others are in another collective ran fewer
    // iterations (uneven data), whether or not they are a majority.
    std::vector<int> in_barrier, elsewhere;
    for (int r : mismatched)
      (Api(*ranks[r].timeout) == "barrier" ? in_barrier : elsewhere).push_back(r);
    for (int r : waiting)
      (Api(*ranks[r].timeout) == "barrier" ? in_barrier : elsewhere).push_back(r);
    const bool all_located = std::all_of(elsewhere.begin(), elsewhere.end(),
                                         [&](int r) { return !Api(*ranks[r].timeout).empty(); });
    std::sort(in_barrier.begin(), in_barrier.end());
    std::sort(elsewhere.begin(), elsewhere.end());
    const bool barrier_minority = std::all_of(in_barrier.begin(), in_barrier.end(), [&](int r) {
      return std::find(mismatched.begin(), mismatched.end(), r) != mismatched.end();
    });
    if ((tie || barrier_minority) && !in_barrier.empty() && !elsewhere.empty() && all_located) {
      suspects = in_barrier;
      rc.confidence = Confidence::kMedium;
      rc.what =
          "reached the barrier after its loop while the other ranks were still in a "
          "collective of the loop";
      const Incident& b = *ranks[in_barrier.front()].timeout;
      const Incident& e = *ranks[elsewhere.front()].timeout;
      rc.reasoning = fmt::format(
          "rank(s) {} timed out in {} with {} element(s) in {} while rank(s) {} timed out in it "
          "with {} in {}: barrier() is an all-reduce of one element, so rank(s) {} left the "
          "loop before the others — fewer iterations on those ranks (uneven data across ranks, "
          "a condition that ends the loop on one rank)",
          RankRanges(in_barrier), SeqOp(b), b.numel, b.frame, RankRanges(elsewhere), e.numel,
          e.frame, RankRanges(in_barrier));
    } else if (tie) {
      suspects.insert(suspects.end(), waiting.begin(), waiting.end());
      std::sort(suspects.begin(), suspects.end());
      rc.confidence = Confidence::kLow;
      rc.what = "ranks disagree on the collective they are in";
      rc.reasoning = fmt::format(
          "ranks {} timed out in different collectives ({}); with no majority the logs cannot "
          "tell which rank took the other code path",
          RankRanges(suspects), fmt::join(why, "; "));
      if (std::any_of(suspects.begin(), suspects.end(),
                      [&](int r) { return IsPointToPoint(*ranks[r].timeout); })) {
        rc.reasoning +=
            " (a rank in a send or receive waits for its peer: that peer skipped "
            "its side, or this rank called one too many)";
      }
    } else {
      rc.confidence = Confidence::kMedium;
      bool size_only = true;
      for (int r : mismatched) {
        const Incident& t = *ranks[r].timeout;
        size_only = size_only && t.seq == seq && t.op == op;
      }
      rc.what = size_only ? "called the collective with a different size than the other ranks"
                          : "called a different collective than the other ranks";
      rc.reasoning = fmt::format("{}: the rank whose last collective differs is the suspect, not "
                                 "the ranks that wait",
                                 fmt::join(why, "; "));
      const bool p2p_only = std::all_of(mismatched.begin(), mismatched.end(),
                                        [&](int r) { return IsPointToPoint(*ranks[r].timeout); });
      if (p2p_only) {
        // A send waits for its receiver (and a receive for its sender): the peer that skipped
        // its side is as likely the cause as an extra call on this one, and the line names no
        // peer.
        rc.confidence = Confidence::kLow;
        rc.what = "waits in a point-to-point operation that its peer did not match";
        rc.reasoning +=
            "; a point-to-point operation has two sides and the line names only "
            "this one: its peer may have skipped the matching receive or send (a "
            "pipeline stage that ran fewer micro-batches), or this rank called one "
            "too many";
      }
    }
  } else if (!left.empty()) {
    // A rank that ended while the others still called collectives with it: it stopped calling
    // them (its loop ended early: uneven data, an early return, sys.exit).
    suspects = left;
    rc.cls = CauseClass::kStuckRank;
    // An abort may be the teardown of a failure the input does not show (a pasted excerpt that
    // starts after it): medium.
    rc.confidence = left.size() == 1 && !left_by_abort ? Confidence::kHigh : Confidence::kMedium;
    rc.what = fmt::format(
        "exited while the others still waited for it in {}: it stopped calling "
        "collectives",
        SeqOp(*first));
    rc.reasoning = fmt::format(
        "{}; the ranks that timed out were waiting for it (a loop that "
        "ended early on one rank: uneven data across ranks, an early "
        "return or sys.exit)",
        fmt::join(why, "; "));
  } else if (!stopped.empty() || !lagging.empty() || !silent.empty()) {
    suspects = !stopped.empty() ? stopped : !lagging.empty() ? lagging : silent;
    const bool alone_p2p = !waiters_have_p2p &&
                           std::all_of(suspects.begin(), suspects.end(),
                                       [&](int r) { return p2p.count(r) > 0; });
    if (alone_p2p) {
      rc.cls = CauseClass::kCollectiveMismatch;
      rc.confidence = Confidence::kMedium;
      rc.what = fmt::format("entered a point-to-point or all-to-all operation while the others "
                            "waited in {}",
                            SeqOp(*first));
      why.push_back(fmt::format(
          "only rank(s) {} set up point-to-point channels (connection lines \"Channel NN/1\"), "
          "so they called send/recv or all-to-all where the others called {}",
          RankRanges(suspects), op.empty() ? std::string("a collective") : op));
    } else {
      rc.cls = CauseClass::kStuckRank;
      rc.confidence = stopped.empty() && lagging.empty() ? Confidence::kMedium : Confidence::kHigh;
      rc.what = !stopped.empty()
                    ? fmt::format("stopped calling collectives before SeqNum {}", seq)
                : !lagging.empty() ? "is stuck in an earlier collective"
                                   : "reported nothing while the others timed out";
    }
    for (int r : silent) {
      if (suspects == silent) {
        why.push_back(fmt::format("rank {} printed no timeout and no progress while rank(s) {} "
                                  "timed out in {}",
                                  r, RankRanges(waiting), SeqOp(*first)));
      }
    }
    if (suspects == silent && !lost.empty()) {
      why.push_back(
          fmt::format("rank(s) {} lost their connection to a peer before (\"{}\"), as "
                      "the neighbours of a rank that went away do",
                      RankRanges(lost), lost_peer.at(lost.front())->message));
    }
    rc.reasoning = fmt::format("{}; the ranks that timed out were waiting for it",
                               fmt::join(why, "; "));
  } else {
    rc.cls = CauseClass::kTimeoutUnknown;
    rc.confidence = Confidence::kMedium;
    rc.what = fmt::format("every rank timed out in {}", SeqOp(*first));
    rc.reasoning = fmt::format(
        "rank(s) {} all timed out in the same collective ({}) and none lagged or differed: "
        "the collective itself stalled (network, NCCL or GPU), not one rank",
        RankRanges(waiting), SeqOp(*first));
    if (!unheard.empty()) {
      rc.confidence = Confidence::kLow;
      rc.what = fmt::format("rank(s) {} timed out in {}", RankRanges(waiting), SeqOp(*first));
      rc.reasoning = fmt::format(
          "rank(s) {} timed out in the same collective ({}) and none lagged or differed; rank(s) "
          "{} printed nothing in the input, which holds too few ranks' output to tell a missing "
          "log from a stuck rank",
          RankRanges(waiting), SeqOp(*first), RankRanges(unheard));
    }
  }
  for (int r : suspects) rc.culprits.push_back(view.CulpritOfRank(r));
  rc.evidence.insert(rc.evidence.begin(), first->evidence);
  rc.time = first->time;
  rc.time_text = first->time_text;
  if (suspects == silent && !lost.empty()) {
    // The silent rank went away when its neighbours lost it, before the timeouts.
    const Incident* earliest = lost_peer.at(lost.front());
    for (int r : lost) {
      if (AttemptView::Before(lost_peer.at(r), earliest)) earliest = lost_peer.at(r);
    }
    rc.time = earliest->time;
    rc.time_text = earliest->time_text;
    rc.evidence.insert(rc.evidence.begin(), earliest->evidence);
  }
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kWatchdogTimeout || i->kind == IncidentKind::kProgress) {
      const bool suspect =
          std::find(suspects.begin(), suspects.end(), i->rank) != suspects.end();
      if (suspect) rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
    }
  }
  return rc;
}

}  // namespace ncclscope::triage_internal
