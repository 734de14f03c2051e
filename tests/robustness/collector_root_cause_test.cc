// Property: the collector or launcher a log went through does not change who failed first and
// why. Every failure scenario run on H200 machines (testdata/corpus/*/expected-root-causes.json)
// is rewritten line by line as one collector or launcher writes it, the whole file alike (as a
// real one does): kubectl --timestamps and --prefix, CRI and Docker json-file records, journald,
// GitHub Actions and GitLab job logs, docker compose, pdsh, a markdown quote, CRLF, Ray's and
// vLLM's per-worker `pid=N` prefixes, and the launchers that run one torchrun per node (`srun -l
// torchrun`: every worker of the node behind the node's task number; mpirun --tag-output).
// Collector clocks follow the lines' own times, as a collector's receive time does. The root cause
// of every attempt (class and culprit ranks) must be the plain file's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

// --- Clock: microseconds since 1970 from civil dates (Howard Hinnant's days_from_civil). ---

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

struct Civil {
  int year, month, day, hour, minute, second, micros;
};

Civil CivilFromMicros(int64_t us) {
  int64_t days = us / 86400000000LL;
  int64_t rest = us % 86400000000LL;
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
  Civil c{};
  c.year = static_cast<int>(y);
  c.month = static_cast<int>(m);
  c.day = static_cast<int>(d);
  c.hour = static_cast<int>(rest / 3600000000LL);
  rest %= 3600000000LL;
  c.minute = static_cast<int>(rest / 60000000LL);
  rest %= 60000000LL;
  c.second = static_cast<int>(rest / 1000000LL);
  c.micros = static_cast<int>(rest % 1000000LL);
  return c;
}

int64_t MicrosOf(int y, int mo, int d, int h, int mi, int s, int us) {
  return ((DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 24 + h) * 60 +
          mi) *
             60000000LL +
         s * 1000000LL + us;
}

/// `n` digits at s[at]; -1 if not.
int Digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/// Fraction digits at s[at] (after '.' or ','), as microseconds.
int FractionMicros(std::string_view s, size_t at) {
  int us = 0, n = 0;
  while (at < s.size() && s[at] >= '0' && s[at] <= '9' && n < 6) {
    us = us * 10 + (s[at++] - '0');
    ++n;
  }
  while (n++ < 6) us *= 10;
  return us;
}

/// The line's own time: a logger's or NCCL's `YYYY-MM-DD HH:MM:SS[.,frac]` near its start, or a
/// glog / c10 head `[IWEF]MMDD HH:MM:SS.frac` (year 2026, the corpus's).
std::optional<int64_t> OwnTime(std::string_view line) {
  const std::string_view head = line.substr(0, 96);
  for (size_t i = 0; i + 19 <= head.size(); ++i) {
    const int y = Digits(head, i, 4);
    if (y < 2000 || head[i + 4] != '-' || head[i + 7] != '-' || head[i + 10] != ' ') continue;
    const int mo = Digits(head, i + 5, 2), d = Digits(head, i + 8, 2);
    const int h = Digits(head, i + 11, 2), mi = Digits(head, i + 14, 2),
              s = Digits(head, i + 17, 2);
    if (mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) continue;
    const bool frac = i + 20 < head.size() && (head[i + 19] == '.' || head[i + 19] == ',');
    return MicrosOf(y, mo, d, h, mi, s, frac ? FractionMicros(head, i + 20) : 0);
  }
  std::string_view g = line;
  if (g.starts_with("[rank")) g.remove_prefix(std::min(g.size(), g.find("]:") + 2));
  if (g.starts_with("[")) g.remove_prefix(1);
  if (g.size() < 21 || (g[0] != 'I' && g[0] != 'W' && g[0] != 'E' && g[0] != 'F')) return {};
  const int mo = Digits(g, 1, 2), d = Digits(g, 3, 2);
  if (mo < 1 || d < 1 || g[5] != ' ' || g[8] != ':' || g[11] != ':' || g[14] != '.') return {};
  const int h = Digits(g, 6, 2), mi = Digits(g, 9, 2), s = Digits(g, 12, 2);
  if (h < 0 || mi < 0 || s < 0) return {};
  return MicrosOf(2026, mo, d, h, mi, s, FractionMicros(g, 15));
}

