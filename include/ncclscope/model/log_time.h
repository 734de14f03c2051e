// Timestamps of log lines in the formats distributed jobs print, normalised so that lines from
// different printers can be ordered: ISO 8601 / RFC 3339 (kubectl --timestamps, CloudWatch),
// NCCL's `[2026-11-21 13:43:25]` and NCCL_DEBUG_TIMESTAMP_FORMAT variants (fractions, `%s` epoch
// seconds, time only), c10/glog `E1121 13:39:41.727410739` (no year), torchelastic's
// `2026-11-23_09:26:08`, Python logging `2024-05-01 10:00:00,123` and syslog `Nov 22 10:00:01`.
//
// The key ignores the year and the time zone: year-less stamps (glog, c10, syslog) then compare
// with dated ones, at the price of misordering across a new year and across printers whose
// clocks are in different zones (kubectl's UTC `Z` against a node's local time).
#ifndef NCCLSCOPE_MODEL_LOG_TIME_H_
#define NCCLSCOPE_MODEL_LOG_TIME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ncclscope {

struct LogTime {
  int year = 0;   ///< 0 when the format has none.
  int month = 0;  ///< 1-12; 0 when the format has no date (time only).
  int day = 0;
  int64_t nanos = 0;  ///< Since midnight.
  int fraction_digits = 0;  ///< Digits after the seconds as printed (0-9).

  bool has_date() const { return month > 0; }
  /// Comparable key in nanoseconds: (month, day, time); the year is ignored. Requires a date.
  int64_t Key() const;
  /// "2026-11-23 09:26:08.661" (year, when known, and up to milliseconds as printed).
  std::string Format() const;
};

/// Parses a timestamp at the start of `text` (leading blanks and '[' ignored); nullopt if none.
std::optional<LogTime> ParseLogTime(std::string_view text);

/// A key from a time of day and a date taken from another stamp (for time-only formats).
int64_t KeyWithDate(const LogTime& time, const LogTime& date);

/// Seconds with milliseconds between two keys, signed: "+1.250 s".
std::string FormatDelta(int64_t from_key, int64_t to_key);

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_LOG_TIME_H_
