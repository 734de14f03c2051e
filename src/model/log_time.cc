#include "ncclscope/model/log_time.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <string>

namespace ncclscope {
namespace {

constexpr int64_t kNanos = 1000000000;
constexpr int64_t kDay = 86400 * kNanos;

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/// "HH:MM:SS[.,frac]" at s[pos]; fills nanos and fraction digits; returns false if absent.
bool ClockAt(std::string_view s, size_t pos, LogTime* t) {
  int h = 0, m = 0, sec = 0;
  if (!Digits(s, pos, 2, &h) || pos + 2 >= s.size() || s[pos + 2] != ':' ||
      !Digits(s, pos + 3, 2, &m) || pos + 5 >= s.size() || s[pos + 5] != ':' ||
      !Digits(s, pos + 6, 2, &sec)) {
    return false;
  }
  if (h > 23 || m > 59 || sec > 60) return false;
  int64_t ns = (int64_t{h} * 3600 + m * 60 + sec) * kNanos;
  size_t i = pos + 8;
  int digits = 0;
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') &&
      std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
    int64_t scale = kNanos / 10;
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      if (digits < 9) ns += (s[i] - '0') * scale;
      scale /= 10;
      ++digits;
    }
  }
  t->nanos = ns;
  t->fraction_digits = digits > 9 ? 9 : digits;
  return true;
}

bool ValidDate(int month, int day) { return month >= 1 && month <= 12 && day >= 1 && day <= 31; }

constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/// Civil date of days since 1970-01-01 (Howard Hinnant's algorithm).
void CivilFromDays(int64_t z, int* y, int* m, int* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = static_cast<int>(yoe + era * 400 + (*m <= 2 ? 1 : 0));
}

}  // namespace

int64_t LogTime::Key() const { return (int64_t{month - 1} * 31 + (day - 1)) * kDay + nanos; }

namespace {

/// Appends `v` with at least `width` characters, zero-padded after its sign: fmt's "{:0N}".
void AppendPadded(std::string* out, int64_t v, int width) {
  if (v < 0) {  // Not from ParseLogTime, whose fields are never negative; fmt's spelling anyway.
    out->push_back('-');
    --width;
    v = -v;
  }
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  const int n = static_cast<int>(r.ptr - buf);
  if (n < width) out->append(static_cast<size_t>(width - n), '0');
  out->append(buf, r.ptr);
}

}  // namespace

std::string LogTime::Format() const {
  // Formatted by hand: the triage formats the time of every incident it keeps (thousands in a
  // failed job of thousands of ranks), and this is several times cheaper than fmt.
  const int64_t secs = nanos / kNanos;
  std::string out;
  out.reserve(32);
  if (has_date()) {
    if (year > 0) {
      AppendPadded(&out, year, 4);
      out.push_back('-');
    }
    AppendPadded(&out, month, 2);
    out.push_back('-');
    AppendPadded(&out, day, 2);
    out.push_back(' ');
  }
  AppendPadded(&out, secs / 3600, 2);
  out.push_back(':');
  AppendPadded(&out, secs / 60 % 60, 2);
  out.push_back(':');
  AppendPadded(&out, secs % 60, 2);
  if (fraction_digits > 0) {
    const int digits = fraction_digits < 3 ? fraction_digits : 3;
    int64_t frac = nanos % kNanos;
    for (int i = digits; i < 9; ++i) frac /= 10;
    out.push_back('.');
    AppendPadded(&out, frac, digits);
  }
  return out;
}

