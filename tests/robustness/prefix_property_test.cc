// Property: whatever surrounds NCCL's lines, the same connections and link classes come out. Each
// line of real corpus logs is wrapped in a randomly chosen family of prefixes (collectors,
// launchers, container records, copy-paste damage), mixed within one file, behind random printable
// junk where the family allows it; some consecutive lines are glued together. The connection
// events and the classified links must equal those of the plain file.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/input/byte_source.h"
#include "test_util.h"

namespace ncclscope {
namespace {

std::string JsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\x1b': out += "\\u001b"; break;
      default: out += c;
    }
  }
  return out;
}

class Wrapper {
 public:
  explicit Wrapper(uint32_t seed) : rng_(seed) {}

  /// Printable junk that no matcher knows, ending in a blank.
  std::string Junk() {
    static constexpr std::string_view kAlphabet =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#%&*+-=|~^@!?";
    std::string s;
    const int n = Pick(1, 12);
    for (int i = 0; i < n; ++i) s += kAlphabet[Pick(0, static_cast<int>(kAlphabet.size()) - 1)];
    return s + " ";
  }

  std::string Ip() {
    return "10." + std::to_string(Pick(0, 255)) + "." + std::to_string(Pick(0, 255)) + "." +
           std::to_string(Pick(1, 254));
  }

  std::string Ts() {
    return "2025-11-22T10:" + Two(Pick(0, 59)) + ":" + Two(Pick(0, 59)) + "." +
           std::to_string(Pick(100000000, 999999999)) + "Z";
  }

  /// One line wrapped in one family (sometimes two stacked, sometimes behind junk).
  std::string Wrap(const std::string& line) {
    const int family = Pick(0, 19);
    const bool junk = Pick(0, 3) == 0;
    switch (family) {
      case 0: return (junk ? Junk() : "") + "(RayWorkerWrapper pid=" + Num() + ", ip=" + Ip() + ") " + line;
      case 1: return (junk ? Junk() : "") + "\x1b[36m(pid=" + Num() + ")\x1b[0m " + line;
      case 2: return (junk ? Junk() : "") + "[36m(pid=" + Num() + ")[0m " + line;
      case 3: return Ip() + ": " + line;
      case 4: return Ip() + ": " + Ip() + ": " + line;
      case 5: return std::to_string(Pick(0, 63)) + ": " + line;
      case 6: return "[" + std::to_string(Pick(0, 3)) + "," + std::to_string(Pick(0, 63)) + "]<stdout>:" + line;
      case 7: return "[default" + std::to_string(Pick(0, 7)) + "]:" + line;
      case 8: return "[rank" + std::to_string(Pick(0, 7)) + "]:" + line;
      case 9: return Ts() + " [pod/train-" + std::to_string(Pick(0, 3)) + "/pytorch] " + line;
      case 10: return Ts() + " stderr F " + line;
      case 11:
        return "{\"log\":\"" + JsonEscape(line) + "\\n\",\"stream\":\"stderr\",\"time\":\"" + Ts() + "\"}";
      case 12: return "Nov 22 10:00:01 gpu-node-" + Num() + " python3[" + Num() + "]: " + line;
      case 13: return Ts() + " " + line;  // GitHub Actions
      case 14: return Ts() + " 01E " + line;  // GitLab
      case 15: return "> " + line;
      case 16: return std::string(static_cast<size_t>(Pick(0, 3)), ' ') + Num() + "\t" + line;
      case 17: return line + "\r";  // CRLF once the newline is added
      case 18: return Junk() + Junk() + line;  // a prefix nobody planned for
      default: return "[" + Ts() + "] " + Junk() + line;
    }
  }

  /// The whole log, wrapped, with a few lines glued to the next one (never a CRI/JSON record).
  /// Where two messages are glued, the second head's host runs into the first message's text;
  /// the parser tells them apart by the host names of earlier heads, so a glue is made only where
  /// the second line's host printed before (at a host's very first line the split is ambiguous).
  std::string WrapLog(const std::vector<std::string>& lines) {
    std::string out;
    std::set<std::string> hosts;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (IsNcclHead(lines[i])) hosts.insert(lines[i].substr(0, lines[i].find(':')));
      if (i + 1 < lines.size() && Pick(0, 29) == 0 && IsNcclHead(lines[i]) &&
          IsNcclHead(lines[i + 1]) && hosts.count(lines[i + 1].substr(0, lines[i + 1].find(':')))) {
        out += Junk() + lines[i] + lines[i + 1] + "\n";  // two processes' output on one line
        ++i;
        continue;
      }
      out += Wrap(lines[i]) + "\n";
    }
    return out;
  }

 private:
  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string Num() { return std::to_string(Pick(1, 99999)); }
  static std::string Two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }
  /// A line that starts with NCCL's own head and has a body (glue only those: the first
  /// message's body must end where the second head starts).
  static bool IsNcclHead(const std::string& l) {
    const size_t colon = l.find(':');
    return colon != std::string::npos && colon > 0 && l.find(" NCCL INFO ") != std::string::npos &&
           l.find(' ') > colon && l.back() != ' ';
  }
  std::mt19937 rng_;
};

using Conn = std::tuple<std::string, uint32_t, int, int, int, int, std::string>;

std::multiset<Conn> Connections(const std::string& text) {
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  std::multiset<Conn> out;
  std::vector<InputProblem> problems;
  pipeline.Run(MemoryByteSource(text.data(), text.size()), InputPath{"-", "test.log"},
               [&](const Event& e) {
                 if (const auto* c = std::get_if<Connection>(&e.data)) {
                   out.emplace(std::string(e.ctx.host), e.ctx.pid, e.ctx.dev, c->channel,
                               c->src_rank, c->dst_rank, std::string(c->raw));
                 }
               },
               &problems);
  return out;
}

using LinkKey = std::tuple<std::string, int, int, std::string, std::string>;

std::multiset<LinkKey> Links(const std::string& text) {
  AnalysisResult r = AnalyzeText(text);
  std::multiset<LinkKey> out;
  for (const auto& l : r.job.links) {
    const std::string comm = l.comm >= 0 ? r.job.comms[l.comm].id : "?";
    out.emplace(comm, l.src, l.dst, l.raw, std::string(TransportClassName(l.cls)));
  }
  return out;
}

class PrefixProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(PrefixProperty, SameConnectionsAndLinkClassesBehindAnyPrefix) {
  const std::string plain = testing::ReadFileOrDie(testing::TestData(GetParam()));
  const std::vector<std::string> lines = testing::SplitLines(plain);
  const auto want_conns = Connections(plain);
  const auto want_links = Links(plain);
  ASSERT_FALSE(want_conns.empty());
  for (uint32_t seed : {1u, 2u, 3u}) {
    Wrapper w(seed);
    const std::string wrapped = w.WrapLog(lines);
    EXPECT_EQ(Connections(wrapped), want_conns) << GetParam() << " seed " << seed;
    EXPECT_EQ(Links(wrapped), want_links) << GetParam() << " seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, PrefixProperty,
                         ::testing::Values("corpus/h200x4/default.log",
                                           "corpus/h200x4/two_nodes.log",
                                           "corpus/h200x4/p2p_disable.log",
                                           "corpus/h200x4/socket_only.log",
                                           "corpus/seeds/seed001-4pods-x4gpu-shm-socket.log",
                                           "corpus/seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log",
                                           "corpus/seeds/seed004-g6e-ofi-init-failed-socket.log"),
                         [](const auto& info) {
                           std::string n = info.param;
                           n = n.substr(n.rfind('/') + 1);
                           for (char& c : n) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace ncclscope
