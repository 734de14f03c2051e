// The first errors of a job in the order they happened: NCCL WARN records, error trails,
// framework errors and watchdog timeouts, ordered by their timestamps where the lines carry one
// (kubectl --timestamps, NCCL 2.26+ `[2026-11-21 13:43:25]`, PyTorch c10 `[E1121 13:39:41.72]`),
// else by input order.
#ifndef NCCLSCOPE_MODEL_TIMELINE_H_
#define NCCLSCOPE_MODEL_TIMELINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/model/job.h"

namespace ncclscope {

/// One error line of the timeline.
struct TimelineEntry {
  std::string host;  ///< Hostname of the printing process, "" when unknown.
  int rank = -1;     ///< Global rank, -1 when unknown.
  std::string time;  ///< Timestamp as printed, "" when the line has none.
  uint32_t source = 0;
  uint64_t line = 0;
  std::string text;
  std::string kind;      ///< "nccl-warn", "error-trail", "framework-error", "watchdog-timeout"
  bool cascade = false;  ///< A consequence of another failure (peer exited, connection closed).
  int64_t key = 0;       ///< Comparable time (see ParseTimeKey); inherited when no timestamp.
};

/// Comparable key of a timestamp in nanoseconds since 1 January (the year and the time zone are
/// ignored, so that year-less c10 stamps compare with NCCL's): "2026-11-21 13:43:25[.frac]",
/// RFC3339 "2026-11-21T13:43:25.123Z", c10/glog "1121 13:39:41.727410739". nullopt otherwise.
std::optional<int64_t> ParseTimeKey(std::string_view text);

/// True for messages that follow a failure elsewhere ("remote process exited", "Connection
/// closed", ...): they sort after a root cause with the same time.
bool IsCascadeMessage(std::string_view text);

/// Whether a warning record belongs on the timeline (callers pass the rules' noise filter).
using WarningFilter = bool (*)(const WarnRecord&);

/// Every kept error line, ordered: by time key (lines without a timestamp take the key of the
/// previous entry of the same input), root causes before cascades, then input order.
std::vector<TimelineEntry> BuildTimeline(const Job& job, WarningFilter keep_warning);

/// Index of the first entry that is not a cascade (0 if all are; -1 if empty).
int FirstFailure(const std::vector<TimelineEntry>& timeline);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_TIMELINE_H_
