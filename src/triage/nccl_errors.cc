// FromNcclErrors: when no process died of its own, the first NCCL error that is not a peer-gone
// message names the cause; when only peer-gone messages exist ("remote process exited",
// "Connection closed by remote peer HOST"), the peer they name went away first.
#include <fmt/format.h>

#include <set>

#include "ncclscope/model/rank_ranges.h"
#include "ncclscope/rules/error_trail.h"
#include "ncclscope/rules/knowledge.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

/// "socketProgress: Connection closed by remote peer ip-172-31-45-209.ec2.internal<32926>"
/// → "ip-172-31-45-209.ec2.internal".
std::string PeerOf(std::string_view message) {
  static constexpr std::string_view kKeys[] = {"remote peer ", "connect to ", "peer "};
  for (std::string_view k : kKeys) {
    const size_t p = message.find(k);
    if (p == message.npos) continue;
    std::string_view rest = message.substr(p + k.size());
    rest = rest.substr(0, rest.find_first_of("< ,:"));
    if (!rest.empty()) return std::string(rest);
  }
  return {};
}

/// The class of an NCCL WARN, or of an NCCL error raised in Python (its "Last error:" detail).
CauseClass ClassOfNcclIncident(const Incident& i) {
  return i.kind == IncidentKind::kNcclError ? ClassOfRaisedNcclError(i) : ClassOfErrorText(i.message);
}

/// A WARN NCCL prints while it probes and then works on without (no libibverbs on a machine
/// without InfiniBand, an optional plugin absent): the message catalog calls it benign.
bool IsBenignWarn(const Incident& i) {
  if (i.kind != IncidentKind::kNcclWarn) return false;
  const KnownMessage* known = MatchMessage(i.message, i.type);
  return known != nullptr && known->rule == kBenignRule;
}

bool IsProxyWrapper(const Incident& i) { return IsProxyOperationReport(i.message); }

bool SameProcess(const Incident& a, const Incident& b) {
  return a.pid > 0 && a.pid == b.pid && a.host == b.host;
}

/// Whether two host names are one host: equal, or one is the other's first labels
/// ("ip-172-31-12-104" and "ip-172-31-12-104.ap-southeast-1.compute.internal"; not "node1" and
/// "node10").
bool SameHost(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  const std::string& shorter = a.size() <= b.size() ? a : b;
  const std::string& longer = a.size() <= b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (longer.size() == shorter.size() || longer[shorter.size()] == '.');
}

/// A peer-gone message of the attempt that names a host where another known process of the
/// attempt runs: that peer, not `wrapper`'s process, went away first.
bool CascadeNamesAnotherProcess(const AttemptView& view, const Incident& wrapper) {
  for (const Incident* i : view.incidents) {
    const bool nccl = i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError;
    if (!nccl || !i->cascade) continue;
    const std::string peer = PeerOf(i->message);
    if (peer.empty() || SameHost(peer, wrapper.host)) continue;
    for (const ProcessInstance* p : view.processes) {
      if (SameHost(p->host, peer)) return true;
    }
  }
  return false;
}

/// The first return-code trail line of `wrapper`'s process that comes out of a network
/// transport (net_ib.cc, net_socket.cc, ibvwrap.cc, socket.cc), or nullptr.
const ErrorTrailRecord* NetworkTrailOf(const Job& job, const Incident& wrapper) {
  for (const ErrorTrailRecord& t : job.error_trails) {
    if (t.process < 0 || static_cast<size_t>(t.process) >= job.processes.size()) continue;
    const Process& p = job.processes[static_cast<size_t>(t.process)];
    if (wrapper.pid <= 0 || p.pid != static_cast<uint64_t>(wrapper.pid) ||
        p.hostname != wrapper.host) {
      continue;
    }
    for (std::string_view file : {"net_ib.cc", "net_socket.cc", "ibvwrap.cc", "misc/socket.cc"}) {
      if (t.location.find(file) != std::string::npos) return &t;
    }
  }
  return nullptr;
}

