#include "ncclscope/bench/bench_expectation.h"

#include <gtest/gtest.h>

#include "ncclscope/bench/bench_parser.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using ::ncclscope::testing::ReadFileOrDie;
using ::ncclscope::testing::TestData;

BenchMetrics MetricsOf(const std::string& name) {
  std::vector<BenchTest> tests;
  Status st = ParseBenchOutput(ReadFileOrDie(TestData("corpus/nccl-tests/" + name)), &tests);
  EXPECT_TRUE(st.ok()) << st.message();
  return tests.empty() ? BenchMetrics() : ComputeBenchMetrics(tests[0]);
}

BenchVerdictLevel LevelOf(const std::string& name, TransportClass c) {
  return CompareWithClass(MetricsOf(name), c).level;
}

TEST(CompareWithClass, RealNvlinkRunIsHealthyForNvl) {
  BenchVerdict v =
      CompareWithClass(MetricsOf("h200x4-nccltests_allreduce.txt"), TransportClass::kNVL);
  EXPECT_EQ(v.level, BenchVerdictLevel::kHealthy);
  EXPECT_FALSE(v.failing);
  EXPECT_NE(v.message.find("healthy for NVL"), std::string::npos) << v.message;
  EXPECT_EQ(LevelOf("h200x4-nccltests_allgather.txt", TransportClass::kNVL),
            BenchVerdictLevel::kHealthy);
  EXPECT_EQ(LevelOf("h200x4-nccltests_sendrecv.txt", TransportClass::kNVL),
            BenchVerdictLevel::kHealthy);
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce.json", TransportClass::kNVL),
            BenchVerdictLevel::kHealthy);
}

TEST(CompareWithClass, RealShmRunIsFarBelowNvlAndHealthyForShm) {
  BenchVerdict v =
      CompareWithClass(MetricsOf("h200x4-nccltests_allreduce_shm.txt"), TransportClass::kNVL);
  EXPECT_EQ(v.level, BenchVerdictLevel::kFarBelow);
  EXPECT_TRUE(v.failing);
  EXPECT_NE(v.message.find("pcie-speed"), std::string::npos) << v.message;
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce_shm.txt", TransportClass::kSHM),
            BenchVerdictLevel::kHealthy);
}

TEST(CompareWithClass, RealSocketRunIsSocketSpeed) {
  BenchVerdict v =
      CompareWithClass(MetricsOf("h200x4-nccltests_allreduce_net.txt"), TransportClass::kNVL);
  EXPECT_EQ(v.level, BenchVerdictLevel::kFarBelow);
  EXPECT_NE(v.message.find("socket-speed"), std::string::npos) << v.message;
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce_net.txt", TransportClass::kSHM),
            BenchVerdictLevel::kFarBelow);
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce_net.txt", TransportClass::kNetSocket),
            BenchVerdictLevel::kHealthy);
}

TEST(CompareWithClass, FasterThanExpectedClassIsAbove) {
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce.txt", TransportClass::kNetSocket),
            BenchVerdictLevel::kAbove);
  EXPECT_EQ(LevelOf("h200x4-nccltests_allreduce_shm.txt", TransportClass::kNetSocket),
            BenchVerdictLevel::kAbove);
  EXPECT_FALSE(
      CompareWithClass(MetricsOf("h200x4-nccltests_allreduce.txt"), TransportClass::kNetSocket)
          .failing);
}

TEST(CompareWithClass, SlightlySlowIsBelowButNotFailing) {
  BenchMetrics m;
  m.peak_busbw_gbps = 70;
  m.max_size_bytes = int64_t{1} << 30;
  BenchVerdict v = CompareWithClass(m, TransportClass::kNVL);
  EXPECT_EQ(v.level, BenchVerdictLevel::kBelow);
  EXPECT_FALSE(v.failing);
}

TEST(CompareWithClass, SmallSweepOrUnknownClassIsNotComparable) {
  BenchMetrics m;
  m.peak_busbw_gbps = 1;
  m.max_size_bytes = 1 << 20;
  EXPECT_EQ(CompareWithClass(m, TransportClass::kNVL).level, BenchVerdictLevel::kNotComparable);
  m.max_size_bytes = int64_t{1} << 30;
  EXPECT_EQ(CompareWithClass(m, TransportClass::kUnknown).level, BenchVerdictLevel::kNotComparable);
}

TEST(SpeedTier, ClassifiesTheThreeRealRuns) {
  EXPECT_EQ(SpeedTier(360.01), "nvlink-speed");
  EXPECT_EQ(SpeedTier(31.35), "pcie-speed");
  EXPECT_EQ(SpeedTier(3.65), "socket-speed");
}

TEST(ExpectedBusBandwidth, EveryKnownClassHasARangeWithASource) {
  for (TransportClass c :
       {TransportClass::kNVL, TransportClass::kNVLS, TransportClass::kP2P, TransportClass::kSHM,
        TransportClass::kNetSocket, TransportClass::kNetIB, TransportClass::kNetLibfabric,
        TransportClass::kNetOther, TransportClass::kCollNet}) {
    ExpectedBusBw bw = ExpectedBusBandwidth(c);
    EXPECT_GT(bw.low_gbps, 0) << TransportClassName(c);
    EXPECT_GT(bw.high_gbps, bw.low_gbps) << TransportClassName(c);
    EXPECT_FALSE(bw.source.empty());
  }
}

}  // namespace
}  // namespace ncclscope
