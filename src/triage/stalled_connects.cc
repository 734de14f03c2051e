// FromStalledConnects: processes whose last NCCL line is a connect retry. NCCL retries a refused
// or timed-out connect (bootstrap, proxy, NET/Socket) and prints each retry; a process whose
// output ends there was still waiting for that peer when the input ends: the job stalled on a
// peer that was not listening (not started, already dead, a stale address from an earlier
// attempt) or not reachable.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ncclscope/parse/connect_retry.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// The retry that ends the process's output: its last NCCL line (Process::last_line), if that is
/// one.
bool LastRetry(const Process& p, ConnectRetry* out) {
  std::string_view text = p.last_line.text;
  const size_t info = text.find("NCCL INFO ");
  if (info == text.npos) return false;
  return ParseConnectRetry(text.substr(info + 10), out);
}

/// "10.29.224.148<52333>" → "10.29.224.148".
std::string HostOf(std::string_view peer) {
  const size_t port = peer.rfind('<');
  return std::string(port == std::string_view::npos ? peer : peer.substr(0, port));
}

/// The attempt's instance of the process, if the process's last line is in this attempt (its
/// latest instance).
const ProcessInstance* InstanceOf(const AttemptView& view, const Process& p) {
  const ProcessInstance* found = nullptr;
  for (const ProcessInstance& i : view.job->incidents.instances) {
    if (i.pid != p.pid || i.host != p.hostname) continue;
    if (found == nullptr || i.attempt > found->attempt) found = &i;
  }
  return found != nullptr && found->attempt == view.attempt ? found : nullptr;
}

}  // namespace

std::optional<RootCause> FromStalledConnects(const AttemptView& view) {
  RootCause rc;
  std::vector<std::string> stalled;  ///< "rank 1 (vm pid 951)"
  std::set<std::string> peers;       ///< Named peers, with their ports.
  std::string error;
  for (const Process& p : view.job->processes) {
    ConnectRetry retry;
    if (!LastRetry(p, &retry)) continue;
    const ProcessInstance* instance = InstanceOf(view, p);
    if (instance == nullptr) continue;
    stalled.push_back(RankText(instance->rank, p.hostname, p.pid));
    if (error.empty()) error = std::string(retry.error);
    if (!retry.peer.empty() && peers.insert(std::string(retry.peer)).second) {
      rc.culprits.push_back(Culprit{-1, HostOf(retry.peer), -1});
    }
    if (rc.evidence.size() < 4) rc.evidence.push_back(p.last_line);
    rc.cause_lines.push_back({p.last_line.source, p.last_line.line});
  }
  if (stalled.empty()) return std::nullopt;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = CauseClass::kNetwork;
  rc.confidence = Confidence::kLow;
  const std::string who =
      stalled.size() <= 3
          ? fmt::format("{}", fmt::join(stalled, ", "))
          : fmt::format("{} and {} more", fmt::join(stalled.begin(), stalled.begin() + 3, ", "),
                        stalled.size() - 3);
  const std::string target =
      peers.empty() ? std::string("its peer")
                    : fmt::format("{}", fmt::join(peers.begin(), peers.end(), ", "));
  rc.what = peers.empty()
                ? fmt::format("— the job stalled on a connection that was never answered ({})",
                              error)
                : fmt::format("never answered: the job stalled connecting to it ({})", error);
  rc.reasoning = fmt::format(
      "the output of {} ends while NCCL retries its connection to {} (\"{}\"): the peer was not "
      "listening (not started yet, already dead, or an address left over from an earlier "
      "attempt, e.g. a reused MASTER_PORT or rendezvous store) or cannot be reached from there "
      "(interface, firewall); no process reports an error of its own in the input, hence low "
      "confidence — check that every rank started and is still running, and which address it "
      "advertises",
      who, target, error);
  return rc;
}

}  // namespace ncclscope::triage_internal
