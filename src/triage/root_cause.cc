// AnalyzeRootCause: per restart attempt, the first failure and what followed from it.
//
// Order of the rules (docs/triage.md):
//   1. A rank's own end (killed, crashed, exception, its own NCCL error) that is not fallout
//      (the launcher's SIGTERM, PyTorch taking a process down after a timeout or a peer's exit)
//      is a cause; the earliest wins, and ranks that failed the same way at once share it.
//   2. Watchdog timeouts that came before any such end are compared across ranks.
//   3. Else the first NCCL error that is not a peer-gone message; else the peer those name.
//   4. Else a rank that reached init late (or never).
//   5. Else, when a signal stopped a job whose communicators were up, a hang (timeout-unknown);
//      when only the launcher says a process failed (mpirun's abort), a failed job, no culprit.
#include "ncclscope/triage/root_cause.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "ncclscope/model/rank_ranges.h"
#include "triage_internal.h"

namespace ncclscope {

std::string_view CauseClassName(CauseClass c) {
  static constexpr std::string_view kNames[] = {
      "none",          "process-killed", "crash-signal",        "python-exception",
      "cuda-oom",      "nccl-error",     "network",             "collective-mismatch",
      "late-start",    "stuck-rank",     "timeout-unknown"};
  const size_t i = static_cast<size_t>(c);
  return i < std::size(kNames) ? kNames[i] : std::string_view("none");
}

std::string_view ConfidenceName(Confidence c) {
  switch (c) {
    case Confidence::kLow:
      return "low";
    case Confidence::kMedium:
      return "medium";
    case Confidence::kHigh:
      return "high";
  }
  return "low";
}

std::string CulpritText(const Culprit& c) {
  if (c.rank < 0 && c.host.empty() && c.pid <= 0) return "an unidentified rank";
  if (c.rank < 0 && !c.host.empty() && c.pid <= 0) return "the process on " + c.host;
  return triage_internal::RankText(c.rank, c.host, c.pid);
}

namespace triage_internal {

const ProcessInstance* AttemptView::ProcessOfRank(int rank) const {
  if (rank < 0) return nullptr;
  auto it = by_rank.find(rank);
  return it == by_rank.end() ? nullptr : it->second;
}

const ProcessInstance* AttemptView::LastProcessWithPid(int64_t pid) const {
  if (pid <= 0 || pid > std::numeric_limits<uint32_t>::max()) return nullptr;
  auto it = last_by_pid.find(static_cast<uint32_t>(pid));
  return it == last_by_pid.end() ? nullptr : it->second;
}

const ProcessInstance* AttemptView::OnlyProcessOnHost(const std::string& host) const {
  auto it = by_host.find(host);
  return it == by_host.end() || it->second.second != 1 ? nullptr : it->second.first;
}

Culprit AttemptView::CulpritOfRank(int rank) const {
  Culprit c;
  c.rank = rank;
  if (const ProcessInstance* p = ProcessOfRank(rank)) {
    c.host = p->host;
    c.pid = p->pid;
  }
  return c;
}

const Incident* FirstExternalStop(const AttemptView& view) {
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kJobCancelled ||
        (i->kind == IncidentKind::kSignalSent && i->pid <= 0)) {
      return i;
    }
  }
  return nullptr;
}

bool AttemptView::Before(const Incident* a, const Incident* b) {
  if (a->time && b->time && *a->time != *b->time) return *a->time < *b->time;
  if (a->time && b->time) {
    // Same time: a line with its own stamp is more exact than an inherited one.
    if (a->evidence.source == b->evidence.source) return a->evidence.line < b->evidence.line;
    return a->time_inherited < b->time_inherited;
  }
  return std::tie(a->evidence.source, a->evidence.line) <
         std::tie(b->evidence.source, b->evidence.line);
}

}  // namespace triage_internal

