// nccl-tests runs compared: peak and average bus bandwidth beyond a tolerance, wrong results,
// errors. Runs are matched by test name and rank count, in file order.
#include <fmt/format.h>

#include <cmath>

#include "diff_parts.h"

namespace ncclscope::diff_internal {
namespace {

std::string Subject(const BenchSnapshot& t) {
  return fmt::format("{} ({} ranks)", t.name.empty() ? "nccl-tests" : t.name, t.ranks);
}

DiffItem Item(const BenchSnapshot& t, const char* aspect, DiffVerdict verdict, std::string before,
              std::string after, std::string note = {}) {
  DiffItem i;
  i.topic = DiffTopic::kBench;
  i.verdict = verdict;
  i.subject = Subject(t);
  i.aspect = aspect;
  i.before = std::move(before);
  i.after = std::move(after);
  i.note = std::move(note);
  return i;
}

/// One item when the bandwidth moved by more than the tolerance.
void CompareBusbw(const BenchSnapshot& b, const char* aspect, double x, double y, double tolerance,
                  std::vector<DiffItem>* out) {
  if (x <= 0 && y <= 0) return;
  const double rel = x > 0 ? (y - x) / x : 1.0;
  if (std::fabs(rel) <= tolerance) return;
  out->push_back(Item(b, aspect, rel < 0 ? DiffVerdict::kRegression : DiffVerdict::kImprovement,
                      fmt::format("{:.2f} GB/s", x), fmt::format("{:.2f} GB/s", y),
                      fmt::format("{:+.0f} %", rel * 100)));
}

void CompareRuns(const BenchSnapshot& a, const BenchSnapshot& b, const DiffOptions& o,
                 std::vector<DiffItem>* out) {
  CompareBusbw(b, "peak busbw", a.peak_busbw_gbps, b.peak_busbw_gbps, o.busbw_tolerance, out);
  if (a.avg_busbw_gbps && b.avg_busbw_gbps)
    CompareBusbw(b, "average busbw", *a.avg_busbw_gbps, *b.avg_busbw_gbps, o.busbw_tolerance, out);
  if ((a.wrong_total > 0) != (b.wrong_total > 0)) {
    out->push_back(Item(b, "#wrong",
                        b.wrong_total > 0 ? DiffVerdict::kRegression : DiffVerdict::kImprovement,
                        fmt::format("{:g}", a.wrong_total), fmt::format("{:g}", b.wrong_total),
                        "wrong results (nccl-tests -c 1 validation)"));
  }
  if (a.errors.empty() != b.errors.empty()) {
    const auto& errs = b.errors.empty() ? a.errors : b.errors;
    out->push_back(
        Item(b, "errors", b.errors.empty() ? DiffVerdict::kImprovement : DiffVerdict::kRegression,
             std::to_string(a.errors.size()), std::to_string(b.errors.size()), errs.front()));
  }
}

}  // namespace

void DiffBench(const RunSnapshot& a, const RunSnapshot& b, const DiffOptions& options,
               std::vector<DiffItem>* out) {
  std::vector<bool> used(b.bench.size(), false);
  for (const BenchSnapshot& ta : a.bench) {
    bool matched = false;
    for (size_t j = 0; j < b.bench.size() && !matched; ++j) {
      if (used[j] || b.bench[j].name != ta.name || b.bench[j].ranks != ta.ranks) continue;
      used[j] = matched = true;
      CompareRuns(ta, b.bench[j], options, out);
    }
    if (!matched) {
      out->push_back(Item(ta, "run", DiffVerdict::kInfo,
                          fmt::format("peak busbw {:.2f} GB/s", ta.peak_busbw_gbps), "",
                          "only in BEFORE (" + ta.source + ")"));
    }
  }
  for (size_t j = 0; j < b.bench.size(); ++j) {
    if (used[j]) continue;
    const BenchSnapshot& tb = b.bench[j];
    out->push_back(Item(tb, "run", DiffVerdict::kInfo, "",
                        fmt::format("peak busbw {:.2f} GB/s", tb.peak_busbw_gbps),
                        "only in AFTER (" + tb.source + ")"));
  }
}

}  // namespace ncclscope::diff_internal
