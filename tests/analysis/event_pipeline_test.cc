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

}  // namespace
}  // namespace ncclscope