namespace {

using triage_internal::AttemptView;
using triage_internal::RankFailure;

/// Two failures this close are "at once" (launchers notice deaths with a delay).
constexpr int64_t kSameMomentNanos = int64_t{2} * 1000000000;
/// A network error on another rank this long before a kill or crash is that death's echo.
constexpr int64_t kEchoNanos = int64_t{60} * 1000000000;

int64_t Gap(const Incident* a, const Incident* b) {
  if (!(a->time && b->time)) return 0;
  return *b->time - *a->time;
}

bool IsDeath(CauseClass c) {
  return c == CauseClass::kProcessKilled || c == CauseClass::kCrashSignal;
}

std::string SignalFallout(const Incident& i) {
  if (i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kKubernetes &&
      (i.message == "Evicted" || i.message == "DeadlineExceeded" || i.message == "Terminated" ||
       i.message == "NodeLost")) {
    return i.signal > 0 ? fmt::format("ended by signal {} (its pod: {})", i.signal, i.message)
                        : fmt::format("ended (its pod: {})", i.message);
  }
  if (i.kind == IncidentKind::kExit) {
    if (i.signal == 15) return "was stopped by the launcher (SIGTERM)";
    if (i.signal > 0) return fmt::format("ended by signal {}", i.signal);
    if (i.exit_code) return fmt::format("exited with code {}", *i.exit_code);
  }
  return {};
}

RootCause FromFailure(const AttemptView& view, const std::vector<RankFailure>& failures,
                      const RankFailure& head) {
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = head.cls;
  rc.what = head.what;
  rc.time = head.first->time;
  rc.time_text = head.first->time_text;
  rc.confidence = head.rank >= 0 && !head.class_guessed && !head.exit_code_only
                      ? Confidence::kHigh
                      : Confidence::kMedium;
  std::vector<int> together;
  for (const RankFailure& f : failures) {
    if (f.fallout || f.cls != head.cls || f.signal != head.signal) continue;
    if (&f != &head && std::abs(Gap(head.first, f.first)) > kSameMomentNanos) continue;
    // Two failure records of one unidentified process (its terminate and its NCCL error) are
    // one culprit.
    const bool listed = std::any_of(rc.culprits.begin(), rc.culprits.end(), [&](const Culprit& c) {
      return c.rank == f.rank && c.host == f.host && c.pid == f.pid;
    });
    if (!listed) rc.culprits.push_back(Culprit{f.rank, f.host, f.pid});
    if (f.rank >= 0) together.push_back(f.rank);
    for (const Incident* i : f.lines) {
      const bool echo = std::find(f.echoes.begin(), f.echoes.end(), i) != f.echoes.end();
      auto& lines = echo ? rc.echo_lines : rc.cause_lines;
      lines.push_back({i->evidence.source, i->evidence.line});
      if (rc.evidence.size() < 6) rc.evidence.push_back(i->evidence);
      // PyTorch's "Last error:" detail, quoted whole: NCCL's own words for what failed.
      if (!i->detail.empty() && i->detail_evidence.line != i->evidence.line) {
        lines.push_back({i->detail_evidence.source, i->detail_evidence.line});
        if (rc.evidence.size() < 7) rc.evidence.push_back(i->detail_evidence);
      }
    }
  }
  // The table's "first observed failure" leads when several failed at once.
  auto table_root = [&](const Culprit& c) {
    for (const RankFailure& f : failures) {
      if (f.rank == c.rank && f.table_root_cause) return true;
    }
    return false;
  };
  std::stable_sort(rc.culprits.begin(), rc.culprits.end(),
                   [&](const Culprit& a, const Culprit& b) { return table_root(a) && !table_root(b); });
  // Peers that lost their connection before the launcher noticed the death date it better.
  std::string noticed;
  if (IsDeath(head.cls)) {
    for (const Incident* i : view.incidents) {
      if (!AttemptView::Before(i, head.first)) break;
      const bool peer_gone = (i->kind == IncidentKind::kNcclWarn ||
                              i->kind == IncidentKind::kNcclError) && i->cascade;
      if (peer_gone && i->rank != head.rank && i->time && head.first->time &&
          *head.first->time - *i->time <= kEchoNanos) {
        noticed = fmt::format(" at about {}, when rank {} lost its connection to it (the launcher "
                              "noticed the death at {})",
                              i->time_text.empty() ? "an earlier time" : i->time_text, i->rank,
                              rc.time_text.empty() ? "a later time" : rc.time_text);
        rc.time = i->time;
        if (!i->time_text.empty()) rc.time_text = i->time_text;
        break;
      }
    }
  }
  const std::string who = together.size() > 1
                              ? fmt::format("ranks {}", RankRanges(together))
                              : CulpritText(rc.culprits.front());
  const std::string when =
      rc.time_text.empty() || !noticed.empty() ? std::string() : " at " + rc.time_text;
  const std::string detail = head.detail.empty() ? std::string() : " (" + head.detail + ")";
  rc.reasoning = fmt::format("{} {}{}{}{}", who, head.what, detail, when, noticed);
  if (together.size() > 1) {
    rc.reasoning = fmt::format("{} all {}{}{}: every rank failed the same way at once, so the "
                               "cause is common to them (configuration, data, environment)",
                               who, head.what, detail, when);
    // Ranks that failed alike at once say the cause is common, unless how they failed is only
    // the likeliest reading of an exit code (or a guess): then it is as uncertain as that.
    rc.confidence =
        head.class_guessed || head.exit_code_only ? Confidence::kMedium : Confidence::kHigh;
  }
  if (head.cls == CauseClass::kCollectiveMismatch &&
      (head.first->kind == IncidentKind::kNcclWarn ||
       head.first->kind == IncidentKind::kNcclError)) {
    // NCCL's "message truncated": the sizes disagree, but the message does not say which side
    // called the wrong operation; the rank that saw it is one of the two.
    rc.confidence = Confidence::kMedium;
    rc.reasoning +=
        "; a peer sent more data than this rank's operation expects: the ranks called different "
        "collectives, or the same one with different sizes or NCCL settings (NCCL_PROTO, "
        "NCCL_ALGO), and the rank that reports it is one side of the mismatch";
  }
  if (head.stale_id) {
    rc.reasoning += fmt::format(
        "; it joined attempt {}'s NCCL communicator {} (a stale unique id left in the store by "
        "the failed attempt), whose root no longer exists",
        view.attempt, head.stale_comm);
  }
  return rc;
}

/// The attempt's view: incidents in time order, processes, world size.
AttemptView ViewOf(const Job& job, int attempt) {
  AttemptView v;
  v.job = &job;
  v.attempt = attempt;
  for (const Incident& i : job.incidents.incidents) {
    if (i.attempt == attempt) v.incidents.push_back(&i);
  }
  std::stable_sort(v.incidents.begin(), v.incidents.end(), &AttemptView::Before);
  for (const ProcessInstance& p : job.incidents.instances) {
    if (p.attempt != attempt) continue;
    v.processes.push_back(&p);
    if (p.rank >= 0) v.by_rank.try_emplace(p.rank, &p);
    v.last_by_pid[p.pid] = &p;
    auto& [last_on_host, on_host] = v.by_host[p.host];
    last_on_host = &p;
    ++on_host;
    v.world = std::max(v.world, p.world);
  }
  return v;
}

/// Marks the failures of processes that joined an earlier attempt's world communicator.
void MarkStaleIds(const Job& job, const AttemptView& view, std::vector<RankFailure>* failures) {
  if (view.attempt == 0) return;
  std::set<std::string> old;
  for (const ProcessInstance& p : job.incidents.instances) {
    if (p.attempt < view.attempt && !p.world_comm.empty()) old.insert(p.world_comm);
  }
  for (RankFailure& f : *failures) {
    const ProcessInstance* p = view.ProcessOfRank(f.rank);
    if (p != nullptr && old.count(p->world_comm)) {
      f.stale_id = true;
      f.stale_comm = p->world_comm;
      if (f.cls == CauseClass::kNcclError || f.cls == CauseClass::kPythonException) {
        f.cls = CauseClass::kNetwork;
      }
      f.fallout = false;
    }
  }
}

bool CommsUp(const Job& job) {
  bool any = false;
  for (const Communicator& c : job.comms) {
    for (const auto& [r, cr] : c.ranks) any = any || cr.completed;
  }
  return any;
}

/// The first incident of `kind` in the attempt, or nullptr.
const Incident* FirstOfKind(const AttemptView& view, IncidentKind kind) {
  for (const Incident* i : view.incidents) {
    if (i->kind == kind) return i;
  }
  return nullptr;
}

/// "failure detected by watchdog at work sequence id: N": a progress line that names the failed
/// work.
bool IsWatchdogFailure(const Incident& i) {
  return i.kind == IncidentKind::kProgress && i.seq >= 0;
}

/// The first watchdog failure of the attempt, or nullptr.
const Incident* FirstWatchdogFailure(const AttemptView& view) {
  for (const Incident* i : view.incidents) {
    if (IsWatchdogFailure(*i)) return i;
  }
  return nullptr;
}

/// A cause no rank is named for (timeout-unknown, low confidence), read from the attempt's
/// incidents that `matches` takes, `first` the earliest: their lines are the evidence, and
/// *who says which ranks printed them ("rank(s) 1,3", or "a rank").
template <typename Match>
RootCause UnnamedRankCause(const AttemptView& view, const Incident& first, Match matches,
                           std::string* who) {
  RootCause rc;
  rc.cls = CauseClass::kTimeoutUnknown;
  rc.job_failed = true;
  rc.confidence = Confidence::kLow;
  rc.time = first.time;
  rc.time_text = first.time_text;
  std::vector<int> ranks;
  for (const Incident* i : view.incidents) {
    if (!matches(*i)) continue;
    if (rc.evidence.size() < 4) rc.evidence.push_back(i->evidence);
    rc.cause_lines.push_back({i->evidence.source, i->evidence.line});
    if (i->rank >= 0 && std::find(ranks.begin(), ranks.end(), i->rank) == ranks.end()) {
      ranks.push_back(i->rank);
    }
  }
  std::sort(ranks.begin(), ranks.end());
  *who = ranks.empty() ? std::string("a rank") : fmt::format("rank(s) {}", RankRanges(ranks));
  return rc;
}

/// PyTorch 2.5+'s watchdog reported a failed collective ("[PG ID 2 ...] failure detected by
/// watchdog at work sequence id: 40231 PG status: last enqueued work: 40267, last completed
/// work: 40230") and nothing in the input says why: an error or a timeout of that work, which
/// then takes the process down. No rank is named as the cause.
RootCause FromWatchdogFailure(const AttemptView& view, const Incident& first) {
  std::string who;
  RootCause rc = UnnamedRankCause(view, first, IsWatchdogFailure, &who);
  rc.what = fmt::format("a collective failed (work {}); the input does not say why", first.seq);
  rc.reasoning = fmt::format(
      "the watchdog of {} detected a failed collective (work {}, last completed {}) and the "
      "input holds no error, timeout or exit that says why or which rank failed first: an NCCL "
      "error or a timeout of that work (the watchdog's own line before it, or the other ranks' "
      "output, names it)",
      who, first.seq, first.last_completed);
  return rc;
}

/// A process PyTorch took down (SIGABRT after "we are taking the entire process down") while the
/// input holds no timeout, no NCCL error of its own and no other failure: its watchdog found a
/// collective that failed or timed out, and the lines that said which are not in the input. The
/// peers' lost connections that follow are its departure.
std::optional<RootCause> FromTakenDown(const AttemptView& view,
                                       const std::vector<RankFailure>& failures) {
  const RankFailure* torn = nullptr;
  for (const RankFailure& f : failures) {
    if (!f.fallout) return std::nullopt;  // a failure of its own explains more
    if (f.torn_down && torn == nullptr) torn = &f;
  }
  if (torn == nullptr || triage_internal::FirstOwnNcclError(view) != nullptr) return std::nullopt;
  RootCause rc;
  rc.attempt = view.attempt;
  rc.job_failed = true;
  rc.cls = CauseClass::kTimeoutUnknown;
  rc.confidence = Confidence::kLow;
  rc.culprits.push_back(Culprit{torn->rank, torn->host, torn->pid});
  rc.what =
      "was taken down by PyTorch after a collective failed or timed out; the input does "
      "not say which";
  rc.reasoning = fmt::format(
      "{} ended by SIGABRT after PyTorch's \"we are taking the entire process down\": its "
      "watchdog found a collective that failed or timed out (the line that says which, and "
      "why, is not in the input); the connections its peers lost afterwards are its departure",
      triage_internal::RankText(torn->rank, torn->host, torn->pid));
  rc.time = torn->first->time;
  rc.time_text = torn->first->time_text;
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kTeardown && AttemptView::Before(i, torn->first) &&
        (i->rank < 0 || i->rank == torn->rank)) {
      rc.evidence.push_back(i->evidence);
      break;
    }
  }
  rc.evidence.push_back(torn->first->evidence);
  return rc;
}