std::optional<LogTime> ParseLogTime(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '[')) s.remove_prefix(1);
  LogTime t;
  int year = 0, month = 0, day = 0;
  // ISO: 2026-11-21 13:43:25, 2026-11-21T13:43:25.123Z, torchelastic 2026-11-23_09:26:08.
  if (Digits(s, 0, 4, &year) && s.size() > 10 && s[4] == '-' && Digits(s, 5, 2, &month) &&
      s[7] == '-' && Digits(s, 8, 2, &day) && (s[10] == ' ' || s[10] == 'T' || s[10] == '_')) {
    if (!ValidDate(month, day) || !ClockAt(s, 11, &t)) return std::nullopt;
    t.year = year;
    t.month = month;
    t.day = day;
    return t;
  }
  // vLLM's logger: MM-DD HH:MM:SS[.frac]
  if (Digits(s, 0, 2, &month) && s.size() > 6 && s[2] == '-' && Digits(s, 3, 2, &day) &&
      s[5] == ' ') {
    if (!ValidDate(month, day) || !ClockAt(s, 6, &t)) return std::nullopt;
    t.month = month;
    t.day = day;
    return t;
  }
  // c10/glog: [E]MMDD HH:MM:SS.frac
  std::string_view g = s;
  if (g.size() > 1 && std::isalpha(static_cast<unsigned char>(g[0])) &&
      std::isdigit(static_cast<unsigned char>(g[1]))) {
    g.remove_prefix(1);
  }
  if (Digits(g, 0, 2, &month) && Digits(g, 2, 2, &day) && g.size() > 4 && g[4] == ' ') {
    if (!ValidDate(month, day) || !ClockAt(g, 5, &t)) return std::nullopt;
    t.month = month;
    t.day = day;
    return t;
  }
  // c10 does not pad the month: "E909 09:55:29.34" is September 9.
  if (Digits(g, 0, 1, &month) && Digits(g, 1, 2, &day) && g.size() > 3 && g[3] == ' ') {
    if (!ValidDate(month, day) || !ClockAt(g, 4, &t)) return std::nullopt;
    t.month = month;
    t.day = day;
    return t;
  }
  // ctime (dmesg -T, `date`): "Mon Nov 23 11:39:07 2026".
  static constexpr std::string_view kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  for (std::string_view d : kDays) {
    if (s.size() > 4 && s.substr(0, 3) == d && s[3] == ' ') {
      std::optional<LogTime> rest = ParseLogTime(s.substr(4));
      if (!rest || rest->year != 0 || !rest->has_date()) return std::nullopt;
      // The year after the clock: "... 11:39:07 2026".
      const size_t clock = s.find(':');
      if (clock != std::string_view::npos && clock + 7 < s.size()) {
        size_t y = clock + 6;
        while (y < s.size() && s[y] != ' ') ++y;
        int year = 0;
        if (Digits(s, y + 1, 4, &year)) rest->year = year;
      }
      return rest;
    }
  }
  // syslog: "Nov 22 10:00:01" (day may be space-padded: "Nov  2").
  for (size_t i = 0; i < std::size(kMonths); ++i) {
    if (s.size() < 15 || s.substr(0, 3) != kMonths[i] || s[3] != ' ') continue;
    std::string_view r = s.substr(4);
    if (!r.empty() && r.front() == ' ') r.remove_prefix(1);
    size_t n = 0;
    day = 0;
    while (n < r.size() && n < 2 && std::isdigit(static_cast<unsigned char>(r[n]))) {
      day = day * 10 + (r[n] - '0');
      ++n;
    }
    if (n == 0 || n >= r.size() || r[n] != ' ' || !ValidDate(static_cast<int>(i) + 1, day) ||
        !ClockAt(r, n + 1, &t)) {
      return std::nullopt;
    }
    t.month = static_cast<int>(i) + 1;
    t.day = day;
    return t;
  }
  // Epoch seconds (NCCL_DEBUG_TIMESTAMP_FORMAT="[%s.%Ls] "): ten digits, optional fraction.
  int64_t epoch = 0;
  size_t n = 0;
  while (n < s.size() && n < 11 && std::isdigit(static_cast<unsigned char>(s[n]))) {
    epoch = epoch * 10 + (s[n] - '0');
    ++n;
  }
  if (n == 10 && (n == s.size() || s[n] == '.' || s[n] == ' ' || s[n] == ']')) {
    int y = 0, m = 0, d = 0;
    CivilFromDays(epoch / 86400, &y, &m, &d);
    t.year = y;
    t.month = m;
    t.day = d;
    t.nanos = (epoch % 86400) * kNanos;
    if (n + 1 < s.size() && s[n] == '.') {
      int64_t scale = kNanos / 10;
      int digits = 0;
      for (size_t i = n + 1; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
        if (digits < 9) t.nanos += (s[i] - '0') * scale;
        scale /= 10;
        ++digits;
      }
      t.fraction_digits = digits > 9 ? 9 : digits;
    }
    return t;
  }
  // Time only (NCCL_DEBUG_TIMESTAMP_FORMAT="[%T] "): HH:MM:SS[.frac].
  if (ClockAt(s, 0, &t)) return t;
  return std::nullopt;
}

int64_t KeyWithDate(const LogTime& time, const LogTime& date) {
  LogTime t = time;
  t.year = date.year;
  t.month = date.month;
  t.day = date.day;
  return t.Key();
}

std::string FormatDelta(int64_t from_key, int64_t to_key) {
  const int64_t d = to_key - from_key;
  const int64_t ms = (d < 0 ? -d : d) / 1000000;
  return fmt::format("{}{}.{:03} s", d < 0 ? "-" : "+", ms / 1000, ms % 1000);
}

}  // namespace ncclscope
