// Headless NCCL messages (no host:pid:tid) are attributed by what the prefixes say and the device,
// never merged because their heads are absent.
#include <gtest/gtest.h>

#include "ncclscope/analysis/analyze.h"

namespace ncclscope {
namespace {

TEST(HeadlessProcess, DevicesOfOneStreamAreTwoProcesses) {
  const AnalysisResult r = AnalyzeText(
      "[0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init START\n"
      "[1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2000 - Init START\n"
      "[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
      "[1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC\n",
      "rank.log");
  ASSERT_EQ(r.job.processes.size(), 2u);
  for (const auto& p : r.job.processes) {
    EXPECT_TRUE(p.headless);
    EXPECT_EQ(p.hostname, "?rank.log");
  }
  EXPECT_EQ(r.job.links.size(), 2u);
}

TEST(HeadlessProcess, PrefixIdentityTellsProcessesApart) {
  const AnalysisResult r = AnalyzeText(
      "10.0.0.1: [0] NCCL INFO Using network Socket\n"
      "10.0.0.2: [0] NCCL INFO Using network Socket\n"
      "(RayWorkerWrapper pid=7, ip=10.0.0.3) NCCL INFO Using network IB\n"
      "(RayWorkerWrapper pid=8, ip=10.0.0.3) NCCL INFO Using network IB\n");
  ASSERT_EQ(r.job.processes.size(), 4u);
  EXPECT_EQ(r.job.processes[0].hostname, "10.0.0.1");
  EXPECT_EQ(r.job.processes[1].hostname, "10.0.0.2");
  EXPECT_EQ(r.job.processes[2].hostname, "10.0.0.3");
  EXPECT_EQ(r.job.processes[2].pid, 7u);
  EXPECT_EQ(r.job.processes[3].pid, 8u);
}

TEST(HeadlessProcess, LinesWithAHeadAreNotHeadless) {
  const AnalysisResult r =
      AnalyzeText("(pid=7) vm:1:2 [0] NCCL INFO Using network Socket\n");
  ASSERT_EQ(r.job.processes.size(), 1u);
  EXPECT_FALSE(r.job.processes[0].headless);
  EXPECT_EQ(r.job.processes[0].pid, 1u);
}

}  // namespace
}  // namespace ncclscope
