// Prefixes that start with a timestamp: kubectl --timestamps and GitHub Actions (RFC 3339 and a
// space), CloudWatch exports (`TIME | `), GitLab job logs (`TIME 00O+ `), Loki logcli
// (`TIME {labels} `), and syslog / journald short lines (`Nov 22 10:00:01 HOST IDENT[PID]: `).
#include <string_view>

#include "prefix_internal.h"

namespace ncclscope::prefix_internal {
namespace {

/// GitLab's raw job log marks each line after its timestamp with a stream number, O (stdout) or E
/// (stderr) and '+' for a continued line: `00O `, `01E+ `. Returns its length with the blank.
size_t GitLabStreamLength(std::string_view s, size_t k) {
  if (k + 4 > s.size() || !IsHex(s[k]) || !IsHex(s[k + 1]) || (s[k + 2] != 'O' && s[k + 2] != 'E'))
    return 0;
  size_t e = k + 3;
  if (s[e] == '+') ++e;
  if (e >= s.size() || s[e] != ' ') return 0;
  return e + 1 - k;
}

/// Loki logcli prints the stream's labels after the time: `{container="c", pod="p"} `. Returns
/// the length with the blank; a `pod` label becomes the line's pod.
size_t LokiLabelsLength(std::string_view s, size_t k, LineMeta* meta) {
  if (k >= s.size() || s[k] != '{') return 0;
  const size_t limit = s.size() - k < 2048 ? s.size() : k + 2048;
  size_t i = k + 1;
  std::string_view pod;
  bool in_string = false;
  size_t key_start = i;
  for (; i < limit; ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      const std::string_view key = s.substr(key_start, i - key_start);
      if ((key == "pod=" || key == "pod_name=") && pod.empty()) {
        const size_t end = s.find('"', i + 1);
        if (end != std::string_view::npos && end < limit) pod = s.substr(i + 1, end - i - 1);
      }
    } else if (c == ',' || c == ' ') {
      key_start = i + 1;
    } else if (c == '}') {
      break;
    }
  }
  if (i >= limit || s[i] != '}' || i + 1 >= s.size() || s[i + 1] != ' ') return 0;
  if (!pod.empty()) SetView(&meta->pod, pod);
  return i + 2 - k;
}

constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool IsMonth(std::string_view s) {
  if (s.size() < 3) return false;
  for (std::string_view m : kMonths) {
    if (s.substr(0, 3) == m) return true;
  }
  return false;
}

}  // namespace

size_t Rfc3339Length(std::string_view s, size_t i) {
  const size_t b = i;
  if (!Digits(s, i, 4) || i + 19 > s.size() || s[i + 4] != '-' || !Digits(s, i + 5, 2) ||
      s[i + 7] != '-' || !Digits(s, i + 8, 2) || s[i + 10] != 'T' || !Digits(s, i + 11, 2) ||
      s[i + 13] != ':' || !Digits(s, i + 14, 2) || s[i + 16] != ':' || !Digits(s, i + 17, 2)) {
    return 0;
  }
  i += 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    size_t d = i + 1;
    while (d < s.size() && IsDigit(s[d])) ++d;
    if (d == i + 1) return 0;
    i = d;
  }
  if (i < s.size() && s[i] == 'Z') return i + 1 - b;
  if (i + 3 <= s.size() && (s[i] == '+' || s[i] == '-') && Digits(s, i + 1, 2)) {
    if (i + 6 <= s.size() && s[i + 3] == ':' && Digits(s, i + 4, 2)) return i + 6 - b;
    if (Digits(s, i + 3, 2)) return i + 5 - b;  // journalctl -o short-iso: +0000
  }
  return 0;
}

size_t MatchTimestamp(std::string_view s, LineMeta* meta) {
  const size_t t = Rfc3339Length(s, 0);
  if (t == 0) return 0;
  if (s.substr(t, 3) == " | ") {  // CloudWatch export
    SetView(&meta->timestamp, s.substr(0, t));
    return t + 3;
  }
  if (t == s.size()) {  // kubectl --timestamps of an empty line
    SetView(&meta->timestamp, s.substr(0, t));
    return t;
  }
  if (s[t] != ' ') return 0;
  SetView(&meta->timestamp, s.substr(0, t));
  size_t k = t + 1;
  k += GitLabStreamLength(s, k);
  k += LokiLabelsLength(s, k, meta);
  return k;
}

/// Length of a logger's `2020-11-08 20:25:49` [`.123` | `,123`] at the start of `s`, or 0.
size_t DateTimeLength(std::string_view s) {
  if (s.size() < 19 || !Digits(s, 0, 4) || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2) || s[10] != ' ' || !Digits(s, 11, 2) || s[13] != ':' ||
      !Digits(s, 14, 2) || s[16] != ':' || !Digits(s, 17, 2)) {
    return 0;
  }
  size_t k = 19;
  if (k < s.size() && (s[k] == '.' || s[k] == ',')) {
    ++k;
    while (k < s.size() && IsDigit(s[k])) ++k;
  }
  return k;
}