/// PyTorch's heartbeat monitor found a rank's watchdog thread stuck ("Heartbeat monitor timed
/// out!", "ProcessGroupNCCL's watchdog got stuck for 600 seconds") and took the process down:
/// an NCCL or CUDA call hung in it. With no error or timeout of any rank in the input, that is
/// all the input says: a hang, no rank named as its cause.
RootCause FromHeartbeats(const AttemptView& view, const Incident& first) {
  std::string who;
  RootCause rc = UnnamedRankCause(
      view, first, [](const Incident& i) { return i.kind == IncidentKind::kHeartbeat; }, &who);
  rc.what = "— the job hung: the watchdog got stuck in an NCCL or CUDA call";
  rc.reasoning = fmt::format(
      "PyTorch's heartbeat monitor found the watchdog thread of {} stuck and took the process "
      "down: an NCCL or CUDA call hung in it (a collective some rank never joined, a GPU fault, "
      "or a deadlock with another thread); no rank reported an error or a collective timeout "
      "in the input, so none is named (TORCH_NCCL_DUMP_ON_TIMEOUT=1 and the flight recorder show "
      "where each rank stopped)",
      who);
  return rc;
}

/// Every rank timed out in one collective and none lagged (`timeouts` names no culprit), but
/// one rank printed an NCCL error of its own (a CUDA failure, a network completion error; not a
/// peer's going away) no later than the first timeout: that error is why the collective
/// stalled, and the timeouts are its fallout. An error printed after the first timeout may be
/// the abort's consequence and is left to the timeouts.
std::optional<RootCause> ErrorBehindStall(const AttemptView& view,
                                          const std::optional<RootCause>& timeouts,
                                          const Incident* first_timeout) {
  if (!timeouts || !timeouts->culprits.empty() || first_timeout == nullptr) return std::nullopt;
  const Incident* own = triage_internal::FirstOwnNcclError(view);
  if (own == nullptr || (own->rank < 0 && own->host.empty())) return std::nullopt;
  // A time the error line took from a neighbouring line of its input orders nothing.
  if (own->time && !own->time_inherited && first_timeout->time &&
      *own->time > *first_timeout->time) {
    return std::nullopt;
  }
  RootCause rc = triage_internal::FromOwnNcclError(view, *own);
  rc.reasoning += "; no rank lagged or differed in the timeouts that followed, so the stall "
                  "is this error's";
  return rc;
}