std::string Rfc3339(int64_t us, int digits) {
  const Civil c = CivilFromMicros(us);
  char frac[16];
  std::snprintf(frac, sizeof frac, "%06d000", c.micros);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%.*sZ", c.year, c.month, c.day,
                c.hour, c.minute, c.second, digits, frac);
  return buf;
}

std::string SyslogTime(int64_t us) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const Civil c = CivilFromMicros(us);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s %02d %02d:%02d:%02d", kMonths[c.month - 1], c.day, c.hour,
                c.minute, c.second);
  return buf;
}

std::string JsonString(std::string_view s) { return nlohmann::json(std::string(s)).dump(); }

/// Digits at s[*at], moving past them; false if none.
bool SkipDigits(std::string_view s, size_t* at) {
  const size_t start = *at;
  while (*at < s.size() && s[*at] >= '0' && s[*at] <= '9') ++*at;
  return *at > start;
}

/// The host of the file's first NCCL head (`host:pid:tid [dev] NCCL `, after NCCL's own
/// `[timestamp] ` if any), for journald's host field.
std::string FirstNcclHost(const std::vector<std::string>& lines) {
  for (std::string_view l : lines) {
    if (l.starts_with("[20") && l.find("] ") != std::string_view::npos)
      l.remove_prefix(l.find("] ") + 2);
    const size_t colon = l.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon > 64) continue;
    size_t at = colon + 1;
    if (!SkipDigits(l, &at) || at >= l.size() || l[at++] != ':' || !SkipDigits(l, &at)) continue;
    if (l.substr(at, 2) != " [" || !SkipDigits(l, &(at += 2)) || l.substr(at, 7) != "] NCCL ")
      continue;
    return std::string(l.substr(0, colon));
  }
  return "gpu-node-7";
}

/// The pid of NCCL's head (`host:pid:tid [dev] NCCL `, after NCCL's own `[timestamp] `), or "".
std::string HeadPid(std::string_view l) {
  // A launcher's tag first (torchrun --tee `[default1]:`, mpirun `[1,0]<stderr>:`).
  if (l.starts_with("[") && !l.starts_with("[20")) {
    const size_t tag = l.find(":");
    if (tag != std::string_view::npos && tag < 24 &&
        l.substr(0, tag).find(']') != std::string_view::npos)
      l.remove_prefix(tag + 1);
  }
  if (l.starts_with("[20") && l.find("] ") != std::string_view::npos)
    l.remove_prefix(l.find("] ") + 2);
  const size_t colon = l.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon > 64) return {};
  size_t at = colon + 1;
  if (!SkipDigits(l, &at)) return {};
  const std::string pid(l.substr(colon + 1, at - colon - 1));
  if (at >= l.size() || l[at++] != ':' || !SkipDigits(l, &at)) return {};
  // `[dev] NCCL ...`, or `[dev] misc/socket.cc:72 NCCL WARN ...` (a warning's location).
  if (l.substr(at, 2) != " [" || !SkipDigits(l, &(at += 2)) || l.substr(at, 2) != "] " ||
      l.find(" NCCL ", at) == std::string_view::npos)
    return {};
  return pid;
}

/// Who wrote each line, as a worker prefix (Ray's `pid=N`, vLLM's) names it: NCCL lines their
/// head's pid, PyTorch's `[rankN]:` lines the pid of rank N (from the init lines of the largest
/// communicator), other lines (the launcher's) nobody.
std::vector<std::string> WriterPids(const std::vector<std::string>& lines) {
  std::map<int, std::string> pid_of_rank;
  int world = 0;
  for (const std::string& l : lines) {
    const std::string pid = HeadPid(l);
    const size_t at = l.find(" rank ");
    const size_t n = l.find(" nranks ");
    if (pid.empty() || l.find(" comm 0x") == std::string::npos || at == std::string::npos ||
        n == std::string::npos || n < at)
      continue;
    const int rank = std::atoi(l.c_str() + at + 6);
    const int nranks = std::atoi(l.c_str() + n + 8);
    if (nranks < world) continue;
    world = nranks;
    pid_of_rank[rank] = pid;
  }
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    std::string pid = HeadPid(l);
    if (pid.empty() && l.starts_with("[rank")) {
      auto it = pid_of_rank.find(std::atoi(l.c_str() + 5));
      if (it != pid_of_rank.end()) pid = it->second;
    }
    out.push_back(pid);
  }
  return out;
}

