// FromPeerCloses: the local peers' proxy service threads as witnesses. Every process's proxy
// prints "[Service thread] Connection closed by localRank N" when the process with local rank N
// on its host closes its connection (it destroyed its communicator, or it ended). When all the
// processes of a host that print such lines saw the same one peer leave, and only that one, that
// peer went away while they kept running: the job lost it.
#include <fmt/format.h>

#include <map>
#include <set>

#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// Local ranks a host runs at most for HostsFromPeerCloses (one per GPU of an 8-GPU node).
constexpr int kMaxLocalRanks = 8;

/// The witnesses of one host.
struct HostWitnesses {
  std::map<int, std::set<int64_t>> seen_by;  ///< Peer local rank → the pids that saw it close.
  std::set<int64_t> reporters;
  std::vector<const Incident*> lines;  ///< In time order.
};

}  // namespace

std::optional<RootCause> FromPeerCloses(const AttemptView& view) {
  std::map<std::string, HostWitnesses> hosts;
  std::set<std::string> orderly;  ///< Hosts where a process destroyed a communicator.
  for (const ProcessInstance* p : view.processes) {
    if (p->destroyed_comm) orderly.insert(p->host);
  }
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kPeerClosed || i->host.empty() || i->pid <= 0) continue;
    if (orderly.count(i->host)) continue;
    HostWitnesses& h = hosts[i->host];
    h.seen_by[i->peer_local_rank].insert(i->pid);
    h.reporters.insert(i->pid);
    h.lines.push_back(i);
  }
  std::optional<RootCause> found;
  for (const auto& [host, h] : hosts) {
    // The peer every reporter saw leave. A peer only one process saw is that process's own
    // connection (a process's proxy serves it too) or a later exit; two peers seen by several
    // processes are an orderly end, or an excerpt too short to tell which went first.
    int peer = -1;
    bool several = false;
    for (const auto& [local_rank, pids] : h.seen_by) {
      if (pids.size() < 2) continue;
      several = several || peer >= 0;
      peer = local_rank;
    }
    if (peer < 0 || several || h.seen_by.at(peer).size() != h.reporters.size()) continue;
    if (found) return std::nullopt;  // Two hosts each lost a peer: the input does not say which first.
    RootCause rc;
    rc.attempt = view.attempt;
    rc.job_failed = true;
    rc.cls = CauseClass::kProcessKilled;
    rc.confidence = Confidence::kLow;
    rc.culprits.push_back(Culprit{-1, host, -1});
    const Incident* first = nullptr;
    for (const Incident* i : h.lines) {
      if (i->peer_local_rank != peer) continue;
      if (first == nullptr) first = i;
      if (rc.evidence.size() < 3) rc.evidence.push_back(i->evidence);
      rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
    }
    rc.time = first->time;
    rc.time_text = first->time_text;
    rc.what = fmt::format(
        "with local rank {} went away (exited, was killed or crashed) while the other local "
        "processes kept running",
        peer);
    rc.reasoning = fmt::format(
        "the proxy service of each of the {} processes on {} that report it saw local rank {}'s "
        "connection close (\"{}\"), and no other peer's: that process ended or dropped its "
        "communicator first, and no process in the input reports an error of its own (the "
        "input does not say how it ended, hence process-killed with low confidence) — look at "
        "its own output (a crash, a Python exception), the launcher's and the kernel's (OOM "
        "killer)",
        h.reporters.size(), host, peer, first->message);
    found = std::move(rc);
  }
  return found;
}

void HostsFromPeerCloses(const AttemptView& view, std::vector<RankFailure>* failures) {
  for (RankFailure& f : *failures) {
    // Local rank == global rank only holds on the job's first node: ranks of the first eight.
    if (f.rank < 0 || f.rank >= kMaxLocalRanks || !f.host.empty()) continue;
    std::string host;
    bool several = false;
    for (const Incident* i : view.incidents) {
      if (i->kind != IncidentKind::kPeerClosed || i->peer_local_rank != f.rank ||
          i->host.empty() || i->host == host) {
        continue;
      }
      several = several || !host.empty();
      host = i->host;
    }
    if (!host.empty() && !several) f.host = host;
  }
}

}  // namespace ncclscope::triage_internal