RootCause AnalyzeAttempt(const Job& job, int attempt) {
  const AttemptView view = ViewOf(job, attempt);
  std::vector<RankFailure> failures = triage_internal::CollectRankFailures(view);
  MarkStaleIds(job, view, &failures);
  triage_internal::RefineByTrails(view, &failures);
  triage_internal::HostsFromPeerCloses(view, &failures);
  const RankFailure* head = nullptr;
  for (const RankFailure& f : failures) {
    if (!f.fallout) {
      head = &f;
      break;
    }
  }
  // A network error on one rank shortly before another rank was killed or crashed is the
  // echo of that death (the detection lags the death).
  if (head != nullptr && head->cls == CauseClass::kNetwork && !head->stale_id) {
    for (const RankFailure& f : failures) {
      if (!f.fallout && IsDeath(f.cls) && f.rank != head->rank &&
          Gap(head->first, f.first) <= kEchoNanos) {
        head = &f;
        break;
      }
    }
  }
  RootCause rc;
  // PyTorch's desync report, when a rank printed one, reads the timeouts better than their
  // comparison here.
  std::optional<RootCause> timeouts = triage_internal::FromDesyncReport(view);
  if (!timeouts) timeouts = triage_internal::CompareTimeouts(view);
  const Incident* first_timeout = nullptr;
  for (const Incident* i : view.incidents) {
    if (i->kind == IncidentKind::kWatchdogTimeout || i->kind == IncidentKind::kDesyncCulprit) {
      first_timeout = i;
      break;
    }
  }
  const bool timeouts_first =
      timeouts && (head == nullptr || AttemptView::Before(first_timeout, head->first));
  if (timeouts_first && !timeouts->culprits.empty()) {
    rc = *timeouts;
    if (head != nullptr) {
      for (const Culprit& c : rc.culprits) {
        if (c.rank == head->rank) {
          rc.reasoning += fmt::format("; rank {} later {}", c.rank, head->what);
        }
      }
    }
  } else if (head != nullptr && head->cls == CauseClass::kCollectiveMismatch &&
             triage_internal::MismatchFromDetector(view)) {
    rc = *triage_internal::MismatchFromDetector(view);
  } else if (std::optional<RootCause> waited =
                 head != nullptr ? triage_internal::FromUniqueIdWait(view, failures, *head)
                                 : std::nullopt) {
    rc = *waited;
  } else if (head != nullptr) {
    rc = FromFailure(view, failures, *head);
  } else if (std::optional<RootCause> behind = ErrorBehindStall(view, timeouts, first_timeout)) {
    rc = *behind;
  } else if (timeouts) {
    rc = *timeouts;
  } else if (std::optional<RootCause> torn = FromTakenDown(view, failures)) {
    rc = *torn;
  } else if (std::optional<RootCause> nccl = triage_internal::FromNcclErrors(view)) {
    rc = *nccl;
  } else if (std::optional<RootCause> trail = triage_internal::FromErrorTrails(view)) {
    rc = *trail;
  } else if (const Incident* heartbeat = FirstOfKind(view, IncidentKind::kHeartbeat)) {
    rc = FromHeartbeats(view, *heartbeat);
  } else if (std::optional<RootCause> closes = triage_internal::FromPeerCloses(view)) {
    rc = *closes;
  } else if (std::optional<RootCause> stalled = triage_internal::FromStalledConnects(view)) {
    rc = *stalled;
  } else if (const Incident* detected = FirstWatchdogFailure(view)) {
    rc = FromWatchdogFailure(view, *detected);
  } else {
    bool failed = false;
    for (const RankFailure& f : failures) failed = failed || f.fallout;
    // A job stopped from outside while a rank was still missing from init failed (it hung there).
    const bool stopped = triage_internal::FirstExternalStop(view) != nullptr;
    if (std::optional<RootCause> late = triage_internal::FindLateStart(view, failed || stopped)) {
      rc = *late;
    } else {
      const Incident* stop = nullptr;
      for (const Incident* i : view.incidents) {
        if (i->kind == IncidentKind::kSignalSent || i->kind == IncidentKind::kJobCancelled ||
            (i->kind == IncidentKind::kExit && i->signal == 15)) {
          stop = i;
          break;
        }
      }
      const bool hung = stop != nullptr && CommsUp(job);
      std::optional<RootCause> progress =
          hung ? triage_internal::FromCollectiveProgress(view, *stop) : std::nullopt;
      if (progress) {
        rc = *progress;
      } else if (hung) {
        rc.cls = CauseClass::kTimeoutUnknown;
        rc.job_failed = true;
        rc.confidence = Confidence::kLow;
        rc.what = "the job hung";
        rc.time = stop->time;
        rc.time_text = stop->time_text;
        rc.evidence.push_back(stop->evidence);
        rc.reasoning =
            "the communicators were up, no process died of its own and no rank reported an "
            "error or a timeout, and the job was then stopped from outside: it most likely hung "
            "in a collective (no rank can be named: rerun with a shorter PyTorch timeout so "
            "the watchdog reports the ranks' positions)";
      } else if (failed) {
        rc.cls = CauseClass::kNone;
        rc.job_failed = true;
        rc.what = "processes were stopped, and the input does not say why";
        rc.reasoning = "processes ended by the launcher's or scheduler's signal, with no "
                       "failure of their own in the input";
      } else if (const Incident* gave_up = FirstOfKind(view, IncidentKind::kLauncherGaveUp)) {
        // mpirun's "Primary job terminated normally, but 1 process returned a non-zero exit
        // code ... aborted": the job failed, but the input names no rank and no reason.
        rc.cls = CauseClass::kNone;
        rc.job_failed = true;
        rc.confidence = Confidence::kLow;
        rc.what = "the launcher ended the job after a process failed, and the input does not say "
                  "which rank or why";
        rc.time = gave_up->time;
        rc.time_text = gave_up->time_text;
        rc.evidence.push_back(gave_up->evidence);
        rc.cause_lines.push_back({gave_up->evidence.source, gave_up->evidence.line});
        rc.reasoning = fmt::format(
            "the launcher reported \"{}\" and no process's own failure is in the input: look at "
            "the failed process's own output (stderr, core dump, the kernel log) for its exit "
            "code or signal",
            gave_up->message);
      }
    }
  }
  rc.attempt = attempt;
  // Late start is worth saying also when the job then ran (slow init, no failure).
  if (rc.cls == CauseClass::kNone && !rc.job_failed) {
    if (std::optional<RootCause> late = triage_internal::FindLateStart(view, false)) rc = *late;
  }
  rc.fallout = triage_internal::CollectFallout(view, rc);
  if (!rc.fallout.empty() && rc.cls != CauseClass::kNone && rc.cls != CauseClass::kLateStart) {
    std::map<std::string, std::vector<int>> by_what;
    for (const Fallout& f : rc.fallout) {
      if (f.rank >= 0) by_what[f.what].push_back(f.rank);
    }
    std::vector<std::string> parts;
    for (const auto& [what, ranks] : by_what) {
      const bool plural = ranks.size() > 1 && what.starts_with("was ");
      parts.push_back(fmt::format("rank{} {} {}", ranks.size() > 1 ? "s" : "", RankRanges(ranks),
                                  plural ? "were " + what.substr(4) : what));
    }
    if (!parts.empty()) rc.reasoning += fmt::format("; then {}", fmt::join(parts, "; "));
  }
  if (!rc.reasoning.empty() && rc.reasoning.back() != '.') rc.reasoning += ".";
  return rc;
}

}  // namespace

