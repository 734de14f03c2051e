// A return-code trail right after a process echoed that something is switched off
// ("NCCL_IBEXT_DISABLE set by environment to 1." then `net.cc:55 -> 3`) is that plugin or
// transport declining to start, not a failure: no connection-error, no root cause. The same
// trail after a setting that keeps the path on still counts. Lines quoted from public threads
// (NVIDIA/nccl#676, #1053).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

std::string Excerpt(std::string_view value) {
  return "gpu01:351578:351578 [0] NCCL INFO Plugin Path : "
         "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n"
         "gpu01:351578:351578 [0] NCCL INFO P2P plugin IBext\n"
         "gpu01:351578:351578 [0] NCCL INFO NCCL_IBEXT_DISABLE set by environment to " +
         std::string(value) +
         ".\n"
         "gpu01:351578:351578 [0] NCCL INFO net.cc:55 -> 3\n"
         "gpu01:351578:351578 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to en\n";
}

TEST(SwitchedOffTrail, TrailAfterADisableEchoIsNoFailure) {
  const AnalysisResult r = AnalyzeText(Excerpt("1"));
  EXPECT_EQ(FindingOf(r, "connection-error"), nullptr);
  EXPECT_FALSE(r.root_cause.cause.job_failed);
}

TEST(SwitchedOffTrail, TrailAfterASettingThatKeepsThePathOnStillCounts) {
  const AnalysisResult r = AnalyzeText(Excerpt("0"));
  ASSERT_NE(FindingOf(r, "connection-error"), nullptr);
  EXPECT_TRUE(r.root_cause.cause.job_failed);
}

}  // namespace
}  // namespace ncclscope