/// The root cause when a proxy's failed operation is the first error of its own: its process,
/// with the class of the error it wraps (the same process's other NCCL errors).
RootCause FromProxyWrapper(const AttemptView& view, const Incident& wrapper) {
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.confidence = Confidence::kMedium;
  rc.cls = CauseClass::kNcclError;
  const Incident* wrapped = nullptr;
  for (const Incident* i : view.incidents) {
    if ((i->kind != IncidentKind::kNcclWarn && i->kind != IncidentKind::kNcclError) ||
        IsProxyWrapper(*i) || !SameProcess(*i, wrapper)) {
      continue;
    }
    if (wrapped == nullptr || (ClassOfNcclIncident(*wrapped) != CauseClass::kNetwork &&
                               ClassOfNcclIncident(*i) == CauseClass::kNetwork)) {
      wrapped = i;
    }
  }
  Culprit c{wrapper.rank, wrapper.host, wrapper.pid};
  rc.culprits.push_back(c);
  rc.what = fmt::format("NCCL error: {}", wrapper.message);
  rc.evidence.push_back(wrapper.evidence);
  rc.cause_lines.push_back({wrapper.evidence.source, wrapper.evidence.line});
  const ErrorTrailRecord* net_trail = nullptr;
  if (wrapped != nullptr) {
    rc.cls = ClassOfNcclIncident(*wrapped);
    rc.what += fmt::format(" — {}", wrapped->message);
    rc.evidence.push_back(wrapped->evidence);
    rc.cause_lines.push_back({wrapped->evidence.source, wrapped->evidence.line});
  } else if ((net_trail = NetworkTrailOf(*view.job, wrapper)) != nullptr) {
    // No WARN says why, but the process's return-code trail comes out of a network transport.
    rc.cls = CauseClass::kNetwork;
    rc.evidence.push_back(net_trail->evidence);
  }
  rc.time = wrapper.time;
  rc.time_text = wrapper.time_text;
  rc.reasoning = fmt::format(
      "{} reported the first NCCL error of its own: its proxy failed an operation (\"{}\"){}",
      RankText(c.rank, c.host, c.pid), wrapper.message,
      wrapped != nullptr
          ? fmt::format(", and the same process reported why: \"{}\"", wrapped->message)
      : net_trail != nullptr
          ? fmt::format(", and its return-code trail comes out of the network transport ({})",
                        net_trail->location)
          : std::string());
  return rc;
}

}  // namespace

namespace {

/// The attempt's NCCL error lines by role: the first of a rank's own (not a peer's end, not a
/// proxy's report of a failed operation), the first cascade, the first proxy report.
struct NcclErrorLines {
  const Incident* own = nullptr;
  const Incident* cascade = nullptr;
  const Incident* wrapper = nullptr;
};

NcclErrorLines PickNcclErrorLines(const AttemptView& view) {
  NcclErrorLines out;
  const Incident* first_local = nullptr;  ///< First error of a rank's own resources.
  // Errors after the job was stopped from outside are its teardown (the peers' sockets close as
  // the launcher ends them), not why it failed.
  const Incident* stop = FirstExternalStop(view);
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kNcclWarn && i->kind != IncidentKind::kNcclError) continue;
    if (stop != nullptr && !AttemptView::Before(i, stop)) continue;
    if (IsBenignWarn(*i)) continue;
    if (IsProxyWrapper(*i)) {
      if (out.wrapper == nullptr) out.wrapper = i;
      continue;
    }
    if (i->cascade || i->message.find("communicator was aborted") != std::string::npos) {
      if (out.cascade == nullptr) out.cascade = i;
      continue;
    }
    if (out.own == nullptr) out.own = i;
    if (first_local == nullptr && ClassOfNcclIncident(*i) != CauseClass::kNetwork) {
      first_local = i;
    }
  }
  // A rank's own failure (GPU memory, /dev/shm, CUDA) makes its peers' sockets fail: when the
  // lines carry no times to order them, or the local error came soon after, it is the cause.
  const Incident* first = out.own;
  if (first != nullptr && first_local != nullptr && first != first_local &&
      ClassOfNcclIncident(*first) == CauseClass::kNetwork) {
    const bool unordered = !(first->time && first_local->time) ||
                           (first->time_inherited && first_local->time_inherited);
    const bool soon = first->time && first_local->time &&
                      *first_local->time - *first->time <= int64_t{60} * 1000000000;
    if (unordered || soon) out.own = first_local;
  }
  return out;
}

}  // namespace

const Incident* FirstOwnNcclError(const AttemptView& view) { return PickNcclErrorLines(view).own; }

RootCause FromOwnNcclError(const AttemptView& view, const Incident& first) {
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = ClassOfNcclIncident(first);
  rc.confidence = Confidence::kMedium;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) &&
        !i->cascade && i->message == first.message) {
      rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
    }
  }
  Culprit c{first.rank, first.host, first.pid};
  rc.culprits.push_back(c);
  rc.what = fmt::format("NCCL error: {}", first.message);
  rc.evidence.push_back(first.evidence);
  if (!first.detail.empty()) {
    rc.what += fmt::format(" — Last error: {}", first.detail);
    if (first.detail_evidence.line != first.evidence.line) {
      rc.evidence.push_back(first.detail_evidence);
      rc.cause_lines.push_back({first.detail_evidence.source, first.detail_evidence.line});
    }
  }
  rc.time = first.time;
  rc.time_text = first.time_text;
  rc.reasoning = fmt::format("{} reported the first NCCL error that is not a consequence of "
                             "a peer going away: \"{}\"",
                             RankText(c.rank, c.host, c.pid),
                             first.detail.empty() ? first.message : first.detail);
  return rc;
}

namespace {

/// How long after a peer saw the connection close the leaving process's exit warning may come:
/// the interpreter's shutdown closes sockets before ProcessGroupNCCL's destructor prints it
/// (0.4 s in h200x1-failures/exit0_rank1.log).
constexpr int64_t kExitAfterCloseNanos = int64_t{5} * 1000000000;

/// The culprit's exit (kOrderlyExit: PyTorch's exit warning or the end of its world
/// communicator), printed before `close` or at most kExitAfterCloseNanos after it; nullptr when it
/// printed none or the culprit is unknown.
const Incident* OrderlyExitOf(const AttemptView& view, const Culprit& c, const Incident& close) {
  if (c.rank < 0) return nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind != IncidentKind::kOrderlyExit || i->rank != c.rank) continue;
    if (i->time && close.time && *i->time - *close.time > kExitAfterCloseNanos) return nullptr;
    return i;
  }
  return nullptr;
}

}  // namespace

