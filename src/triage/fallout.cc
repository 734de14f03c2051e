#include "ncclscope/triage/fallout.h"

#include <fmt/format.h>

#include <set>
#include <string_view>

#include "ncclscope/model/rank_ranges.h"

namespace ncclscope {
namespace {

/// Rules that describe symptoms: what a failure elsewhere makes the other ranks print.
constexpr std::string_view kSymptomRules[] = {
    "watchdog-timeout", "hang-suspected", "nccl-error",         "connection-error",
    "net-error",        "init-incomplete", "slow-init",         "nccl-warn",
    "rank-inconsistency", "cuda-error",    "shm-failure",       "net-plugin-failed",
    "bootstrap-interface"};

/// Rules that describe a cause when their lines are the cause's own, and a configuration
/// otherwise: never fallout unless their evidence is a consequence.
bool IsSymptomRule(std::string_view rule) {
  for (std::string_view r : kSymptomRules) {
    if (r == rule) return true;
  }
  return false;
}

}  // namespace

std::string CauseLabel(const RootCause& cause) {
  if (cause.cls == CauseClass::kNone) return {};
  std::vector<int> ranks;
  for (const Culprit& c : cause.culprits) {
    if (c.rank >= 0) ranks.push_back(c.rank);
  }
  std::string who = ranks.empty() ? (cause.culprits.empty() || cause.culprits[0].host.empty()
                                         ? std::string("unknown rank")
                                         : cause.culprits[0].host)
                    : ranks.size() == 1 ? fmt::format("rank {}", ranks[0])
                                        : fmt::format("ranks {}", RankRanges(ranks));
  return fmt::format("{} {}", who, CauseClassName(cause.cls));
}

void MarkFallout(const RootCauseReport& report, std::vector<Finding>* findings) {
  const RootCause& cause = report.cause;
  if (cause.cls == CauseClass::kNone || !cause.job_failed) return;
  std::set<std::pair<uint32_t, uint64_t>> own(cause.cause_lines.begin(), cause.cause_lines.end());
  for (const Evidence& e : cause.evidence) own.insert({e.source, e.line});
  for (const auto& line : cause.echo_lines) own.erase(line);
  const std::string label = CauseLabel(cause);
  const bool nccl_cause = cause.cls == CauseClass::kNcclError || cause.cls == CauseClass::kNetwork ||
                          cause.cls == CauseClass::kCudaOom;
  // A stuck rank or a mismatch is read from the others' timeouts: those lines are its evidence
  // and still the waiting ranks' symptoms.
  const bool read_from_timeouts =
      cause.cls == CauseClass::kStuckRank || cause.cls == CauseClass::kCollectiveMismatch;
  for (Finding& f : *findings) {
    if (!IsSymptomRule(f.rule)) continue;
    bool is_cause = false;
    for (const Evidence& e : f.evidence) is_cause = is_cause || own.count({e.source, e.line}) > 0;
    if (read_from_timeouts && (f.rule == "watchdog-timeout" || f.rule == "hang-suspected")) {
      is_cause = false;
    }
    if (is_cause) continue;
    // A cause that is an NCCL error of its own: the rules that explain such errors (shm, plugin,
    // interface, CUDA) describe the cause itself, not a consequence.
    if (nccl_cause && (f.rule == "shm-failure" || f.rule == "net-plugin-failed" ||
                       f.rule == "bootstrap-interface" || f.rule == "cuda-error" ||
                       f.rule == "net-error" || f.rule == "connection-error")) {
      continue;
    }
    if (!nccl_cause && (f.rule == "shm-failure" || f.rule == "net-plugin-failed" ||
                        f.rule == "bootstrap-interface")) {
      continue;  // configuration problems stand on their own
    }
    f.caused_by = label;
  }
}

}  // namespace ncclscope