namespace triage_internal {

std::vector<Fallout> CollectFallout(const AttemptView& view, const RootCause& cause) {
  std::set<int> culprits;
  for (const Culprit& c : cause.culprits) {
    if (c.rank >= 0) culprits.insert(c.rank);
  }
  std::set<std::pair<uint32_t, uint64_t>> cause_lines(cause.cause_lines.begin(),
                                                      cause.cause_lines.end());
  std::map<int, Fallout> first;
  auto note = [&](int rank, std::string what, const Incident& i) {
    if (rank < 0 || culprits.count(rank) || first.count(rank) || what.empty()) return;
    if (cause_lines.count({i.evidence.source, i.evidence.line})) return;
    first[rank] = Fallout{rank, std::move(what), i.time_text, i.evidence};
  };
  for (const Incident* i : view.incidents) {
    switch (i->kind) {
      case IncidentKind::kSignalSent: {
        const ProcessInstance* p = view.LastProcessWithPid(i->pid);
        if (p != nullptr) note(p->rank, "was stopped by the launcher (SIGTERM)", *i);
        break;
      }
      case IncidentKind::kExit:
        note(i->rank, SignalFallout(*i), *i);
        break;
      case IncidentKind::kNcclWarn:
      case IncidentKind::kNcclError:
        if (i->cascade) note(i->rank, "lost its connection to it (" + i->message + ")", *i);
        break;
      case IncidentKind::kWatchdogTimeout:
        note(i->rank,
             fmt::format("timed out waiting in SeqNum {}{}", i->seq,
                         i->op.empty() ? std::string() : " " + i->op),
             *i);
        break;
      case IncidentKind::kTeardown:
        note(i->rank, "was taken down by PyTorch", *i);
        break;
      default:
        break;
    }
  }
  std::vector<Fallout> out;
  for (auto& [r, f] : first) out.push_back(std::move(f));
  return out;
}

}  // namespace triage_internal

RootCauseReport AnalyzeRootCause(const Job& job) {
  RootCauseReport report;
  int attempts = static_cast<int>(job.incidents.attempts.size());
  for (const Incident& i : job.incidents.incidents) attempts = std::max(attempts, i.attempt + 1);
  for (const ProcessInstance& p : job.incidents.instances) attempts = std::max(attempts, p.attempt + 1);
  attempts = std::max(attempts, 1);
  for (int a = 0; a < attempts; ++a) {
    AttemptCause ac;
    ac.info.index = a;
    if (static_cast<size_t>(a) < job.incidents.attempts.size()) ac.info = job.incidents.attempts[a];
    for (const ProcessInstance& p : job.incidents.instances) {
      if (p.attempt == a) ac.processes.push_back(p);
    }
    ac.cause = AnalyzeAttempt(job, a);
    report.attempts.push_back(std::move(ac));
  }
  report.cause = report.attempts.back().cause;
  for (auto it = report.attempts.rbegin(); it != report.attempts.rend(); ++it) {
    if (it->cause.job_failed) {
      report.cause = it->cause;
      break;
    }
  }
  return report;
}

}  // namespace ncclscope