enum class Collector {
  kKubectlTimestamps,
  kCri,
  kDockerJson,
  kJournald,
  kGithubActions,
  kGitlab,
  kKubectlPrefix,
  kKubectlPrefixAndTimestamps,
  kCompose,
  kAnsiCompose,
  kPdsh,
  kMarkdownQuote,
  kCrlf,
  kSrunNodeTask0,
  kSrunNodeTask3,
  kMpirunNodeTask,
  kRayWorker,
  kVllmWorker,
};

struct CollectorCase {
  Collector collector;
  const char* name;
};

std::string Wrap(Collector c, const std::vector<std::string>& lines) {
  const std::string host = FirstNcclHost(lines);
  std::optional<int64_t> first;
  for (const std::string& l : lines) {
    if ((first = OwnTime(l))) break;
  }
  int64_t now = first.value_or(MicrosOf(2026, 11, 23, 9, 0, 0, 0));
  const std::vector<std::string> writers = WriterPids(lines);
  std::string out;
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string& l = lines[n];
    const std::string& pid = writers[n];
    const std::optional<int64_t> own = OwnTime(l);
    now = own && *own >= now ? *own : now + 1;
    switch (c) {
      case Collector::kKubectlTimestamps:
        out += Rfc3339(now, 9) + " " + l;
        break;
      case Collector::kCri:
        out += Rfc3339(now, 9) + " stderr F " + l;
        break;
      case Collector::kDockerJson:
        out += "{\"log\":" + JsonString(l + "\n") + ",\"stream\":\"stderr\",\"time\":\"" +
               Rfc3339(now, 9) + "\"}";
        break;
      // A service's stdout: journald names the service's main process for every line.
      case Collector::kJournald:
        out += SyslogTime(now) + " " + host + " python3[4242]: " + l;
        break;
      case Collector::kGithubActions:
        out += Rfc3339(now, 7) + " " + l;
        break;
      case Collector::kGitlab:
        out += Rfc3339(now, 6) + " 00O " + l;
        break;
      case Collector::kKubectlPrefix:
        out += "[pod/train-master-0/pytorch] " + l;
        break;
      case Collector::kKubectlPrefixAndTimestamps:
        out += "[pod/train-worker-1/pytorch] " + Rfc3339(now, 9) + " " + l;
        break;
      case Collector::kCompose:
        out += "trainer-1  | " + l;
        break;
      case Collector::kAnsiCompose:
        out += "\x1b[36mtrainer-1  |\x1b[0m " + l;
        break;
      case Collector::kPdsh:
        out += "10.0.87.143: " + l;
        break;
      case Collector::kMarkdownQuote:
        out += "> " + l;
        break;
      case Collector::kCrlf:
        out += l + "\r";
        break;
      case Collector::kSrunNodeTask0:
        out += "0: " + l;
        break;
      case Collector::kSrunNodeTask3:
        out += "3: " + l;
        break;
      // Ray and vLLM prefix each worker's lines with its own pid; the driver's are bare.
      case Collector::kRayWorker:
        out += pid.empty() ? l : "(RayWorkerWrapper pid=" + pid + ", ip=10.0.0.3) " + l;
        break;
      case Collector::kVllmWorker:
        out += pid.empty() ? l : "(VllmWorkerProcess pid=" + pid + ") " + l;
        break;
      case Collector::kMpirunNodeTask:
        out += "[1,0]<stderr>:" + l;
        break;
    }
    out += '\n';
  }
  return out;
}

struct Scenario {
  std::string path;
  std::string label;
};

std::vector<Scenario> Scenarios() {
  std::vector<Scenario> out;
  for (const char* dir : {"corpus/h200x2-failures", "corpus/h200x1-failures", "corpus/h200x4"}) {
    std::ifstream in(testing::TestData(std::string(dir) + "/expected-root-causes.json"));
    for (const auto& e : nlohmann::json::parse(in)) {
      if (e.contains("inputs")) continue;  // several inputs analysed together
      const std::string file = e["file"];
      const std::string path = testing::TestData(std::string(dir) + "/" + file);
      if (std::ifstream(path).good() && !file.ends_with(".d")) out.push_back({path, file});
    }
  }
  return out;
}