std::optional<RootCause> FromNcclErrors(const AttemptView& view) {
  const NcclErrorLines lines = PickNcclErrorLines(view);
  if (lines.own != nullptr) return FromOwnNcclError(view, *lines.own);
  const Incident* first_wrapper = lines.wrapper;
  const Incident* first_cascade = lines.cascade;
  if (first_wrapper != nullptr && !CascadeNamesAnotherProcess(view, *first_wrapper)) {
    return FromProxyWrapper(view, *first_wrapper);
  }
  if (first_cascade == nullptr) return std::nullopt;
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  // A peer that closed its sockets (FIN: "Connection closed by remote peer", "remote process
  // exited", EPIPE) ended; a reset, a timeout or an unreachable peer points at the network.
  bool network = false;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) && i->cascade) {
      for (std::string_view k : {"reset by peer", "Connection reset", "timed out", "No route to host",
                                 "unreachable"}) {
        network = network || i->message.find(k) != std::string::npos;
      }
    }
  }
  rc.cls = network ? CauseClass::kNetwork : CauseClass::kProcessKilled;
  rc.confidence = Confidence::kLow;
  std::string peer;
  for (const Incident* i : view.incidents) {
    if ((i->kind == IncidentKind::kNcclWarn || i->kind == IncidentKind::kNcclError) &&
        i->cascade) {
      if (peer.empty()) peer = PeerOf(i->message);
      if (rc.evidence.size() < 3) {
        rc.evidence.push_back(i->evidence);
        rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
      }
    }
  }
  Culprit c;
  c.host = peer;
  // A host that only one process of the attempt runs on names its rank.
  const ProcessInstance* only = nullptr;
  int n = 0;
  for (const ProcessInstance* p : view.processes) {
    if (!peer.empty() && p->host == peer) {
      only = p;
      ++n;
    }
  }
  if (n == 1) {
    c.rank = only->rank;
    c.pid = only->pid;
  } else if (peer.empty() && view.world == 2 && first_cascade->rank >= 0) {
    // Two ranks: the peer is the other one.
    c.rank = 1 - first_cascade->rank;
    if (const ProcessInstance* p = view.ProcessOfRank(c.rank)) {
      c.host = p->host;
      c.pid = p->pid;
    }
  }
  rc.culprits.push_back(c);
  rc.time = first_cascade->time;
  rc.time_text = first_cascade->time_text;
  if (const Incident* exit = network ? nullptr : OrderlyExitOf(view, c, *first_cascade)) {
    // The peer's own last words say it exited, and nothing of it says why: it left the job
    // (its loop ended early: uneven data, an early return, sys.exit) while its peers still
    // called collectives with it.
    rc.cls = CauseClass::kStuckRank;
    rc.confidence = Confidence::kMedium;
    rc.evidence.insert(rc.evidence.begin(), exit->evidence);
    rc.cause_lines.insert(rc.cause_lines.begin(), {exit->evidence.source, exit->evidence.line});
    rc.what =
        "exited without an error of its own while its peers still waited for it in a "
        "collective: it stopped calling collectives";
    rc.reasoning = fmt::format(
        "{} ended (\"{}\", {}) with no exception, signal or NCCL error of its own, and {} lost "
        "its connection to it (\"{}\"): the process left the training loop early (uneven data "
        "across ranks, an early return or sys.exit on one rank) while the others still ran "
        "collectives with it",
        RankText(c.rank, c.host, c.pid), exit->message,
        exit->type == kExitWarning ? "PyTorch's warning as the process exits"
                                   : "NCCL's end of its communicator",
        RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
        first_cascade->message);
    return rc;
  }
  if (network) {
    rc.what = "dropped the connection (reset or timed out) without an error of its own in the "
              "input";
    rc.reasoning = fmt::format(
        "{} saw its connection to its peer{} reset or time out (\"{}\") and no process in the "
        "input reports an error of its own: the network between them failed, or the peer died "
        "abruptly — check the NICs/switches (IB port state, counters) and the peer's own log",
        RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
        peer.empty() ? std::string() : " " + peer, first_cascade->message);
  } else {
    rc.what = "went away (exited, was killed, crashed or lost its node) without an error of its "
              "own in the input";
    rc.reasoning = fmt::format(
        "{} reported that its peer{} went away (\"{}\") and no process in the input reports an "
        "error of its own: the peer's process ended first, killed or crashed (the input does "
        "not say which, hence process-killed with low confidence) — look at its own log, the "
        "scheduler's and the kernel's (OOM killer) for why",
        RankText(first_cascade->rank, first_cascade->host, first_cascade->pid),
        peer.empty() ? std::string() : " " + peer, first_cascade->message);
  }
  return rc;
}

}  // namespace ncclscope::triage_internal
