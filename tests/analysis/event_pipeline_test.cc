// EventPipeline over real inputs: prefixes, pods, counters.
#include "ncclscope/analysis/event_pipeline.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

#include "ncclscope/input/byte_source.h"
#include "test_util.h"

namespace ncclscope {
namespace {

struct Collected {
  std::map<std::string, int> types;
  std::map<std::tuple<int, int, int, int, std::string>, int> connections;
  std::vector<SourceInfo> sources;
  int with_launcher_rank = 0;
};

Collected Collect(const std::string& text, const std::string& name) {
  Collected c;
  JobStats stats;
  EventPipeline pipeline(&c.sources, &stats);
  std::vector<InputProblem> problems;
  pipeline.Run(
      MemoryByteSource(text.data(), text.size()), InputPath{"", name},
      [&](const Event& e) {
        ++c.types[std::string(EventTypeName(e.data))];
        if (e.ctx.meta && e.ctx.meta->launcher_rank >= 0) ++c.with_launcher_rank;
        if (const auto* conn = std::get_if<Connection>(&e.data)) {
          ++c.connections[{conn->channel, conn->conn_index, conn->src_rank, conn->dst_rank,
                           std::string(conn->raw)}];
        }
      },
      &problems);
  EXPECT_TRUE(problems.empty());
  return c;
}

TEST(EventPipeline, TeePrefixLogGivesTheSameEventsAsTheDefaultLog) {
  auto plain = Collect(testing::ReadFileOrDie(testing::TestData("corpus/h200x4/default.log")),
                       "default.log");
  auto tee = Collect(testing::ReadFileOrDie(testing::TestData("corpus/h200x4/tee_prefix.log")),
                     "tee_prefix.log");
  EXPECT_EQ(tee.types, plain.types);
  EXPECT_EQ(tee.connections, plain.connections);
  EXPECT_EQ(plain.with_launcher_rank, 0);
  int total = 0;
  for (const auto& [t, n] : tee.types) total += n;
  EXPECT_EQ(tee.with_launcher_rank, total);
}

TEST(EventPipeline, KubectlPrefixedPodsBecomeSeparateSources) {
  std::string text =
      "[pod/train-0/main] vm0:10:10 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
      "[pod/train-1/main] vm1:11:11 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
      "[pod/train-0/main] vm0:10:10 [0] NCCL INFO cudaDriverVersion 13000\n";
  auto c = Collect(text, "<stdin>");
  ASSERT_EQ(c.sources.size(), 3u);
  EXPECT_EQ(c.sources[1].name, "<stdin>[pod/train-0/main]");
  EXPECT_EQ(c.sources[1].lines, 2u);
  EXPECT_EQ(c.sources[2].pod, "train-1/main");
  EXPECT_EQ(c.sources[2].nccl_lines, 1u);
}

TEST(EventPipeline, CountersSeparateNcclFrameworkAndOtherLines) {
  std::string text =
      "hello from the app\n"
      "vm:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
      "[rank0]:[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, NumelIn=1, "
      "NumelOut=1, Timeout(ms)=25000) ran for 25021 milliseconds before timing out.\n";
  auto c = Collect(text, "x.log");
  ASSERT_EQ(c.sources.size(), 1u);
  EXPECT_EQ(c.sources[0].lines, 3u);
  EXPECT_EQ(c.sources[0].nccl_lines, 1u);
  EXPECT_EQ(c.sources[0].framework_lines, 1u);
  EXPECT_EQ(c.types["watchdog_timeout"], 1);
}

/// Events of a pipeline with a text keeper: each kept text must still read as its line when the
/// keeper runs (the reader has moved on from its buffer, but not reused it yet).
struct KeptTexts {
  std::vector<std::pair<std::string_view, std::string>> pending;  ///< view, its text then
  int keeps = 0;
  int kept_events = 0;
  int copied_events = 0;
  int intact = 0;
};

KeptTexts RunWithKeeper(const std::string& text) {
  KeptTexts k;
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  pipeline.set_text_keeper([&k] {
    ++k.keeps;
    for (const auto& [view, expected] : k.pending) k.intact += view == expected;
    k.pending.clear();
  });
  std::vector<InputProblem> problems;
  pipeline.Run(
      MemoryByteSource(text.data(), text.size()), InputPath{"", "x.log"},
      [&k](const Event& e) {
        if (!e.ctx.text_kept) {
          ++k.copied_events;
          return;
        }
        ++k.kept_events;
        k.pending.emplace_back(e.ctx.text, std::string(e.ctx.text));
      },
      &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_TRUE(k.pending.empty()) << "the keeper runs at the end of the input too";
  return k;
}

TEST(EventPipeline, KeptTextsStayValidUntilTheKeeperRuns) {
  // About 2 MB: the reader moves through several of its buffers, each retired to the keeper.
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += "vm:" + std::to_string(10 + i % 7) +
            ":1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM line " + std::to_string(i) +
            "\n";
  }
  const KeptTexts k = RunWithKeeper(text);
  EXPECT_EQ(k.kept_events, 20000);
  EXPECT_EQ(k.copied_events, 0);
  EXPECT_EQ(k.intact, 20000);  // every view read as its line when its buffer was retired
  EXPECT_GT(k.keeps, 4);       // one per retired buffer, and one at the end
}

TEST(EventPipeline, RewrittenLinesAreNotKept) {
  // Docker's JSON records are decoded into the stream's own space, reused by the next line.
  std::string text;
  for (int i = 0; i < 3; ++i) {
    text +=
        "{\"log\":\"vm:10:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\\n\",\"stream\":"
        "\"stderr\",\"time\":\"2024-05-01T10:00:0" +
        std::to_string(i) + ".000000000Z\"}\n";
  }
  const KeptTexts k = RunWithKeeper(text);
  EXPECT_EQ(k.kept_events, 0);
  EXPECT_EQ(k.copied_events, 3);
}

}  // namespace
}  // namespace ncclscope
