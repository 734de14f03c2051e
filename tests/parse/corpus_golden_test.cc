// Golden-ish tests over the real logs in testdata/corpus: every NCCL line with " via " becomes a
// Connection, and Unrecognized stays under a small documented bound.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "ncclscope/parse/line_parser.h"
#include "parse/corpus_lines.h"

namespace ncclscope {
namespace {

// Independent, deliberately naive check for "this is an NCCL-prefixed line": host:pid:tid then
// " NCCL " somewhere, optionally after a bracketed timestamp.
bool LooksLikeNcclLine(std::string_view t) {
  if (!t.empty() && t.front() == '[') {
    size_t close = t.find("] ");
    if (close == std::string_view::npos) return false;
    t.remove_prefix(close + 2);
  }
  size_t a = t.find(':');
  if (a == std::string_view::npos || t.substr(0, a).find(' ') != std::string_view::npos) {
    return false;
  }
  return t.find(" NCCL INFO ") != std::string_view::npos ||
         t.find(" NCCL WARN ") != std::string_view::npos ||
         t.find(" NCCL TRACE ") != std::string_view::npos;
}

struct FileCounts {
  int via_lines = 0;
  int connections = 0;
  int unrecognized = 0;
  int events = 0;
};

FileCounts CountFile(const std::string& path, bool print_unrecognized) {
  testing::CorpusFile f = testing::ReadCorpusFile(path);
  LineParser parser;
  Event ev;
  FileCounts c;
  for (const Line& line : f.lines) {
    if (LooksLikeNcclLine(line.text) && line.text.find(" via ") != std::string_view::npos) {
      ++c.via_lines;
    }
    if (parser.Parse(line, &ev) != ParseOutcome::kEvent) continue;
    ++c.events;
    if (std::holds_alternative<Connection>(ev.data)) ++c.connections;
    if (std::getenv("NCCLSCOPE_PRINT_EVENTS") != nullptr) {
      std::string_view fam;
      if (const auto* n = std::get_if<KnownNoise>(&ev.data)) fam = n->family;
      std::cout << "EVENT " << EventTypeName(ev.data) << " " << fam << " | " << ev.ctx.body << "\n";
    }
    if (const auto* u = std::get_if<Unrecognized>(&ev.data)) {
      ++c.unrecognized;
      if (print_unrecognized) std::cout << "UNRECOGNIZED " << path << ": " << u->message << "\n";
    }
  }
  return c;
}

// Documented bound (docs/events.md): at most this many Unrecognized events per corpus file.
constexpr int kMaxUnrecognizedPerFile = 5;

TEST(CorpusGolden, EveryNcclViaLineIsAConnectionAndUnrecognizedIsRare) {
  const bool verbose = std::getenv("NCCLSCOPE_PRINT_UNRECOGNIZED") != nullptr;
  auto paths = testing::CorpusLogPaths();
  ASSERT_GE(paths.size(), 20u);
  for (const std::string& path : paths) {
    FileCounts c = CountFile(path, verbose);
    SCOPED_TRACE(path);
    EXPECT_EQ(c.connections, c.via_lines);
    EXPECT_LE(c.unrecognized, kMaxUnrecognizedPerFile);
    EXPECT_GT(c.events, 0);
    if (verbose) {
      std::cout << "COUNTS " << path << " events=" << c.events << " connections=" << c.connections
                << " unrecognized=" << c.unrecognized << "\n";
    }
  }
}

}  // namespace
}  // namespace ncclscope