size_t MatchDateTimeBeforePrefix(std::string_view s, LineMeta* meta) {
  // "2020-11-08 20:25:49" [".123" | ",123"] " "
  if (s.size() < 21) return 0;
  const size_t k = DateTimeLength(s);
  if (k == 0 || k >= s.size() || s[k] != ' ' || !StartsWithHeadOrPrefix(s.substr(k + 1))) return 0;
  SetView(&meta->timestamp, s.substr(0, k));
  return k + 1;
}

size_t ClockLength(std::string_view s, size_t k) {
  if (!Digits(s, k, 2) || k + 8 > s.size() || s[k + 2] != ':' || !Digits(s, k + 3, 2) ||
      s[k + 5] != ':' || !Digits(s, k + 6, 2)) {
    return 0;
  }
  size_t e = k + 8;
  if (e + 1 < s.size() && (s[e] == '.' || s[e] == ',') && IsDigit(s[e + 1])) {
    ++e;
    while (e < s.size() && IsDigit(s[e])) ++e;
  }
  return e - k;
}

size_t MatchClock(std::string_view s, LineMeta* meta) {
  // "02:56:49" [".123"] " " and text: Jenkins' timestamper, a shell's or CI's clock.
  const size_t k = ClockLength(s, 0);
  if (k == 0 || k + 1 >= s.size() || s[k] != ' ' || s[k + 1] == ' ') return 0;
  SetView(&meta->timestamp, s.substr(0, k));
  return k + 1;
}

size_t MatchBracketedClock(std::string_view s, LineMeta* meta) {
  constexpr size_t kLength = 10;  // "[11:00:17]"
  if (s.size() <= kLength + 1 || s[0] != '[' || s[3] != ':' || s[6] != ':' || s[9] != ']' ||
      (s[10] != '\t' && s[10] != ' ')) {
    return 0;
  }
  for (size_t i : {1, 2, 4, 5, 7, 8}) {
    if (!IsDigit(s[i])) return 0;
  }
  SetView(&meta->timestamp, s.substr(1, 8));
  return kLength + 1;
}

size_t MatchBracketedTimeRanks(std::string_view s, LineMeta* meta) {
  // "[" "2025-02-24 14:09:34" [".123" | ",123"] (" " TAG N)+ "]" [" "], TAG one of TP DP PP EP CP
  if (s.size() < 25 || s[0] != '[') return 0;
  const size_t time_length = DateTimeLength(s.substr(1));
  if (time_length == 0) return 0;
  const size_t time_end = 1 + time_length;
  size_t k = time_end;
  int tp = -1;
  bool other_rank = false;
  int tags = 0;
  while (k + 3 < s.size() && s[k] == ' ') {
    const std::string_view tag = s.substr(k + 1, 2);
    size_t d = k + 3;
    const int value = ParseRank(s, &d);
    if (value < 0) return 0;
    if (tag == "TP") {
      tp = value;
    } else if (tag == "DP" || tag == "PP" || tag == "CP") {
      other_rank = true;
    } else if (tag != "EP") {
      return 0;
    }
    ++tags;
    k = d;
  }
  if (tags == 0 || k >= s.size() || s[k] != ']') return 0;
  SetView(&meta->timestamp, s.substr(1, time_end - 1));
  if (tp >= 0 && !other_rank) SetRank(meta, tp);
  ++k;
  return k < s.size() && s[k] == ' ' ? k + 1 : k;
}

size_t MatchSyslog(std::string_view s, LineMeta* meta) {
  // "Nov 22 10:00:01 " or "Nov  2 10:00:01.123456 "
  if (s.size() < 16 || !IsMonth(s) || s[3] != ' ') return 0;
  size_t k = 4;
  if (s[k] == ' ') ++k;
  if (!IsDigit(s[k])) return 0;
  ++k;
  if (k < s.size() && IsDigit(s[k])) ++k;
  if (k + 10 > s.size() || s[k] != ' ' || !Digits(s, k + 1, 2) || s[k + 3] != ':' ||
      !Digits(s, k + 4, 2) || s[k + 6] != ':' || !Digits(s, k + 7, 2)) {
    return 0;
  }
  k += 9;
  if (k < s.size() && s[k] == '.') {
    size_t d = k + 1;
    while (d < s.size() && IsDigit(s[d])) ++d;
    k = d;
  }
  if (k >= s.size() || s[k] != ' ') return 0;
  LineMeta tail;
  const size_t n = SyslogTailLength(s.substr(k + 1), /*require_pid=*/false, &tail);
  // Without syslog's host and ident, a CI system's clock (CircleCI: `Jan 22 20:25:11 ` before
  // the step's output).
  if (n == 0 && k + 1 >= s.size()) return 0;
  SetView(&meta->timestamp, s.substr(0, k));
  if (n == 0) return k + 1;
  meta->origin_host = tail.origin_host;
  meta->origin_name = tail.origin_name;
  if (tail.origin_pid != 0) meta->origin_pid = tail.origin_pid;
  return k + 1 + n;
}

}  // namespace ncclscope::prefix_internal
