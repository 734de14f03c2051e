// How the two runs ended, from their root causes (docs/triage.md): a job that failed where it
// had not is a regression, and so is a restart attempt that failed where none had (the job
// recovered, but a rank died); another root cause of a failure is a change.
#include <fmt/format.h>

#include <algorithm>

#include "diff_parts.h"

namespace ncclscope::diff_internal {
namespace {

int FailedAttempts(const RunSnapshot& r) {
  return static_cast<int>(std::count_if(r.attempts.begin(), r.attempts.end(),
                                        [](const OutcomeSnapshot& o) { return o.failed; }));
}

/// The last attempt decides whether the job failed in the end.
const OutcomeSnapshot& Final(const RunSnapshot& r) {
  return r.attempts.empty() ? r.outcome : r.attempts.back();
}

/// "rank 1 process-killed", "ranks 0,1 crash-signal", "pid 4242 process-killed".
std::string CauseText(const OutcomeSnapshot& o) {
  if (o.cls.empty() || o.cls == "none") return "none";
  std::vector<int> ranks;
  for (int r : o.ranks) {
    if (r >= 0) ranks.push_back(r);
  }
  std::string who;
  if (ranks.size() == o.ranks.size() && !ranks.empty()) {
    who = (ranks.size() == 1 ? "rank " : "ranks ") + RankSetText(ranks);
  } else {
    who = o.who.empty() ? std::string("an unknown rank") : o.who;
  }
  return who + " " + o.cls;
}

std::string EndText(const OutcomeSnapshot& o) {
  if (o.failed) return "failed: " + CauseText(o);
  if (o.cls.empty() || o.cls == "none") return "completed";
  return "completed (" + CauseText(o) + ")";
}

/// "rank 1 (vm pid 530) was killed by SIGKILL (signal 9)".
std::string Sentence(const OutcomeSnapshot& o) {
  if (o.what.empty()) return {};
  return (o.who.empty() ? std::string("a process") : o.who) + " " + o.what;
}

/// The failed attempts in a line: "attempt 1: rank 1 (vm pid 530) was killed by SIGKILL".
std::string FailedAttemptsText(const RunSnapshot& r) {
  std::string out;
  for (size_t n = 0; n < r.attempts.size(); ++n) {
    if (!r.attempts[n].failed) continue;
    out += fmt::format("{}attempt {}: {}", out.empty() ? "" : "; ", n + 1,
                       Sentence(r.attempts[n]).empty() ? CauseText(r.attempts[n])
                                                       : Sentence(r.attempts[n]));
  }
  return out;
}

DiffItem JobItem(DiffVerdict verdict, std::string aspect, std::string before, std::string after,
                 std::string note) {
  DiffItem i;
  i.topic = DiffTopic::kOutcome;
  i.verdict = verdict;
  i.subject = "job";
  i.aspect = std::move(aspect);
  i.before = std::move(before);
  i.after = std::move(after);
  i.note = std::move(note);
  return i;
}

}  // namespace

void DiffOutcome(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  if (!a.has_root_cause || !b.has_root_cause) {
    if (a.has_root_cause || b.has_root_cause) {
      out->push_back(JobItem(DiffVerdict::kInfo, "outcome",
                             a.has_root_cause ? EndText(Final(a)) : "",
                             b.has_root_cause ? EndText(Final(b)) : "",
                             fmt::format("{}'s report was written before the root cause: how the "
                                         "runs ended is not compared",
                                         a.has_root_cause ? "AFTER" : "BEFORE")));
    }
    return;
  }
  const OutcomeSnapshot& fa = Final(a);
  const OutcomeSnapshot& fb = Final(b);
  const int failed_a = FailedAttempts(a), failed_b = FailedAttempts(b);
  if (fa.failed != fb.failed) {
    const OutcomeSnapshot& failed = fb.failed ? fb : fa;
    out->push_back(JobItem(fb.failed ? DiffVerdict::kRegression : DiffVerdict::kImprovement,
                           "outcome", EndText(fa), EndText(fb), Sentence(failed)));
  } else if (fa.failed && (fa.cls != fb.cls || fa.ranks != fb.ranks)) {
    out->push_back(JobItem(DiffVerdict::kChange, "root cause", CauseText(fa), CauseText(fb),
                           Sentence(fb)));
  } else if (!fa.failed && fa.cls != fb.cls) {
    // A cause that did not fail the job (a late start that only slowed init).
    out->push_back(JobItem(DiffVerdict::kChange, "root cause", CauseText(fa), CauseText(fb),
                           Sentence(fb.cls == "none" ? fa : fb)));
  }
  // Restarts: a failed attempt is a rank that died, also when the restart then completed.
  const std::string attempts_a = fmt::format("{} of {}", failed_a, a.attempts.size());
  const std::string attempts_b = fmt::format("{} of {}", failed_b, b.attempts.size());
  if (failed_a != failed_b && fa.failed == fb.failed) {
    out->push_back(JobItem(failed_b > failed_a ? DiffVerdict::kRegression
                                               : DiffVerdict::kImprovement,
                           "failed attempts", attempts_a, attempts_b,
                           FailedAttemptsText(failed_b > failed_a ? b : a)));
  } else if (a.attempts.size() != b.attempts.size()) {
    out->push_back(JobItem(DiffVerdict::kChange, "failed attempts", attempts_a, attempts_b,
                           FailedAttemptsText(b)));
  }
}

}  // namespace ncclscope::diff_internal
