#include "ncclscope/model/line_coverage.h"

#include <gtest/gtest.h>

#include "ncclscope/analysis/analyze.h"

namespace ncclscope {
namespace {

TEST(LineCoverage, CountsMessagesAndMentions) {
  JobStats s;
  s.nccl_lines = 4800;
  s.unrecognized = 10;
  s.mention_lines = 12;
  s.unrecognized_mentions = 12;
  const LineCoverage c = CoverageOf(s);
  EXPECT_EQ(c.read, 4812u);
  EXPECT_EQ(c.understood, 4790u);
  EXPECT_EQ(c.not_understood(), 22u);
  EXPECT_EQ(CoverageSummary(c), "4,812 read, 4,790 understood (99.5%)");
}

TEST(LineCoverage, NeverRoundsUpToAHundredWhileALineIsMissing) {
  JobStats s;
  s.nccl_lines = 100000;
  s.unrecognized = 1;
  EXPECT_EQ(CoverageSummary(CoverageOf(s)), "100,000 read, 99,999 understood (99.9%)");
  s.unrecognized = 0;
  EXPECT_EQ(CoverageSummary(CoverageOf(s)), "100,000 read, 100,000 understood (100.0%)");
}

TEST(LineCoverage, EmptyInputIsFullyCovered) {
  EXPECT_EQ(CoverageOf(JobStats{}).ratio(), 1.0);
  EXPECT_EQ(CoverageSummary(CoverageOf(JobStats{})), "0 read, 0 understood (100.0%)");
}

TEST(LineCoverage, GroupThousands) {
  EXPECT_EQ(GroupThousands(0), "0");
  EXPECT_EQ(GroupThousands(999), "999");
  EXPECT_EQ(GroupThousands(1000), "1,000");
  EXPECT_EQ(GroupThousands(12345), "12,345");
  EXPECT_EQ(GroupThousands(123456), "123,456");
  EXPECT_EQ(GroupThousands(1234567), "1,234,567");
}

TEST(LineCoverage, AnalyzeCountsWhatItCouldNotRead) {
  const AnalysisResult r = AnalyzeText(
      "vm:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
      "vm:1:2 [0] NCCL INFO a message no parser knows\n"
      "(pid=3) NCCL DEBUG SET\n"
      "[rank0]:[E ProcessGroupNCCL.cpp:1] [Rank 0] NCCL communicator was aborted on rank 0.\n"
      "plain application output\n");
  const LineCoverage c = CoverageOf(r.job.stats);
  EXPECT_EQ(c.messages, 2u);
  EXPECT_EQ(c.unrecognized_messages, 1u);
  EXPECT_EQ(c.mentions, 2u);
  EXPECT_EQ(c.unrecognized_mentions, 1u);
  EXPECT_EQ(c.read, 4u);
  EXPECT_EQ(c.understood, 2u);
}

}  // namespace
}  // namespace ncclscope
