// DiffRuns: the topic parts in report order; verdict and topic names; --fail-on.
#include "ncclscope/diff/run_diff.h"

#include <algorithm>

#include "diff_parts.h"

namespace ncclscope {

std::string_view DiffVerdictName(DiffVerdict v) {
  switch (v) {
    case DiffVerdict::kInfo:
      return "info";
    case DiffVerdict::kChange:
      return "change";
    case DiffVerdict::kImprovement:
      return "improvement";
    case DiffVerdict::kRegression:
      break;
  }
  return "regression";
}

std::string_view DiffTopicName(DiffTopic t) {
  switch (t) {
    case DiffTopic::kOutcome:
      return "outcome";
    case DiffTopic::kJob:
      return "job";
    case DiffTopic::kVersions:
      return "versions";
    case DiffTopic::kSettings:
      return "settings";
    case DiffTopic::kNetwork:
      return "network";
    case DiffTopic::kCommunicators:
      return "communicators";
    case DiffTopic::kAlgorithms:
      return "algorithms";
    case DiffTopic::kBench:
      return "nccl-tests";
    case DiffTopic::kFindings:
      break;
  }
  return "findings";
}

std::string_view DiffTopicTitle(DiffTopic t) {
  switch (t) {
    case DiffTopic::kOutcome:
      return "Outcome";
    case DiffTopic::kJob:
      return "Job";
    case DiffTopic::kVersions:
      return "Versions";
    case DiffTopic::kSettings:
      return "Settings";
    case DiffTopic::kNetwork:
      return "Network";
    case DiffTopic::kCommunicators:
      return "Communicators";
    case DiffTopic::kAlgorithms:
      return "Algorithms";
    case DiffTopic::kBench:
      return "nccl-tests";
    case DiffTopic::kFindings:
      break;
  }
  return "Findings";
}

int RunDiff::Count(DiffVerdict v) const {
  return static_cast<int>(
      std::count_if(items.begin(), items.end(), [v](const DiffItem& i) { return i.verdict == v; }));
}

RunDiff DiffRuns(const RunSnapshot& before, const RunSnapshot& after, const DiffOptions& options) {
  using namespace diff_internal;
  RunDiff d;
  if (before.nccl_lines > 0 && after.nccl_lines > 0) {
    DiffOutcome(before, after, &d.items);
    DiffJobShape(before, after, &d.items);
    DiffConfiguration(before, after, &d.items);
    DiffCommunicators(before, after, &d.items);
    DiffFindings(before, after, &d.items);
  } else if (before.nccl_lines > 0 || after.nccl_lines > 0) {
    // One run is nccl-tests output alone: its "findings" would only say that NCCL lines are
    // missing. Only the benchmarks compare.
    DiffItem i;
    i.topic = DiffTopic::kJob;
    i.verdict = DiffVerdict::kInfo;
    i.subject = "NCCL log";
    i.before = before.nccl_lines > 0 ? "present" : "none";
    i.after = after.nccl_lines > 0 ? "present" : "none";
    i.note = "only one run holds NCCL debug lines: only nccl-tests results are compared";
    d.items.push_back(std::move(i));
  }
  DiffBench(before, after, options, &d.items);
  // The parts append by topic already, except where a part spans topics (configuration):
  // a stable sort puts every item under its section without reordering within one.
  std::stable_sort(d.items.begin(), d.items.end(),
                   [](const DiffItem& x, const DiffItem& y) { return x.topic < y.topic; });
  return d;
}

std::optional<DiffFailOn> ParseDiffFailOn(std::string_view name) {
  if (name == "regression") return DiffFailOn::kRegression;
  if (name == "change") return DiffFailOn::kChange;
  if (name == "any") return DiffFailOn::kAny;
  if (name == "never") return DiffFailOn::kNever;
  return std::nullopt;
}

std::string_view DiffFailOnName(DiffFailOn f) {
  switch (f) {
    case DiffFailOn::kRegression:
      return "regression";
    case DiffFailOn::kChange:
      return "change";
    case DiffFailOn::kAny:
      return "any";
    case DiffFailOn::kNever:
      break;
  }
  return "never";
}

bool DiffFails(const RunDiff& diff, DiffFailOn fail_on) {
  for (const DiffItem& i : diff.items) {
    switch (fail_on) {
      case DiffFailOn::kRegression:
        if (i.verdict == DiffVerdict::kRegression) return true;
        break;
      case DiffFailOn::kChange:
        if (i.verdict != DiffVerdict::kInfo) return true;
        break;
      case DiffFailOn::kAny:
        return true;
      case DiffFailOn::kNever:
        return false;
    }
  }
  return false;
}

}  // namespace ncclscope
