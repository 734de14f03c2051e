// MismatchFromDetector: PyTorch's collective check (TORCH_DISTRIBUTED_DEBUG=DETAIL) raises on
// every rank "Detected mismatch between collectives on ranks. Rank 1 is running collective:
// CollectiveFingerPrint(SequenceNumber=3, OpType=ALLTOALL_BASE...), but Rank 0 is running ...".
// Each rank states its own collective reliably (the peer's, read through the store, may be
// another check's): the ranks whose own operation is the minority are the suspects.
#include <fmt/format.h>

#include <map>
#include <regex>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {

std::optional<RootCause> MismatchFromDetector(const AttemptView& view) {
  static const std::regex kOwn(
      R"(Rank (\d+) is running collective: CollectiveFingerPrint\(SequenceNumber=(\d+),? ?OpType=([A-Z_]+))");
  static const std::regex kPeer(R"(but Rank (\d+) is running collective)");
  std::map<int, std::pair<std::string, const Incident*>> own;  // rank → (op, line)
  std::map<int, int> named;  // rank → how many other ranks' checks name it as differing
  for (const Incident* i : view.incidents) {
    // The exception as the rank printed it, or as torchelastic's failure table quotes it (the
    // entry's traceback field: a pasted table may be all there is).
    if (i->kind != IncidentKind::kException && i->type.empty()) continue;
    if (i->message.find("Detected mismatch between collectives") == std::string::npos) continue;
    const std::string message = i->message.str();  // the matches below point into it
    std::smatch m;
    if (!std::regex_search(message, m, kOwn)) continue;
    const int rank = std::stoi(m[1].str());
    if (i->rank >= 0 && rank != i->rank) continue;
    const bool fresh = own.try_emplace(rank, m[3].str() + " SeqNum " + m[2].str(), i).second;
    std::smatch peer;
    if (fresh && std::regex_search(message, peer, kPeer) && std::stoi(peer[1].str()) != rank) {
      ++named[std::stoi(peer[1].str())];
    }
  }
  if (own.empty()) return std::nullopt;
  std::map<std::string, std::vector<int>> by_op;
  for (const auto& [rank, v] : own) by_op[v.first].push_back(rank);
  size_t best = 0;
  for (const auto& [op, ranks] : by_op) best = std::max(best, ranks.size());
  std::vector<int> majority_ranks, suspects;
  std::string majority;
  int majorities = 0;
  for (const auto& [op, ranks] : by_op) {
    if (ranks.size() == best) {
      ++majorities;
      majority = op;
      majority_ranks = ranks;
    }
  }
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = CauseClass::kCollectiveMismatch;
  std::vector<std::string> parts;
  for (const auto& [op, ranks] : by_op) parts.push_back(fmt::format("rank(s) {} in {}", RankRanges(ranks), op));
  if (majorities == 1 && by_op.size() > 1) {
    for (const auto& [op, ranks] : by_op) {
      if (op != majority) suspects.insert(suspects.end(), ranks.begin(), ranks.end());
    }
    rc.confidence = Confidence::kHigh;
    rc.what = "called a different collective than the other ranks";
    rc.reasoning = fmt::format(
        "PyTorch's collective check found {}: the minority took the other code path",
        fmt::join(parts, ", "));
  } else if (!named.empty()) {
    // No majority of own operations (two ranks, or one report): the rank that the checks name
    // as the one that differs, when one is named most often.
    int most = 0, count = 0;
    for (const auto& [rank, n] : named) {
      if (n > most) {
        most = n;
        count = 1;
      } else if (n == most) {
        ++count;
      }
    }
    for (const auto& [rank, n] : named) {
      if (n == most && (count == 1 || own.count(rank) == 0)) suspects.push_back(rank);
    }
    if (count > 1 && suspects.size() > 1 && own.size() > 1) suspects.clear();
  }
  if (suspects.empty() && !(majorities == 1 && by_op.size() > 1)) {
    for (const auto& [rank, v] : own) suspects.push_back(rank);
    rc.confidence = Confidence::kMedium;
    rc.what = "ranks called different collectives";
    rc.reasoning = fmt::format(
        "PyTorch's collective check found {}; with no majority the logs cannot tell which rank "
        "took the other code path",
        fmt::join(parts, ", "));
  }
  if (rc.what.empty()) {
    std::vector<std::string> reporters;
    for (const auto& [rank, v] : own) reporters.push_back(std::to_string(rank));
    rc.confidence = Confidence::kMedium;
    rc.what = "called a different collective than the other ranks";
    rc.reasoning = fmt::format(
        "PyTorch's collective check on rank(s) {} ({}) named rank(s) {} as the one running "
        "another collective",
        fmt::join(reporters, ", "), fmt::join(parts, ", "), RankRanges(suspects));
  }
  for (int r : suspects) {
    Culprit c{r, {}, -1};
    if (const ProcessInstance* p = view.ProcessOfRank(r)) {
      c.host = p->host;
      c.pid = p->pid;
    }
    rc.culprits.push_back(c);
  }
  for (const auto& [rank, v] : own) {
    rc.evidence.push_back(v.second->evidence);
    if (!rc.time && v.second->time) {
      rc.time = v.second->time;
      rc.time_text = v.second->time_text;
    }
  }
  for (const auto& [rank, v] : own) rc.cause_lines.push_back({v.second->evidence.source, v.second->evidence.line});
  return rc;
}

}  // namespace ncclscope::triage_internal
