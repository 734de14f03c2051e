#include "ncclscope/model/timeline.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <set>
#include <tuple>

#include "ncclscope/base/ascii.h"
#include "ncclscope/model/process_index.h"

namespace ncclscope {
namespace {

constexpr int64_t kTimelineNanos = 1000000000;

bool TimelineDigits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/// "HH:MM:SS[.frac]" at s[pos...] in nanoseconds.
std::optional<int64_t> ClockAt(std::string_view s, size_t pos) {
  int h = 0, m = 0, sec = 0;
  if (!TimelineDigits(s, pos, 2, &h) || pos + 2 >= s.size() || s[pos + 2] != ':' ||
      !TimelineDigits(s, pos + 3, 2, &m) || pos + 5 >= s.size() || s[pos + 5] != ':' ||
      !TimelineDigits(s, pos + 6, 2, &sec)) {
    return std::nullopt;
  }
  if (h > 23 || m > 59 || sec > 60) return std::nullopt;
  int64_t ns = (int64_t{h} * 3600 + m * 60 + sec) * kTimelineNanos;
  size_t i = pos + 8;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    int64_t scale = kTimelineNanos / 10;
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      ns += (s[i] - '0') * scale;
      scale /= 10;
    }
  }
  return ns;
}

std::optional<int64_t> DateKey(int month, int day, std::optional<int64_t> clock) {
  if (!clock || month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  return (int64_t{month - 1} * 31 + (day - 1)) * 86400 * kTimelineNanos + *clock;
}

/// Process that printed an NCCL line: "[time] host:pid:tid [dev] ...".
int ProcessOfLine(const ProcessIndex& processes, std::string_view text) {
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find("] ");
    if (close == std::string_view::npos) return -1;
    text.remove_prefix(close + 2);
  }
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) return -1;
  std::string_view host = text.substr(0, colon);
  uint64_t pid = 0;
  size_t i = colon + 1;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    pid = pid * 10 + static_cast<uint64_t>(text[i] - '0');
    if (pid > UINT32_MAX) return -1;
  }
  if (i == colon + 1) return -1;
  return processes.OfHostPid(host, pid);
}

bool IsFrameworkError(const FrameworkRecord& r) {
  if (r.kind == FrameworkRecord::Kind::kNcclError) return true;
  switch (r.event) {
    case FrameworkKind::kHeartbeatTimeout:
    case FrameworkKind::kWatchdogTerminated:
    case FrameworkKind::kCommAborted:
    case FrameworkKind::kInitTimeout:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<int64_t> ParseTimeKey(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '[')) s.remove_prefix(1);
  if (s.size() > 1 && std::isalpha(static_cast<unsigned char>(s[0])) &&
      std::isdigit(static_cast<unsigned char>(s[1]))) {
    s.remove_prefix(1);  // c10 severity letter: "E1121 ..."
  }
  int year = 0, month = 0, day = 0;
  if (TimelineDigits(s, 0, 4, &year) && s.size() > 10 && s[4] == '-' && TimelineDigits(s, 5, 2, &month) &&
      s[7] == '-' && TimelineDigits(s, 8, 2, &day) && (s[10] == ' ' || s[10] == 'T' || s[10] == '_')) {
    return DateKey(month, day, ClockAt(s, 11));
  }
  if (TimelineDigits(s, 0, 2, &month) && TimelineDigits(s, 2, 2, &day) && s.size() > 4 && s[4] == ' ') {
    return DateKey(month, day, ClockAt(s, 5));
  }
  return std::nullopt;
}

bool IsCascadeMessage(std::string_view text) {
  static constexpr std::string_view kCascade[] = {
      "remote process exited", "connection closed", "connection reset", "broken pipe",
      "closing signal",        "was aborted",       "peer closed",
      "retcode 6",             "reset by peer"};
  // The text folded once, then one plain search per phrase (the phrases are lower case).
  std::string lower(text);
  for (char& ch : lower) ch = ascii::ToLower(ch);
  for (std::string_view c : kCascade) {
    if (lower.find(c) != std::string::npos) return true;
  }
  return false;
}

std::vector<TimelineEntry> BuildTimeline(const Job& job, WarningFilter keep_warning) {
  std::vector<TimelineEntry> out;
  std::set<std::pair<uint32_t, uint64_t>> seen;
  const ProcessIndex processes(job);
  auto add = [&](const Evidence& e, int process, std::string_view kind) {
    if (e.text.empty() || !seen.insert({e.source, e.line}).second) return;
    TimelineEntry t;
    if (process >= 0 && static_cast<size_t>(process) < job.processes.size()) {
      t.host = job.processes[process].hostname;
      t.rank = job.processes[process].global_rank;
    }
    t.time = e.time;
    t.source = e.source;
    t.line = e.line;
    t.text = e.text;
    t.kind = std::string(kind);
    t.cascade = IsCascadeMessage(e.text);
    out.push_back(std::move(t));
  };
  for (const WarnRecord& w : job.warnings) {
    if (keep_warning != nullptr && !keep_warning(w)) continue;
    for (const Evidence& e : w.evidence) {
      int p = w.processes.size() == 1 ? *w.processes.begin() : ProcessOfLine(processes, e.text);
      add(e, p, "nccl-warn");
    }
  }
  for (const ErrorTrailRecord& t : job.error_trails) add(t.evidence, t.process, "error-trail");
  for (const TorchRankState& s : job.torch_ranks) {
    if (s.timed_out && !s.evidence.empty()) {
      add(s.evidence.front(), processes.OfRank(s.rank), "watchdog-timeout");
    }
  }
  for (const FrameworkRecord& r : job.framework) {
    if (IsFrameworkError(r)) add(r.evidence, processes.OfRank(r.rank), "framework-error");
  }
  // Keys: own timestamp, else the previous entry's of the same input, else the next one's.
  std::sort(out.begin(), out.end(), [](const TimelineEntry& a, const TimelineEntry& b) {
    return std::tie(a.source, a.line) < std::tie(b.source, b.line);
  });
  std::vector<std::optional<int64_t>> key(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    key[i] = ParseTimeKey(out[i].time);
    if (!key[i] && i > 0 && out[i - 1].source == out[i].source) key[i] = key[i - 1];
  }
  for (size_t i = out.size(); i-- > 0;) {
    if (!key[i] && i + 1 < out.size() && out[i + 1].source == out[i].source) key[i] = key[i + 1];
    out[i].key = key[i] ? *key[i] : INT64_MIN;
  }
  std::stable_sort(out.begin(), out.end(), [](const TimelineEntry& a, const TimelineEntry& b) {
    return std::tie(a.key, a.cascade, a.source, a.line) <
           std::tie(b.key, b.cascade, b.source, b.line);
  });
  return out;
}

int FirstFailure(const std::vector<TimelineEntry>& timeline) {
  if (timeline.empty()) return -1;
  for (size_t i = 0; i < timeline.size(); ++i) {
    if (!timeline[i].cascade) return static_cast<int>(i);
  }
  return 0;
}

}  // namespace ncclscope
