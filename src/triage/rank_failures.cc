// CollectRankFailures: each rank's own end, from launcher/scheduler exits, Python exceptions,
// fatal signals and uncaught C++ exceptions; which of them are fallout (the launcher's SIGTERM,
// PyTorch taking a process down after a timeout or a peer's exit) and which are causes.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>

#include "ncclscope/base/ascii.h"
#include "ncclscope/base/signals.h"
#include "ncclscope/base/text_tokens.h"
#include "ncclscope/model/timeline.h"
#include "ncclscope/rules/error_trail.h"
#include "triage_internal.h"

namespace ncclscope::triage_internal {
namespace {

bool Contains(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

/// Class and description of an exception.
/// "ncclCommInitRank failed: unhandled system error" (TensorFlow, Horovod, JAX): an exception
/// whose message says that an NCCL call failed.
bool NamesFailedNcclCall(std::string_view message) {
  for (size_t at = message.find("nccl"); at != message.npos; at = message.find("nccl", at + 4)) {
    if (at > 0 && ascii::IsWordChar(message[at - 1])) continue;
    size_t end = at + 4;
    while (end < message.size() && ascii::IsWordChar(message[end])) ++end;
    if (end > at + 4 && message.compare(end, 8, " failed:") == 0) return true;
  }
  return false;
}

CauseClass ClassOfException(std::string_view type, std::string_view message) {
  if (Contains(type, "OutOfMemoryError") || Contains(message, "CUDA out of memory")) {
    return CauseClass::kCudaOom;
  }
  if (Contains(message, "Detected mismatch between collectives")) {
    return CauseClass::kCollectiveMismatch;
  }
  if (Contains(type, "DistStoreError") || Contains(message, "waiting for clients")) {
    return CauseClass::kLateStart;
  }
  // PyTorch could not fetch the NCCL unique id from rank 0's store ("[14] is setting up NCCL
  // communicator and retrieving ncclUniqueId from [0] via c10d key-value store ..., but
  // store->get('0') got error: Connection reset by peer"): a connection failure.
  // "NcclError": cupy's and Ray collective's NCCL exception ("RayTaskError(NcclError)").
  // "DistNetworkError: The client socket has timed out after 20000ms while trying to connect to
  // (192.0.2.1, 29711)": the process could not reach the rendezvous store (a wrong MASTER_ADDR,
  // a firewall): classed by its text, like NCCL's own errors.
  if (Contains(type, "DistBackendError") || Contains(type, "DistNetworkError") ||
      Contains(type, "NCCL") || Contains(type, "NcclError") || Contains(message, "NCCL error") ||
      NamesFailedNcclCall(message) || IsUniqueIdFetchFailure(message)) {
    return ClassOfErrorText(message);
  }
  return CauseClass::kPythonException;
}

/// Key of a failure: the rank, else the pid, else the incident itself.
int64_t KeyOf(const Incident& i, size_t index) {
  if (i.rank >= 0) return i.rank;
  if (i.pid > 0) return -1000000 - i.pid;
  return -2000000000LL - static_cast<int64_t>(index);
}

bool IsOwnFailureLine(const Incident& i) {
  switch (i.kind) {
    case IncidentKind::kExit:
      return !(i.exit_code && *i.exit_code == 0 && i.signal == 0);
    case IncidentKind::kException:
    case IncidentKind::kCppTerminate:
      return true;
    case IncidentKind::kNcclError:
      return !i.type.empty();  // raised in Python ("DistBackendError: NCCL error in: ...")
    default:
      return false;
  }
}

/// The rank's own lines before `until` that make its death a consequence (a timeout, PyTorch
/// taking it down, a peer-gone error) or a cause of its own (an NCCL error of its own).
struct History {
  const Incident* timeout = nullptr;
  const Incident* teardown = nullptr;
  const Incident* cascade = nullptr;
  const Incident* own_error = nullptr;  ///< Non-cascade NCCL WARN/error of this rank.
  const Incident* signalled = nullptr;  ///< The launcher signalled this process.
};

/// Whether `i` is a line of the unidentified process that `f` is: neither names a rank or a
/// pid, and both come from one input. A headless excerpt (`func:line NCCL WARN ...` without
/// NCCL's host:pid:tid head, then the framework's traceback) is one process's output: its
/// WARNs are that process's own errors.
bool SameUnidentifiedProcess(const RankFailure& f, const Incident& i) {
  if (f.rank >= 0 || f.pid > 0 || i.rank >= 0 || f.first == nullptr) return false;
  if (i.evidence.source != f.first->evidence.source ||
      (i.kind != IncidentKind::kNcclWarn && i.kind != IncidentKind::kNcclError))
    return false;
  // A failure line that names only its host (nccl-tests' "HOST: Test NCCL failure ..."): the
  // NCCL lines of that host, which no rank tells apart, are its process's.
  if (i.pid > 0) return !f.host.empty() && i.host == f.host;
  return true;
}

History HistoryOf(const AttemptView& view, const RankFailure& f) {
  History h;
  for (const Incident* i : view.incidents) {
    const bool mine = (f.rank >= 0 && i->rank == f.rank) ||
                      (f.pid > 0 && i->pid == f.pid && i->kind != IncidentKind::kExit) ||
                      SameUnidentifiedProcess(f, *i);
    if (i->kind == IncidentKind::kSignalSent && f.pid > 0 && i->pid == f.pid) {
      if (h.signalled == nullptr) h.signalled = i;
      continue;
    }
    if (!mine) continue;
    switch (i->kind) {
      case IncidentKind::kWatchdogTimeout:
      case IncidentKind::kHeartbeat:
      case IncidentKind::kInitTimeout:
        if (h.timeout == nullptr) h.timeout = i;
        break;
      case IncidentKind::kTeardown:
        if (h.teardown == nullptr) h.teardown = i;
        break;
      case IncidentKind::kNcclWarn:
      case IncidentKind::kNcclError:
        if (i->cascade || Contains(i->message, "communicator was aborted")) {
          if (h.cascade == nullptr) h.cascade = i;
        } else if (IsProxyOperationReport(i->message)) {
          // Says that an operation failed, not why: not what ended the process.
        } else if (h.own_error == nullptr && i->kind == IncidentKind::kNcclWarn) {
          h.own_error = i;
        } else if (h.own_error == nullptr && i->type.empty()) {
          h.own_error = i;
        }
        break;
      default:
        break;
    }
  }
  return h;
}

std::string SignalText(int signal) {
  std::string_view name = SignalName(signal);
  return name.empty() ? fmt::format("signal {}", signal)
                      : fmt::format("{} (signal {})", name, signal);
}

/// An own NCCL error this long before the launcher's SIGTERM ended the process itself.
constexpr int64_t kOwnErrorBeforeSignalNanos = int64_t{10} * 1000000000;
/// Lines between "terminate called after throwing ..." and its `what():` line.
constexpr uint64_t kWhatLineSpan = 2;
/// A failure without rank or pid this close to a ranked one is one of the ranked ranks'.
constexpr int64_t kRanklessNearNanos = int64_t{2} * 1000000000;

/// What a pod's own status reason (`kubectl describe pod`'s unindented `Reason:`) says ended
/// it; empty for other exits.
std::string_view PodEndText(const Incident& i) {
  if (i.kind != IncidentKind::kExit || i.reporter != ExitReporter::kKubernetes) return {};
  if (i.message == "Evicted") return "its pod was evicted by the kubelet (node resource pressure)";
  if (i.message == "DeadlineExceeded") {
    return "its pod was stopped by Kubernetes (the Job's activeDeadlineSeconds passed)";
  }
  if (i.message == "Terminated") return "its pod was terminated by the node's shutdown";
  if (i.message == "NodeLost") return "its pod was lost with its node";
  return {};
}

/// Whether an exception's text is an NCCL error of its process's own: an NCCL call's failure in
/// words ("NCCL failure: unhandled cuda error", "ncclSystemError"), not a watchdog's timeout or a
/// peer that went away.
bool NamesOwnNcclError(std::string_view text) {
  if (text.empty() || IsCascadeMessage(text) || Contains(text, "Watchdog caught") ||
      Contains(text, "timed out") || Contains(text, "timeout")) {
    return false;
  }
  static constexpr std::string_view kWords[] = {
      "NCCL failure", "NCCL error",        "unhandled cuda error", "unhandled system error",
      "internal error", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError"};
  for (std::string_view w : kWords) {
    if (Contains(text, w)) return true;
  }
  return false;
}

/// Classifies a failure from its lines; fills cls, what, signal.
void Classify(RankFailure* f) {
  const Incident* exception = nullptr;
  const Incident* nccl_exception = nullptr;
  const Incident* terminate = nullptr;
  const Incident* exit = nullptr;
  for (const Incident* i : f->lines) {
    if (i->kind == IncidentKind::kException && exception == nullptr) exception = i;
    if (i->kind == IncidentKind::kNcclError && nccl_exception == nullptr) nccl_exception = i;
    if (i->kind == IncidentKind::kCppTerminate && terminate == nullptr) terminate = i;
    if (i->kind == IncidentKind::kExit) {
      // The most telling exit: a real signal over SIGTERM, a signal over a plain code.
      const int s = i->signal;
      const int best = exit ? exit->signal : -1;
      if (exit == nullptr || (s != 0 && (best == 0 || best == 15) && s != 15)) exit = i;
      if (!exit->from_table && i->from_table && i->type.size() > 0 && exception == nullptr) {
        exception = i;  // the table's copy of the error file
      }
      if (i->from_table && !i->type.empty() && exception == nullptr) exception = i;
    }
  }
  f->signal = exit ? exit->signal : 0;
  bool oom = false;
  std::string oom_by;
  std::string_view pod_end;
  for (const Incident* i : f->lines) {
    if (i->kind == IncidentKind::kExit && i->oom) {
      oom = true;
      if (i->reporter == ExitReporter::kKernel) oom_by = "the kernel's OOM killer";
      if (oom_by.empty()) oom_by = "the OOM killer";
    }
    if (pod_end.empty()) pod_end = PodEndText(*i);
  }
  if (exception != nullptr && !exception->type.empty()) {
    f->cls = ClassOfException(exception->type, exception->message);
    f->what = fmt::format("raised {}: {}", exception->type, Headline(exception->message));
    if (!exception->frame.empty()) f->what += fmt::format(" (at {})", exception->frame);
    if (IsUniqueIdFetchFailure(exception->message)) {
      f->detail = "it could not fetch the NCCL unique id from the store of the rank that creates "
                  "it: that rank (the store's host, usually rank 0) crashed or exited, or is not "
                  "reachable from here — its own output says which";
      f->class_guessed = true;  // this rank is where it showed, likely not where it began
    } else if (IsCascadeMessage(exception->message)) {
      // "NCCL communicator was aborted", "remote process exited": what ended it followed an
      // earlier failure (its watchdog's abort after a timeout, a peer's end). Nothing earlier in
      // the input says which: this rank is where it showed.
      f->detail =
          "the error reports an abort or a peer that went away: the failure it follows "
          "is not in the input";
      f->class_guessed = true;
    }
    return;
  }
  if (nccl_exception != nullptr) {
    f->cls = ClassOfRaisedNcclError(*nccl_exception);
    // nccl-tests names no exception: its check of an NCCL (or CUDA) call's result failed.
    f->what = nccl_exception->type == "nccl-tests"
                  ? fmt::format("failed an NCCL call in nccl-tests: {}",
                                Headline(nccl_exception->message))
              : nccl_exception->type == kNcclTestsCudaCheck
                  ? fmt::format("failed a CUDA call in nccl-tests: {}",
                                Headline(nccl_exception->message))
              : nccl_exception->type.empty()
                  ? fmt::format("NCCL error: {}", Headline(nccl_exception->message))
                  : fmt::format("raised {}: NCCL error: {}", nccl_exception->type,
                                Headline(nccl_exception->message));
    if (!nccl_exception->detail.empty()) {
      f->what += fmt::format(" — Last error: {}", Headline(nccl_exception->detail));
    }
    return;
  }
  if (exit != nullptr && exit->signal > 0) {
    const int s = exit->signal;
    f->cls = s == 9 || s == 15 || s == 1 || s == 2 ? CauseClass::kProcessKilled
                                                   : CauseClass::kCrashSignal;
    f->what = fmt::format("{} {}", s == 9 || s == 15 ? "was killed by" : "died of", SignalText(s));
    // SIGABRT with nothing else: PyTorch's watchdog takes a process down with it after a
    // collective timed out or failed, as a C++ terminate does; which one, the input does not say.
    if (s == 6) f->exit_code_only = true;
    if (oom || Contains(exit->message, "OOM") || Contains(exit->message, "Out Of Memory")) {
      f->what += fmt::format(": out of host memory ({})",
                             oom_by.empty() ? std::string("the OOM killer") : oom_by);
    } else if (!pod_end.empty()) {
      f->what += fmt::format(": {}", pod_end);
    } else if (!SignalMeaning(s).empty()) {
      f->detail = std::string(SignalMeaning(s));
    }
    return;
  }
  if (exit != nullptr && exit->fatal_signal) {  // the handler's first line, not which signal
    f->cls = CauseClass::kCrashSignal;
    f->what = "received a fatal signal (its signal handler's report; which signal is not in the "
              "input)";
    return;
  }
  if (exit != nullptr && exit->timed_out) {
    // PyTorch's test harness: still running when the test's time limit ran out (the harness
    // then terminates it). It names the first such process, not necessarily the only one.
    f->cls = CauseClass::kTimeoutUnknown;
    f->what = fmt::format(
        "did not finish within the test's time limit (PyTorch's test "
        "harness: \"{}\")",
        exit->message);
    f->detail =
        "the harness names the first test process still running when its timeout "
        "expired; where that rank waited, the input does not say";
    f->class_guessed = true;  // where the hang showed: it may have waited for a later rank
    return;
  }
  if (terminate != nullptr) {
    // An application's own NCCL check threw ("NCCL failure: unhandled cuda error in x.cu at
    // line: 86"): the abort is that NCCL error's end, classed by its words.
    f->cls = NamesOwnNcclError(terminate->message) ? ClassOfErrorText(terminate->message)
                                                   : CauseClass::kCrashSignal;
    f->what = fmt::format("aborted by an uncaught C++ exception {}", terminate->type);
    if (!terminate->message.empty()) f->what += ": " + Headline(terminate->message);
    return;
  }
  if (!pod_end.empty()) {
    f->cls = CauseClass::kProcessKilled;
    f->what = exit != nullptr && exit->exit_code
                  ? fmt::format("exited with code {}: {}", *exit->exit_code, pod_end)
                  : fmt::format("ended: {}", pod_end);
    return;
  }
  if (exit != nullptr && exit->reporter == ExitReporter::kTestHarness && exit->exit_code) {
    f->cls = CauseClass::kPythonException;
    f->what = fmt::format("{} (test harness: exit code {})", exit->message, *exit->exit_code);
    // The harness saw only the code: an exception is its likeliest reading, as below.
    f->exit_code_only = true;
    return;
  }
  if (exit != nullptr && exit->exit_code) {
    f->cls = CauseClass::kPythonException;
    f->what = fmt::format("exited with code {} (no traceback in the input)", *exit->exit_code);
    // Only the code is known: an exception is the likeliest reading of it, not a fact.
    f->exit_code_only = true;
    if (exit->oom) {
      f->cls = CauseClass::kProcessKilled;
      f->what = fmt::format("exited with code {}: out of host memory (OOM)", *exit->exit_code);
      f->exit_code_only = false;
    }
    return;
  }
  if (exit != nullptr && exit->oom) {
    f->cls = CauseClass::kProcessKilled;
    f->what = "was killed: out of host memory (OOMKilled)";
    return;
  }
  if (exit != nullptr && exit->reporter == ExitReporter::kRay) {
    f->cls = CauseClass::kProcessKilled;
    f->what = "died or was killed (Ray: unexpected system error)";
    f->detail = "Ray names the OOM killer's SIGKILL, `ray stop` or a crash as the usual causes";
    return;
  }
  if (exit != nullptr && exit->reporter == ExitReporter::kVllm) {
    f->cls = CauseClass::kProcessKilled;
    f->what = "died unexpectedly (vLLM's executor saw its worker process end)";
    f->class_guessed = true;
    f->detail = "the worker printed no error of its own: the OOM killer's SIGKILL, a crash in "
                "native code or a kill from outside; its own stderr and the kernel log say which";
    return;
  }
  f->cls = CauseClass::kPythonException;
  f->what = "ended with an error";
  f->class_guessed = true;  // nothing says how (a failure table's entry cut before its fields)
}

/// Marks `f` as fallout, or reclassifies it from its own earlier error.
void JudgeFallout(const AttemptView& view, RankFailure* f) {
  const History h = HistoryOf(view, *f);
  const Incident* death = f->first;
  auto before = [&](const Incident* i) {
    if (i == nullptr) return false;
    if (AttemptView::Before(i, death) || i == death) return true;
    // The `what():` line under "terminate called after throwing" is that exception's text: a
    // watchdog timeout (or teardown) printed there is what aborted the process.
    return death->kind == IncidentKind::kCppTerminate &&
           i->evidence.source == death->evidence.source &&
           i->evidence.line > death->evidence.line &&
           i->evidence.line <= death->evidence.line + kWhatLineSpan;
  };
  // Its own NCCL error shortly before the launcher's SIGTERM (it was failing already, and
  // exited after the signal reached it): the error is its end, not the signal.
  const bool own_before_signal =
      h.own_error != nullptr && h.signalled != nullptr &&
      AttemptView::Before(h.own_error, h.signalled) && h.own_error->time && h.signalled->time &&
      *h.signalled->time - *h.own_error->time <= kOwnErrorBeforeSignalNanos &&
      (h.timeout == nullptr || AttemptView::Before(h.own_error, h.timeout)) &&
      (h.cascade == nullptr || AttemptView::Before(h.own_error, h.cascade));
  if (f->signal == 15 && h.signalled != nullptr && !own_before_signal) {
    f->fallout = true;
    f->fallout_what = "stopped by the launcher (SIGTERM)";
    return;
  }
  // torchelastic's failure table lists the first failure under "Root Cause (first observed
  // failure)" and the others under "Failures:": a worker listed there that ended by SIGTERM was
  // stopped by the agent after the first one failed, also when the agent's "Sending process
  // ... closing signal" line is not in the input (an excerpt of the table).
  if (f->signal == 15 && h.own_error == nullptr && !f->table_root_cause &&
      std::all_of(f->lines.begin(), f->lines.end(),
                  [](const Incident* i) { return i->from_table && !i->table_root_cause; })) {
    f->fallout = true;
    f->fallout_what = "stopped by the launcher (SIGTERM) after the first failure";
    return;
  }
  const bool teardown_kind = f->signal == 6 || f->cls == CauseClass::kNcclError ||
                             f->cls == CauseClass::kNetwork ||
                             f->cls == CauseClass::kPythonException ||
                             f->cls == CauseClass::kCrashSignal;
  if (h.own_error != nullptr && before(h.own_error) &&
      (h.timeout == nullptr || AttemptView::Before(h.own_error, h.timeout))) {
    // Its own NCCL error came first: that error is what ended it.
    const CauseClass c = ClassOfErrorText(h.own_error->message);
    if (f->cls != CauseClass::kCudaOom && f->cls != CauseClass::kCollectiveMismatch) {
      f->cls = c;
      f->exit_code_only = false;
      f->what = fmt::format("reported an NCCL error: {}", Headline(h.own_error->message));
      // What ended the process afterwards (the framework's exception, an exit) reports this
      // error again: a consequence, kept as evidence.
      f->echoes = f->lines;
      f->lines.insert(f->lines.begin(), h.own_error);
      f->first = h.own_error;
      f->signal = 0;  // the error ended it; a signal that followed is not its cause
    }
    return;
  }
  if (teardown_kind && h.timeout != nullptr && before(h.timeout)) {
    f->fallout = true;
    f->fallout_what = fmt::format("taken down after its collective timed out ({})",
                                  h.timeout->op.empty() ? std::string("watchdog")
                                                        : fmt::format("SeqNum {} {}",
                                                                      h.timeout->seq, h.timeout->op));
    return;
  }
  if (teardown_kind && h.cascade != nullptr && before(h.cascade)) {
    f->fallout = true;
    f->fallout_what = fmt::format("lost its peer: {}", ClipText(h.cascade->message, 100));
    return;
  }
  if (teardown_kind && h.teardown != nullptr && before(h.teardown)) {
    f->fallout = true;
    f->torn_down = f->signal == 6;
    f->fallout_what = "taken down by PyTorch after an NCCL error";
    return;
  }
  // SIGABRT under PyTorch's "To avoid data inconsistency, we are taking the entire process
  // down." printed without a rank or pid (a c10 line the launcher did not tag): that abort is
  // ProcessGroupNCCL's own after a failed or timed-out collective, not a crash.
  if (f->signal == 6 && h.teardown == nullptr) {
    for (const Incident* i : view.incidents) {
      if (i->kind == IncidentKind::kTeardown && i->rank < 0 && i->pid <= 0 && before(i) &&
          i->evidence.source == death->evidence.source &&
          Contains(i->message, "taking the entire process down")) {
        f->fallout = true;
        f->torn_down = true;
        f->fallout_what = "taken down by PyTorch (SIGABRT) after a collective failed or timed out";
        return;
      }
    }
  }
  if (f->cls == CauseClass::kNcclError || f->cls == CauseClass::kNetwork) {
    // A raised NCCL error whose text says a peer went away.
    for (const Incident* i : f->lines) {
      if (i->kind == IncidentKind::kNcclError && i->cascade) {
        f->fallout = true;
        f->fallout_what = fmt::format("lost its peer: {}", ClipText(i->message, 100));
        return;
      }
    }
  }
}

bool IsOomExit(const Incident* i) { return i->kind == IncidentKind::kExit && i->oom; }

/// Moves `from`'s lines into `into`, in time order; `into` then starts at the earlier first line
/// and is the table's root cause if either was.
void JoinFailure(const RankFailure& from, RankFailure* into) {
  into->lines.insert(into->lines.end(), from.lines.begin(), from.lines.end());
  std::stable_sort(into->lines.begin(), into->lines.end(), &AttemptView::Before);
  if (AttemptView::Before(from.first, into->first)) into->first = from.first;
  into->table_root_cause = into->table_root_cause || from.table_root_cause;
}

/// The failures not joined into another (`joined[n]`), in order.
std::vector<RankFailure> Unjoined(std::vector<RankFailure>* failures,
                                  const std::vector<bool>& joined) {
  std::vector<RankFailure> kept;
  for (size_t n = 0; n < failures->size(); ++n) {
    if (!joined[n]) kept.push_back(std::move((*failures)[n]));
  }
  return kept;
}

/// The kernel's OOM kill of a pid that is no NCCL process of the input (a container's pid seen
/// from the node: `kubectl get events`' OOMKilling, the node's dmesg) at the moment a known
/// rank was OOM-killed (Kubernetes' OOMKilled, a launcher's SIGKILL with an OOM note) is that
/// rank's kill: its lines join that rank's failure instead of naming a second culprit.
void MergeNodeOomKills(const AttemptView& view, std::vector<RankFailure>* groups) {
  auto known_pid = [&](int64_t pid) { return view.LastProcessWithPid(pid) != nullptr; };
  auto kernel_only = [](const RankFailure& g) {
    for (const Incident* i : g.lines) {
      if (!IsOomExit(i) || i->reporter != ExitReporter::kKernel) return false;
    }
    return !g.lines.empty();
  };
  std::vector<bool> merged(groups->size(), false);
  for (size_t n = 0; n < groups->size(); ++n) {
    RankFailure& g = (*groups)[n];
    if (g.rank >= 0 || g.pid <= 0 || known_pid(g.pid) || !kernel_only(g)) continue;
    if (!g.first->time) continue;
    for (size_t m = 0; m < groups->size(); ++m) {
      RankFailure& h = (*groups)[m];
      if (m == n || merged[m] || (h.rank < 0 && !known_pid(h.pid))) continue;
      const auto oom = std::find_if(h.lines.begin(), h.lines.end(), [&](const Incident* i) {
        return IsOomExit(i) && i->reporter != ExitReporter::kKernel && i->time &&
               std::abs(*i->time - *g.first->time) <= kRanklessNearNanos;
      });
      if (oom == h.lines.end()) continue;
      JoinFailure(g, &h);
      merged[n] = true;
      break;
    }
  }
  *groups = Unjoined(groups, merged);
}

/// A failure line that names only its host (nccl-tests' "HOST: Test NCCL failure", PyTorch's
/// exception behind a syslog or journald prefix) is the one NCCL process of the attempt on that
/// host, when there is one; when that process failed already (its own NCCL warning, the
/// launcher's exit line), the line joins that failure instead of naming it a second time.
void SettleHostOnlyFailures(const AttemptView& view, std::vector<RankFailure>* groups) {
  auto pid_of = [&](const RankFailure& g) -> int64_t {
    if (g.pid > 0) return g.pid;
    const ProcessInstance* p = view.ProcessOfRank(g.rank);
    return p != nullptr ? p->pid : -1;
  };
  std::vector<bool> merged(groups->size(), false);
  for (size_t n = 0; n < groups->size(); ++n) {
    RankFailure& f = (*groups)[n];
    if (f.rank >= 0 || f.pid > 0 || f.host.empty()) continue;
    const ProcessInstance* only = view.OnlyProcessOnHost(f.host);
    if (only == nullptr) continue;
    for (size_t m = 0; m < groups->size() && !merged[n]; ++m) {
      RankFailure& g = (*groups)[m];
      if (m == n || merged[m] || pid_of(g) != only->pid) continue;
      JoinFailure(f, &g);
      merged[n] = true;
    }
    if (!merged[n]) {
      f.rank = only->rank;
      f.pid = only->pid;
    }
  }
  *groups = Unjoined(groups, merged);
}

/// Errors that state a condition of the whole node (its driver, its NVSwitch fabric, the NCCL
/// build it runs), not of one rank: every GPU process there fails the same way.
constexpr std::string_view kNodeWideErrors[] = {
    "system not yet initialized",       // Fabric Manager has not set up the NVSwitch fabric
    "driver version is insufficient",   // the host driver is older than the CUDA runtime
    "no kernel image is available",     // the NCCL/framework build lacks this GPU's code
    "named symbol not found",
};

/// A failure whose error is a node-wide condition names where it showed, not where it began:
/// medium confidence at most, and the reasoning says so.
void NoteNodeWideCondition(RankFailure* f) {
  for (const Incident* i : f->lines) {
    for (std::string_view text : {std::string_view(i->message), std::string_view(i->detail)}) {
      for (std::string_view k : kNodeWideErrors) {
        if (text.find(k) == std::string_view::npos) continue;
        f->class_guessed = true;
        if (f->detail.empty()) {
          f->detail = fmt::format("\"{}\" is a condition of the node, not of this rank: every GPU "
                                  "process there fails the same way, and this one is only the "
                                  "first in the input",
                                  k);
        }
        return;
      }
    }
  }
}

/// A traceback printed before PyTorch prefixes lines with `[rankN]:` (a failing
/// init_process_group) names no rank; the launcher's exit lines do. Each rankless, pidless
/// failure at the same moment as ranked ones that are not fallout belongs to one of them: a
/// ranked failure that only knows its exit code takes the exception (in order), and the rankless
/// one is dropped either way so that it is not reported as a second, unidentified culprit.
/// Lines between a rankless error and the exit line of its rank, when the lines have no times.
constexpr uint64_t kRanklessNearLines = 8;
/// The same for mpirun's "The first process to do so was: Process name: [[J,1],R]", which comes
/// after a banner of about ten lines.
constexpr uint64_t kMpirunReportLines = 20;

/// An error raised in Python or by a framework: an exception or an NCCL error.
bool IsRaisedError(const Incident& i) {
  return i.kind == IncidentKind::kNcclError || i.kind == IncidentKind::kException;
}

/// Errors raised in Python (exceptions, NCCL errors) without a rank or pid printed in `from`'s
/// input between its line and `to`'s: more than one, and several processes may have printed
/// them.
int RanklessErrorsBetween(const AttemptView& view, const Evidence& from, const Evidence& to) {
  int n = 0;
  for (const Incident* i : view.incidents) {
    const Evidence& e = i->evidence;
    n += IsRaisedError(*i) && i->rank < 0 && i->pid <= 0 && e.source == from.source &&
                 e.line >= from.line && e.line <= to.line
             ? 1
             : 0;
  }
  return n;
}

/// Whether two raised errors (exceptions, NCCL errors) state the same non-empty error text.
bool SameErrorText(const Incident& a, const Incident& b) {
  const std::string_view ta = TrimWhitespace(a.message), tb = TrimWhitespace(b.message);
  return IsRaisedError(a) && IsRaisedError(b) && !ta.empty() && ta == tb;
}

/// Whether a rank's NCCL watchdog reports the same error as `error` (an exception raised in
/// Python, no rank printed) a few lines later in the same input, with no other rankless error
/// raised in between: "RuntimeError: CUDA error: uncorrectable ECC error encountered", then
/// "[Rank 1] NCCL watchdog thread terminated with exception: CUDA error: uncorrectable ECC error
/// encountered". A CUDA error surfaces in both threads of the process that hit it.
bool RanksWatchdogReportsSameError(const AttemptView& view, const Incident& error) {
  for (const Incident* i : view.incidents) {
    const Evidence& e = error.evidence;
    const Evidence& x = i->evidence;
    if (i->kind != IncidentKind::kNcclError || i->rank < 0 || !i->type.empty() ||
        x.source != e.source || x.line <= e.line || x.line - e.line > kRanklessNearLines) {
      continue;
    }
    if (SameErrorText(error, *i) && RanklessErrorsBetween(view, e, x) <= 1) return true;
  }
  return false;
}

void AbsorbRanklessErrors(const AttemptView& view, std::vector<RankFailure>* failures) {
  auto weak = [](const RankFailure& g) {
    for (const Incident* i : g.lines) {
      if (i->kind != IncidentKind::kExit) return false;
    }
    return g.cls == CauseClass::kPythonException;
  };
  std::vector<RankFailure> kept;
  std::vector<bool> took(failures->size(), false);
  const auto unranked = std::count_if(failures->begin(), failures->end(), [](const RankFailure& f) {
    return f.rank < 0 && !f.fallout && f.first != nullptr;
  });
  for (size_t n = 0; n < failures->size(); ++n) {
    RankFailure& f = (*failures)[n];
    if (f.rank >= 0 || f.fallout || f.first == nullptr) continue;
    // A process known by its pid only (nccl-tests' "HOST pid N: Test failure") is taken only by
    // mpirun's report of the first process that failed, only when it is the one failure without
    // a rank, and only where no time tells otherwise.
    const bool pid_only = f.pid > 0;
    RankFailure* owner = nullptr;
    RankFailure* near = nullptr;
    RankFailure* same = nullptr;
    for (size_t m = 0; m < failures->size(); ++m) {
      RankFailure& g = (*failures)[m];
      if (m == n || (g.rank < 0 && g.pid <= 0) || g.fallout || g.first == nullptr) continue;
      const bool mpirun_report = g.first->kind == IncidentKind::kExit &&
                                 g.first->reporter == ExitReporter::kMpirun && g.rank >= 0;
      if (pid_only && (unranked > 1 || !mpirun_report || !weak(g) || (g.pid > 0 && g.pid != f.pid) ||
                       (!g.host.empty() && !f.host.empty() && g.host != f.host) ||
                       f.first->time || g.first->time)) {
        continue;
      }
      if (f.first->time && g.first->time) {
        if (std::abs(*g.first->time - *f.first->time) > kRanklessNearNanos) continue;
        if (near == nullptr) near = &g;
      } else {
        // Lines without times: the launcher's exit line that closely follows the error in the
        // same input (`accelerate test`: the exception, then torchelastic's "failed (exitcode:
        // 1) local_rank: 0"). Only such an exit takes it; nothing else is assumed to be near.
        const Evidence& e = f.first->evidence;
        const Evidence& x = g.first->evidence;
        // mpirun's report of the first failed process comes after its banner of several lines;
        // over that distance it is taken only by the one failure without a rank.
        const uint64_t window =
            mpirun_report && unranked == 1 ? kMpirunReportLines : kRanklessNearLines;
        if (e.source != x.source || x.line < e.line || x.line - e.line > window) continue;
        // Several processes' errors before one exit line: which one is that rank's is not
        // known.
        if (RanklessErrorsBetween(view, e, x) > 1) continue;
        // The same error text, raised again a few lines on by a ranked line (a CUDA error raised
        // in Python, then "[Rank 1] NCCL watchdog thread terminated with exception: CUDA error:
        // ..." of the same process): that rank's failure, which keeps its own class.
        if (same == nullptr && !took[m] && SameErrorText(*f.first, *g.first)) same = &g;
      }
      if (owner == nullptr && !took[m] && weak(g)) {
        owner = &g;
        took[m] = true;
      }
    }
    if (owner == nullptr && same != nullptr) {
      same->lines.insert(same->lines.begin(), f.lines.begin(), f.lines.end());
      if (AttemptView::Before(f.first, same->first)) same->first = f.first;
    } else if (owner != nullptr) {
      // The error says how the process failed, better than its exit code; unless the error is
      // a guess itself (a failure table's entry cut before its fields).
      if (!f.class_guessed) {
        owner->cls = f.cls;
        owner->what = f.what;
        owner->detail = f.detail;
        owner->exit_code_only = f.exit_code_only;  // the error's class, no longer the exit code's
        owner->class_guessed = false;
      }
      if (owner->host.empty()) owner->host = f.host;
      if (owner->pid <= 0) owner->pid = f.pid;
      owner->lines.insert(owner->lines.begin(), f.lines.begin(), f.lines.end());
      if (AttemptView::Before(f.first, owner->first)) owner->first = f.first;
    }
    // Else a rank's watchdog may report the same error: that rank's NCCL error names the process
    // and is the failure reported, so this copy goes.
    const bool reported_by_watchdog = owner == nullptr && near == nullptr && same == nullptr &&
                                      !f.first->time &&
                                      RanksWatchdogReportsSameError(view, *f.first);
    if (owner != nullptr || near != nullptr || same != nullptr || reported_by_watchdog) {
      f.first = nullptr;  // absorbed
    }
  }
  for (RankFailure& f : *failures) {
    if (f.first != nullptr) kept.push_back(std::move(f));
  }
  *failures = std::move(kept);
}

}  // namespace

/// PyTorch's "[14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d
/// key-value store by key '0', but store->get('0') got error: Connection reset by peer".
bool IsUniqueIdFetchFailure(std::string_view message) {
  return Contains(message, "retrieving ncclUniqueId") && Contains(message, "got error: ");
}

/// The first sentence or two of a long message (the whole one stays in the evidence).
std::string Headline(std::string_view s) {
  constexpr size_t kMax = 160;
  if (s.size() <= kMax) return std::string(s);
  const size_t dot = s.rfind(". ", kMax);
  if (dot != s.npos && dot > 20) return std::string(s.substr(0, dot + 1));
  return ClipText(s, kMax);
}

std::vector<RankFailure> CollectRankFailures(const AttemptView& view) {
  std::map<int64_t, RankFailure> by_key;
  std::vector<int64_t> order;
  for (size_t n = 0; n < view.incidents.size(); ++n) {
    const Incident& i = *view.incidents[n];
    if (!IsOwnFailureLine(i)) continue;
    // A process that printed its own fatal signal without a rank: keep it apart only when no
    // launcher line names its rank.
    const int64_t key = KeyOf(i, n);
    auto [it, fresh] = by_key.try_emplace(key);
    RankFailure& f = it->second;
    if (fresh) {
      order.push_back(key);
      f.rank = i.rank;
      f.first = &i;
    }
    if (f.host.empty()) f.host = i.host;
    if (f.pid <= 0 && i.pid > 0) f.pid = i.pid;
    f.table_root_cause = f.table_root_cause || i.table_root_cause;
    f.lines.push_back(&i);
  }
  std::vector<RankFailure> groups;
  for (int64_t key : order) groups.push_back(std::move(by_key[key]));
  MergeNodeOomKills(view, &groups);
  SettleHostOnlyFailures(view, &groups);
  std::vector<RankFailure> out;
  for (RankFailure& f : groups) {
    if (const ProcessInstance* p = view.ProcessOfRank(f.rank)) {
      if (f.host.empty() || f.host == "localhost") f.host = p->host;
      if (f.pid <= 0) f.pid = p->pid;
    }
    Classify(&f);
    NoteNodeWideCondition(&f);
    JudgeFallout(view, &f);
    out.push_back(std::move(f));
  }
  // Rankless fatal signals ("Fatal Python error" without a prefix) merge into the ranked
  // failure of the same signal when there is one (the launcher named the rank): the dying
  // process's own report is that failure's evidence too.
  std::vector<bool> absorbed(out.size(), false);
  for (size_t n = 0; n < out.size(); ++n) {
    const RankFailure& f = out[n];
    if (f.rank >= 0 || f.pid > 0 || f.signal <= 0) continue;
    for (size_t m = 0; m < out.size() && !absorbed[n]; ++m) {
      RankFailure& g = out[m];
      if (m == n || g.rank < 0 || g.signal != f.signal) continue;
      g.lines.insert(g.lines.end(), f.lines.begin(), f.lines.end());
      std::stable_sort(g.lines.begin(), g.lines.end(), &AttemptView::Before);
      absorbed[n] = true;
    }
  }
  std::vector<RankFailure> merged = Unjoined(&out, absorbed);
  AbsorbRanklessErrors(view, &merged);
  std::stable_sort(merged.begin(), merged.end(), [](const RankFailure& a, const RankFailure& b) {
    return AttemptView::Before(a.first, b.first);
  });
  return merged;
}

CauseClass ClassOfRaisedNcclError(const Incident& error) {
  // The summary ("unhandled system error", "internal error") names a family of codes; the
  // "Last error:" detail, NCCL's own last warning, names what failed.
  if (!error.detail.empty()) {
    const CauseClass detail = ClassOfErrorText(error.detail);
    if (detail != CauseClass::kNcclError) return detail;
  }
  return ClassOfErrorText(error.message);
}

CauseClass ClassOfErrorText(std::string_view text) {
  static constexpr std::string_view kOom[] = {"out of memory", "Failed to CUDA calloc",
                                              "cudaErrorMemoryAllocation"};
  for (std::string_view k : kOom) {
    if (Contains(text, k)) return CauseClass::kCudaOom;
  }
  // A peer sent more data than this rank's operation expects: the ranks disagree on the
  // collective or its size (NET/Socket's "message truncated : receiving N bytes instead of M",
  // whose text says "there may be a mismatch in collective sizes"), not a network failure.
  // Bootstrap's "Message truncated : received" (capital M) stays NCCL's own error: there the two
  // sides may be different jobs or versions as much as different calls.
  static constexpr std::string_view kSizeMismatch[] = {"message truncated",
                                                       "mismatch in collective sizes"};
  for (std::string_view k : kSizeMismatch) {
    if (Contains(text, k)) return CauseClass::kCollectiveMismatch;
  }
  static constexpr std::string_view kNet[] = {
      "Connection refused", "Connection closed", "Connection reset", "connect to",
      "remote process exited", "network error", "NET/IB", "NET/Socket", "NET/OFI",
      "completion with error", "Got completion", "socketPoll", "socketProgress",
      "ibv_", "Bootstrap", "bootstrap", "No route to host", "timed out", "Timeout",
      "Network is unreachable", "NET plugin", "socket", "Socket", "Net : ",
      // bind(): an address not on this host (NCCL_COMM_ID naming another host's address, a
      // container in bridge networking: nccl#331), or a port another job holds.
      "Cannot assign requested address", "Address already in use"};
  for (std::string_view k : kNet) {
    if (Contains(text, k)) return CauseClass::kNetwork;
  }
  return CauseClass::kNcclError;
}

std::string RankText(int rank, const std::string& host, int64_t pid) {
  std::string where;
  if (!host.empty() && pid > 0) {
    where = fmt::format("{} pid {}", host, pid);
  } else if (!host.empty()) {
    where = host;
  } else if (pid > 0) {
    where = fmt::format("pid {}", pid);
  }
  if (rank >= 0) return where.empty() ? fmt::format("rank {}", rank)
                                      : fmt::format("rank {} ({})", rank, where);
  return where.empty() ? std::string("an unidentified process") : where;
}

std::string ShortTime(const Incident& i) {
  if (!i.time_text.empty()) return i.time_text;
  return {};
}

}  // namespace ncclscope::triage_internal
