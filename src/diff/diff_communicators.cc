// Communicators matched across runs by size and rank layout, then compared: link classes (the
// regression signal), nodes, channels, graph type and init.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>

#include "diff_parts.h"
#include "ncclscope/model/transport_class.h"

namespace ncclscope {
namespace {

bool FullLayout(const CommSnapshot& c) {
  return !c.global_ranks.empty() && static_cast<int>(c.global_ranks.size()) == c.nranks &&
         std::find(c.global_ranks.begin(), c.global_ranks.end(), -1) == c.global_ranks.end();
}

}  // namespace

std::vector<std::pair<int, int>> MatchCommunicators(const std::vector<CommSnapshot>& before,
                                                    const std::vector<CommSnapshot>& after) {
  std::vector<int> partner_of_before(before.size(), -1);
  std::vector<int> partner_of_after(after.size(), -1);
  // 1. Same size and the same global ranks in the same communicator ranks; repeated shapes (a
  //    communicator created twice) pair in creation order.
  std::map<std::pair<int, std::vector<int>>, std::deque<int>> by_layout;
  for (size_t i = 0; i < before.size(); ++i) {
    if (FullLayout(before[i]))
      by_layout[{before[i].nranks, before[i].global_ranks}].push_back(static_cast<int>(i));
  }
  for (size_t j = 0; j < after.size(); ++j) {
    if (!FullLayout(after[j])) continue;
    auto it = by_layout.find({after[j].nranks, after[j].global_ranks});
    if (it == by_layout.end() || it->second.empty()) continue;
    partner_of_after[j] = it->second.front();
    partner_of_before[it->second.front()] = static_cast<int>(j);
    it->second.pop_front();
  }
  // 2. Where one side does not know the layout (ranks missing from the logs, old reports): the
  //    same size, in creation order. Two known but different layouts never pair.
  for (size_t j = 0; j < after.size(); ++j) {
    if (partner_of_after[j] >= 0) continue;
    for (size_t i = 0; i < before.size(); ++i) {
      if (partner_of_before[i] >= 0 || before[i].nranks != after[j].nranks) continue;
      if (FullLayout(before[i]) && FullLayout(after[j])) continue;
      partner_of_after[j] = static_cast<int>(i);
      partner_of_before[i] = static_cast<int>(j);
      break;
    }
  }
  // Pairs in BEFORE's order, each AFTER-only communicator after its predecessor in AFTER.
  std::vector<std::pair<int, int>> pairs;
  for (size_t i = 0; i < before.size(); ++i)
    pairs.emplace_back(static_cast<int>(i), partner_of_before[i]);
  for (size_t j = 0; j < after.size(); ++j) {
    if (partner_of_after[j] >= 0) continue;
    auto pos = pairs.end();
    for (size_t k = 0; k < pairs.size(); ++k) {
      if (pairs[k].second >= 0 && pairs[k].second < static_cast<int>(j))
        pos = pairs.begin() + k + 1;
    }
    pairs.insert(pos, {-1, static_cast<int>(j)});
  }
  return pairs;
}

namespace diff_internal {
namespace {

std::string Subject(const CommSnapshot& c) {
  if (FullLayout(c)) return "ranks " + RankSetText(c.global_ranks);
  return fmt::format("{} ranks ({})", c.nranks, c.id);
}

/// Links of unknown locality per class: all links minus the intra- and inter-node ones.
std::map<std::string, int> UnknownLocality(const CommSnapshot& c) {
  std::map<std::string, int> out;
  // (No lambda over the structured bindings: clang before 16 cannot capture them.)
  auto count = [](const std::map<std::string, int>& m, const std::string& cls) {
    auto it = m.find(cls);
    return it == m.end() ? 0 : it->second;
  };
  for (const auto& [cls, n] : c.links) {
    const int rest = n - count(c.intra_links, cls) - count(c.inter_links, cls);
    if (rest > 0) out[cls] = rest;
  }
  return out;
}

std::string CountsText(const std::map<std::string, int>& counts) {
  // Fastest class first, as the text report lists them.
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [cls, n] : counts) {
    auto tc = ParseTransportClass(cls);
    order.emplace_back(tc ? -TransportClassSpeedRank(*tc) : 0, cls);
  }
  std::sort(order.begin(), order.end());
  std::string out;
  for (const auto& [rank, cls] : order)
    out += fmt::format("{}{}×{}", out.empty() ? "" : " ", cls, counts.at(cls));
  return out;
}

/// "intra-node P2P×4; inter-node NET/Socket×4", or the totals when localities are unknown.
std::string LinksText(const CommSnapshot& c) {
  if (c.links.empty()) return "no links";
  if (!c.has_locality_counts) return CountsText(c.links);
  std::string out;
  auto part = [&](const char* name, const std::map<std::string, int>& m) {
    if (m.empty()) return;
    out += fmt::format("{}{} {}", out.empty() ? "" : "; ", name, CountsText(m));
  };
  part("intra-node", c.intra_links);
  part("inter-node", c.inter_links);
  part("unknown locality", UnknownLocality(c));
  return out;
}

/// Speed rank of a class name, -1 when unknown; P2P links of unknown path count as NVL when
/// `p2p_as_nvl` (they may well be NVLink: the log does not say).
int Speed(const std::string& cls, bool path_unknown, bool p2p_as_nvl) {
  auto tc = ParseTransportClass(cls);
  if (!tc || *tc == TransportClass::kUnknown) return -1;
  if (p2p_as_nvl && path_unknown && *tc == TransportClass::kP2P) tc = TransportClass::kNVL;
  return TransportClassSpeedRank(*tc);
}

/// Speed rank of the slowest class of `counts`, -1 without links.
int SlowestSpeed(const std::map<std::string, int>& counts, bool p2p_unknown, bool p2p_as_nvl) {
  int slowest = -1;
  for (const auto& [cls, n] : counts) {
    const int r = n > 0 ? Speed(cls, p2p_unknown, p2p_as_nvl) : -1;
    if (r >= 0 && (slowest < 0 || r < slowest)) slowest = r;
  }
  return slowest;
}

/// How the links of a matched pair of communicators moved.
struct LinkMoves {
  int slower = 0, faster = 0;  ///< Rank pairs whose slowest link got slower / faster.
  int path_only = 0;           ///< Pairs NVL on one side, P2P of unknown path on the other.
  std::map<std::pair<std::string, std::string>, int> moves;  ///< (before, after) class → pairs
  int overall = 0;  ///< Slowest class of all links: -1 slower, +1 faster, 0 same or unknown.
  bool overall_path_only = false;
};

LinkMoves CompareLinks(const CommSnapshot& a, const CommSnapshot& b) {
  LinkMoves m;
  for (const auto& [pair, la] : a.pairs) {
    auto it = b.pairs.find(pair);
    if (it == b.pairs.end() || la == it->second) continue;
    const PairLink& lb = it->second;
    const int ra = Speed(la.cls, la.path_unknown, false),
              rb = Speed(lb.cls, lb.path_unknown, false);
    if (ra < 0 || rb < 0 || ra == rb) continue;
    if (Speed(la.cls, la.path_unknown, true) == Speed(lb.cls, lb.path_unknown, true)) {
      ++m.path_only;
      continue;
    }
    (rb < ra ? m.slower : m.faster)++;
    ++m.moves[{la.cls, lb.cls}];
  }
  const bool ua = a.p2p_path_unknown > 0, ub = b.p2p_path_unknown > 0;
  const int sa = SlowestSpeed(a.links, ua, false), sb = SlowestSpeed(b.links, ub, false);
  if (sa >= 0 && sb >= 0 && sa != sb) {
    if (SlowestSpeed(a.links, ua, true) == SlowestSpeed(b.links, ub, true)) {
      m.overall_path_only = true;
    } else {
      m.overall = sb < sa ? -1 : 1;
    }
  }
  return m;
}

/// "4 rank pairs slower (P2P → NET/Socket ×4)".
std::string MovesText(const LinkMoves& m) {
  std::string moves;
  for (const auto& [classes, n] : m.moves)
    moves +=
        fmt::format("{}{} → {} ×{}", moves.empty() ? "" : ", ", classes.first, classes.second, n);
  std::string out;
  if (m.slower > 0) out = fmt::format("{} rank pair{} slower", m.slower, m.slower == 1 ? "" : "s");
  if (m.faster > 0)
    out += fmt::format("{}{} rank pair{} faster", out.empty() ? "" : ", ", m.faster,
                       m.faster == 1 ? "" : "s");
  if (!moves.empty()) out += " (" + moves + ")";
  return out;
}

void DiffLinks(const CommSnapshot& a, const CommSnapshot& b, DiffItem base,
               std::vector<DiffItem>* out) {
  const bool same_counts =
      a.links == b.links && (!a.has_locality_counts || !b.has_locality_counts ||
                             (a.intra_links == b.intra_links && a.inter_links == b.inter_links));
  if (same_counts && a.pairs == b.pairs) return;
  const LinkMoves m = CompareLinks(a, b);
  DiffItem item = std::move(base);
  item.aspect = "links";
  item.before = LinksText(a);
  item.after = LinksText(b);
  if (m.slower > 0 || m.overall < 0) {
    item.verdict = DiffVerdict::kRegression;
  } else if (m.faster > 0 || m.overall > 0) {
    item.verdict = DiffVerdict::kImprovement;
  } else if ((m.path_only > 0 || m.overall_path_only) && m.moves.empty()) {
    // NVL on one side, P2P whose path the other run's log does not show: the same links for
    // all we know.
    item.verdict = DiffVerdict::kInfo;
    item.note = fmt::format(
        "NVLink is established in {} only (GRAPH lines or --topo); P2P of unknown path in the "
        "other",
        a.p2p_path_unknown > 0 ? "AFTER" : "BEFORE");
    out->push_back(std::move(item));
    return;
  } else {
    item.verdict = DiffVerdict::kChange;
  }
  item.note = MovesText(m);
  const bool one_class = a.links.size() <= 1 && b.links.size() <= 1;
  if (a.bottleneck != b.bottleneck && !a.bottleneck.empty() && !b.bottleneck.empty() && !one_class)
    item.note += fmt::format("{}bottleneck {} → {}", item.note.empty() ? "" : "; ", a.bottleneck,
                             b.bottleneck);
  out->push_back(std::move(item));
}

std::string NodesText(const CommSnapshot& c) {
  if (c.nnodes < 0) return "";
  return fmt::format("{} node{}, {} local rank{}", c.nnodes, c.nnodes == 1 ? "" : "s",
                     c.local_ranks < 0 ? std::string("?") : std::to_string(c.local_ranks),
                     c.local_ranks == 1 ? "" : "s");
}

/// The channel figures both runs logged that differ: ("ring 24, coll 24", "ring 4, coll 4").
/// Empty texts when nothing comparable differs; one side "not logged" when only the other has
/// any figure.
std::pair<std::string, std::string> ChannelsTexts(const CommSnapshot& a, const CommSnapshot& b) {
  std::map<std::string, int> fa = a.channel_counts, fb = b.channel_counts;
  if (a.nchannels >= 0) fa["ring"] = a.nchannels;
  if (b.nchannels >= 0) fb["ring"] = b.nchannels;
  static constexpr std::pair<const char*, const char*> kOrder[] = {
      {"ring", "ring"},       {"coll", "coll"}, {"nvls", "nvls"},
      {"collnet", "collnet"}, {"p2p", "p2p"},   {"p2p_per_peer", "p2p per peer"}};
  const bool one_side = fa.empty() != fb.empty();
  std::string ta, tb;
  for (const auto& [key, label] : kOrder) {
    auto ia = fa.find(key);
    auto ib = fb.find(key);
    const bool both = ia != fa.end() && ib != fb.end();
    if (!one_side && (!both || ia->second == ib->second)) continue;
    if (ia != fa.end()) ta += fmt::format("{}{} {}", ta.empty() ? "" : ", ", label, ia->second);
    if (ib != fb.end()) tb += fmt::format("{}{} {}", tb.empty() ? "" : ", ", label, ib->second);
  }
  if (one_side) return {ta.empty() ? "not logged" : ta, tb.empty() ? "not logged" : tb};
  return {ta, tb};
}

void Aspect(DiffItem base, const char* aspect, DiffVerdict verdict, std::string before,
            std::string after, std::vector<DiffItem>* out) {
  if (before == after) return;
  base.aspect = aspect;
  base.verdict = verdict;
  base.before = std::move(before);
  base.after = std::move(after);
  if (base.before.empty() || base.after.empty()) {
    // Logged in one run only (another NCCL_DEBUG_SUBSYS, a cut log): not a change of the job.
    base.verdict = DiffVerdict::kInfo;
    if (base.before.empty()) base.before = "not logged";
    if (base.after.empty()) base.after = "not logged";
  }
  out->push_back(std::move(base));
}

std::string Summary(const CommSnapshot& c) {
  return fmt::format("{} ranks, {}", c.nranks, LinksText(c));
}

}  // namespace

void DiffCommunicators(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  bool links_compared = false;  // Some matched pair of communicators has links on both sides.
  for (const auto& [i, j] : MatchCommunicators(a.comms, b.comms)) {
    DiffItem base;
    base.topic = DiffTopic::kCommunicators;
    if (i < 0 || j < 0) {
      const CommSnapshot& c = i < 0 ? b.comms[j] : a.comms[i];
      base.subject = Subject(c);
      base.aspect = "communicator";
      base.verdict = DiffVerdict::kChange;
      (i < 0 ? base.after : base.before) = Summary(c);
      (i < 0 ? base.after_ref : base.before_ref) = c.id;
      base.note = i < 0 ? "only in AFTER" : "only in BEFORE";
      out->push_back(std::move(base));
      continue;
    }
    const CommSnapshot& ca = a.comms[i];
    const CommSnapshot& cb = b.comms[j];
    base.subject = Subject(FullLayout(ca) ? ca : cb);
    base.before_ref = ca.id;
    base.after_ref = cb.id;
    links_compared = links_compared || (!ca.links.empty() && !cb.links.empty());
    DiffLinks(ca, cb, base, out);
    Aspect(base, "nodes", DiffVerdict::kChange, NodesText(ca), NodesText(cb), out);
    const auto [channels_a, channels_b] = ChannelsTexts(ca, cb);
    // Figures on one side only: another NCCL_DEBUG_SUBSYS, not another job.
    const bool one_side = channels_a == "not logged" || channels_b == "not logged";
    Aspect(base, "channels", one_side ? DiffVerdict::kInfo : DiffVerdict::kChange, channels_a,
           channels_b, out);
    Aspect(base, "graph type (intra/inter)", DiffVerdict::kChange, ca.graph_type, cb.graph_type,
           out);
    Aspect(base, "init", DiffVerdict::kChange, ca.init_complete ? "complete" : "incomplete",
           cb.init_complete ? "complete" : "incomplete", out);
  }
  // Excerpts without the communicators' init lines, or runs whose communicators have no partner:
  // the link classes of the whole runs still say whether NVL became SHM or IB became Socket.
  if (!links_compared && !a.all_links.links.empty() && !b.all_links.links.empty()) {
    DiffItem base;
    base.topic = DiffTopic::kCommunicators;
    base.subject = "all links (no communicator pair to compare)";
    DiffLinks(a.all_links, b.all_links, std::move(base), out);
  }
}

}  // namespace diff_internal
}  // namespace ncclscope
