// Python loggers' heads in front of framework messages: vLLM's `ERROR 08-05 14:13:44
// [multiproc_executor.py:487] ` (and its older `... ray_utils.py:45] `), DeepSpeed's
// `[2024-11-16 18:21:12,211] [INFO] [utils.py:781:see_memory_usage] `, Hugging Face's
// `[INFO|trainer.py:123] 2024-01-02 03:04:05,678 >> `, loguru's `2024-01-01 12:00:00.123 |
// ERROR    | train:main:42 - `, logging's `2024-01-01 12:00:00,123 - root - ERROR - `, and a level
// word behind a timestamp another prefix already took (`2024-01-01T12:00:00Z ERROR `).
// PyTorch's exceptions and watchdog messages behind such a head are read like bare ones.
#include <string_view>

#include "prefix_internal.h"

namespace ncclscope::prefix_internal {
namespace {

/// Length of a logging level word at s[k...] (`DEBUG`, `INFO`, `WARNING`, `WARN`, `ERROR`,
/// `CRITICAL`, `FATAL`), or 0.
size_t LevelLength(std::string_view s, size_t k) {
  static constexpr std::string_view kLevels[] = {"WARNING", "CRITICAL", "DEBUG", "ERROR",
                                                 "FATAL",   "INFO",     "WARN"};
  if (k >= s.size()) return 0;
  const char c = s[k];
  if (c != 'W' && c != 'C' && c != 'D' && c != 'E' && c != 'F' && c != 'I') return 0;
  for (std::string_view level : kLevels) {
    if (s.substr(k, level.size()) == level) {
      const size_t end = k + level.size();
      if (end < s.size() && IsAlpha(s[end])) return 0;  // a word that only starts alike
      return level.size();
    }
  }
  return 0;
}

/// Length of `YYYY-MM-DD HH:MM:SS[.frac]` at s[k...], or 0.
size_t DateClockLength(std::string_view s, size_t k) {
  if (!Digits(s, k, 4) || k + 11 > s.size() || s[k + 4] != '-' || !Digits(s, k + 5, 2) ||
      s[k + 7] != '-' || !Digits(s, k + 8, 2) || s[k + 10] != ' ') {
    return 0;
  }
  const size_t clock = ClockLength(s, k + 11);
  return clock == 0 ? 0 : 11 + clock;
}

bool IsSourceChar(char c) {
  return IsAlpha(c) || IsDigit(c) || c == '_' || c == '.' || c == '/' || c == '-';
}

/// Length of a source location `name.py:N` at s[k...] (`N` digits), or 0; with `func`, also
/// DeepSpeed's `:function` after the line number.
size_t PySourceLength(std::string_view s, size_t k, bool func) {
  size_t e = k;
  while (e < s.size() && e - k < 128 && IsSourceChar(s[e])) ++e;
  if (e - k < 4 || s.substr(e - 3, 3) != ".py" || e >= s.size() || s[e] != ':') return 0;
  size_t d = e + 1;
  while (d < s.size() && IsDigit(s[d])) ++d;
  if (d == e + 1) return 0;
  if (func && d < s.size() && s[d] == ':') {
    size_t f = d + 1;
    while (f < s.size() && f - d < 128 &&
           (IsAlpha(s[f]) || IsDigit(s[f]) || s[f] == '_' || s[f] == '<' || s[f] == '>')) {
      ++f;
    }
    d = f;
  }
  return d - k;
}

/// True if `s` holds no blank (a logger's name, loguru's `module:function:line`).
bool OneToken(std::string_view s) { return s.find(' ') == std::string_view::npos; }

/// Blanks at s[k...]: their count.
size_t Blanks(std::string_view s, size_t k) {
  size_t e = k;
  while (e < s.size() && s[e] == ' ') ++e;
  return e - k;
}

/// `LEVEL MM-DD HH:MM:SS[.frac] [name.py:N] ` or `... name.py:N] ` (vLLM).
size_t MatchVllmHead(std::string_view s, LineMeta* meta) {
  const size_t level = LevelLength(s, 0);
  if (level == 0 || level + 1 >= s.size() || s[level] != ' ') return 0;
  const size_t date = level + 1;
  if (!Digits(s, date, 2) || date + 6 > s.size() || s[date + 2] != '-' || !Digits(s, date + 3, 2) ||
      s[date + 5] != ' ') {
    return 0;
  }
  const size_t clock = ClockLength(s, date + 6);
  if (clock == 0) return 0;
  size_t k = date + 6 + clock;
  if (k >= s.size() || s[k] != ' ') return 0;
  ++k;
  const bool bracket = k < s.size() && s[k] == '[';
  if (bracket) ++k;
  const size_t src = PySourceLength(s, k, /*func=*/false);
  if (src == 0) return 0;
  k += src;
  if (k + 1 > s.size() || s[k] != ']') return 0;
  ++k;
  if (k < s.size() && s[k] != ' ') return 0;
  SetView(&meta->timestamp, s.substr(date, 6 + clock));
  return k < s.size() ? k + 1 : k;
}

/// A level word (and `- ` or `| ` after it) behind a timestamp an earlier prefix of this line
/// took: `2024-01-01T12:00:00Z ERROR ...`.
size_t MatchLevelAfterTime(std::string_view s, const LineMeta& meta) {
  if (meta.timestamp.empty()) return 0;
  const size_t level = LevelLength(s, 0);
  if (level == 0 || level >= s.size() || s[level] != ' ') return 0;
  size_t k = level + Blanks(s, level);
  if (k + 1 < s.size() && (s[k] == '-' || s[k] == '|') && s[k + 1] == ' ') k += 2;
  return k < s.size() ? k : 0;  // something must follow
}

/// loguru `DATE CLOCK | LEVEL    | name:function:N - ` and logging's
/// `DATE CLOCK - name - LEVEL - `.
size_t MatchDatedLoggerHead(std::string_view s, LineMeta* meta) {
  const size_t time = DateClockLength(s, 0);
  if (time == 0 || time + 3 >= s.size() || s[time] != ' ') return 0;
  const char sep = s[time + 1];
  if ((sep != '|' && sep != '-') || s[time + 2] != ' ') return 0;
  size_t k = time + 3;
  if (sep == '|') {
    const size_t level = LevelLength(s, k);
    if (level == 0) return 0;
    k += level;
    k += Blanks(s, k);
    if (s.substr(k, 2) != "| ") return 0;
    k += 2;
    const size_t end = s.find(" - ", k);
    if (end == std::string_view::npos || end - k > 160 || !OneToken(s.substr(k, end - k))) {
      return 0;  // `module:function:line`
    }
    k = end + 3;
  } else {
    const size_t name_end = s.find(" - ", k);
    if (name_end == std::string_view::npos || name_end - k > 96 ||
        !OneToken(s.substr(k, name_end - k))) {
      return 0;  // a logger's name
    }
    k = name_end + 3;
    const size_t level = LevelLength(s, k);
    if (level == 0 || s.substr(k + level, 3) != " - ") return 0;
    k += level + 3;
  }
  SetView(&meta->timestamp, s.substr(0, time));
  return k < s.size() ? k : 0;
}

}  // namespace

size_t MatchLoggerHead(std::string_view s, LineMeta* meta) {
  if (s.empty()) return 0;
  if (IsDigit(s[0])) return MatchDatedLoggerHead(s, meta);
  if (IsAlpha(s[0])) {
    if (size_t n = MatchVllmHead(s, meta)) return n;
    return MatchLevelAfterTime(s, *meta);
  }
  if (s[0] != '[' || s.size() < 12) return 0;
  if (IsDigit(s[1])) {
    // DeepSpeed: `[DATE CLOCK] [LEVEL] [name.py:N:function] `, `[DATE CLOCK] LEVEL - `.
    const size_t time = DateClockLength(s, 1);
    if (time == 0 || 1 + time + 2 >= s.size() || s[1 + time] != ']' || s[2 + time] != ' ') {
      return 0;
    }
    size_t k = 3 + time;
    if (s[k] == '[') {
      const size_t level = LevelLength(s, k + 1);
      if (level == 0 || s.substr(k + 1 + level, 2) != "] ") return 0;
      k += level + 3;
      if (k < s.size() && s[k] == '[') {
        const size_t src = PySourceLength(s, k + 1, /*func=*/true);
        if (src == 0 || s.substr(k + 1 + src, 1) != "]") return 0;
        k += src + 2;
        if (k < s.size() && s[k] == ' ') ++k;
      }
    } else {
      const size_t level = LevelLength(s, k);
      if (level == 0 || s.substr(k + level, 3) != " - ") return 0;
      k += level + 3;
    }
    if (k >= s.size()) return 0;
    SetView(&meta->timestamp, s.substr(1, time));
    return k;
  }
  // Hugging Face: `[LEVEL|name.py:N] DATE CLOCK >> `.
  const size_t level = LevelLength(s, 1);
  if (level == 0 || 1 + level >= s.size() || s[1 + level] != '|') return 0;
  size_t k = 2 + level;
  const size_t src = PySourceLength(s, k, /*func=*/false);
  if (src == 0 || s.substr(k + src, 2) != "] ") return 0;
  k += src + 2;
  const size_t time = DateClockLength(s, k);
  if (time == 0 || s.substr(k + time, 4) != " >> ") return 0;
  SetView(&meta->timestamp, s.substr(k, time));
  k += time + 4;
  return k < s.size() ? k : 0;
}

}  // namespace ncclscope::prefix_internal