/// Per attempt: "class [ranks]" (the culprits' ranks, -1 for a culprit of unknown rank).
std::vector<std::string> Causes(const AnalysisResult& r) {
  std::vector<std::string> out;
  for (const AttemptCause& a : r.root_cause.attempts) {
    std::vector<int> ranks;
    for (const Culprit& c : a.cause.culprits) ranks.push_back(c.rank);
    std::sort(ranks.begin(), ranks.end());
    std::string s(CauseClassName(a.cause.cls));
    s += " [";
    for (size_t i = 0; i < ranks.size(); ++i) s += (i ? "," : "") + std::to_string(ranks[i]);
    out.push_back(s + "]" + (a.cause.job_failed ? "" : " (job did not fail)"));
  }
  return out;
}

class CollectorRootCause : public ::testing::TestWithParam<CollectorCase> {};

TEST_P(CollectorRootCause, SameRootCauseAsThePlainLog) {
  static std::map<std::string, std::pair<std::string, std::vector<std::string>>> plain;
  const std::vector<Scenario> scenarios = Scenarios();
  ASSERT_GE(scenarios.size(), 20u);
  for (const Scenario& s : scenarios) {
    SCOPED_TRACE(s.label);
    auto it = plain.find(s.path);
    if (it == plain.end()) {
      std::string text = testing::ReadFileOrDie(s.path);
      std::vector<std::string> causes = Causes(AnalyzeText(text, s.label));
      it = plain.emplace(s.path, std::make_pair(std::move(text), std::move(causes))).first;
    }
    const auto& [text, want] = it->second;
    ASSERT_FALSE(want.empty());
    const std::vector<std::string> lines = testing::SplitLines(text);
    // Ray's and vLLM's prefixes name a writer's pid: a log with no NCCL head (NCCL_DEBUG=WARN
    // and no warning) has none to name, and such a collector leaves it unchanged.
    const bool per_writer = GetParam().collector == Collector::kRayWorker ||
                            GetParam().collector == Collector::kVllmWorker;
    const std::vector<std::string> writers = WriterPids(lines);
    if (per_writer && std::all_of(writers.begin(), writers.end(),
                                  [](const std::string& w) { return w.empty(); })) {
      continue;
    }
    const std::string wrapped = Wrap(GetParam().collector, lines);
    ASSERT_NE(wrapped, text) << "the collector's format was applied";
    EXPECT_EQ(Causes(AnalyzeText(wrapped, s.label)), want);
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCollector, CollectorRootCause,
    ::testing::Values(CollectorCase{Collector::kKubectlTimestamps, "kubectl_timestamps"},
                      CollectorCase{Collector::kCri, "cri"},
                      CollectorCase{Collector::kDockerJson, "docker_json"},
                      CollectorCase{Collector::kJournald, "journald"},
                      CollectorCase{Collector::kGithubActions, "github_actions"},
                      CollectorCase{Collector::kGitlab, "gitlab"},
                      CollectorCase{Collector::kKubectlPrefix, "kubectl_prefix"},
                      CollectorCase{Collector::kKubectlPrefixAndTimestamps, "kubectl_both"},
                      CollectorCase{Collector::kCompose, "compose"},
                      CollectorCase{Collector::kAnsiCompose, "ansi_compose"},
                      CollectorCase{Collector::kPdsh, "pdsh"},
                      CollectorCase{Collector::kMarkdownQuote, "markdown_quote"},
                      CollectorCase{Collector::kCrlf, "crlf"},
                      CollectorCase{Collector::kSrunNodeTask0, "srun_node_task_0"},
                      CollectorCase{Collector::kSrunNodeTask3, "srun_node_task_3"},
                      CollectorCase{Collector::kMpirunNodeTask, "mpirun_node_task"},
                      CollectorCase{Collector::kRayWorker, "ray_worker"},
                      CollectorCase{Collector::kVllmWorker, "vllm_worker"}),
    [](const ::testing::TestParamInfo<CollectorCase>& info) { return info.param.name; });

}  // namespace
}  // namespace ncclscope
