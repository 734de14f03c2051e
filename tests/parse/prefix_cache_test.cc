// The prefix cache of LineParser: a cached prefix must give exactly what parsing it would.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/parse/line_parser.h"
#include "parse/corpus_lines.h"

namespace ncclscope {
namespace {

/// The prefix fields of a parsed line, printable for failure messages.
std::string Fields(ParseOutcome outcome, const Event& e) {
  return std::to_string(static_cast<int>(outcome)) + " host=" + std::string(e.ctx.host) +
         " pid=" + std::to_string(e.ctx.pid) + " tid=" + std::to_string(e.ctx.tid) +
         " dev=" + std::to_string(e.ctx.dev) +
         " level=" + std::to_string(static_cast<int>(e.ctx.level)) + " body=" +
         std::string(e.ctx.body);
}

/// Parses `texts` in order with one parser (so later lines may hit the cache) and each with a
/// fresh parser; the prefix fields must agree line by line.
void ExpectSameAsFreshParse(const std::vector<std::string>& texts) {
  LineParser shared;
  bool after_last_error = false;  // PyTorch's "Last error:" changes how the next line is read
  for (const std::string& t : texts) {
    const bool skip = after_last_error;
    after_last_error = t.find("Last error:") != std::string::npos;
    Line line;
    line.text = t;
    Event cached, fresh;
    const ParseOutcome a = shared.Parse(line, &cached);
    LineParser once;
    const ParseOutcome b = once.Parse(line, &fresh);
    if (skip) continue;
    ASSERT_EQ(Fields(a, cached), Fields(b, fresh)) << t;
    EXPECT_EQ(EventTypeName(cached.data), EventTypeName(fresh.data)) << t;
  }
}

TEST(PrefixCache, NeighbouringPrefixesAreNeverConfused) {
  ExpectSameAsFreshParse({
      "node-a:100:200 [3] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2",
      "node-a:100:200 [3] NCCL INFO AllReduce: opCount 2 sendbuff 0x1 recvbuff 0x2",  // hit
      "node-a:100:201 [3] NCCL INFO another thread of the same process, same device",
      "node-a:100:200 [4] NCCL INFO same thread, other device in the brackets.......",
      "node-b:100:200 [3] NCCL INFO another host with the same pid and tid..........",
      "node-a:100:200 [3] misc/socket.cc:50 NCCL WARN a warning of a cached thread",
      "node-a:100:200 [3] NCCL INFO",                 // shorter than prefix + 8: no lookup
      "node-a:100:200 [3] NCCL INFO x",
      "node-a:100:200 [3] NCCL INFOx no blank after the level................",
      "node-a:100:2000 [3] NCCL INFO a tid one digit longer, same first bytes....",
      "[2026-11-21 13:43:25] node-a:100:200 [3] NCCL INFO timestamped: never cached",
      "[2026-11-21 13:43:26] node-a:100:200 [3] NCCL INFO timestamped: never cached",
  });
}

TEST(PrefixCache, CachedParseEqualsFreshParseOnEveryCorpusLine) {
  for (const std::string& path : testing::CorpusLogPaths()) {
    testing::CorpusFile f = testing::ReadCorpusFile(path);
    ExpectSameAsFreshParse(f.storage);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace ncclscope
