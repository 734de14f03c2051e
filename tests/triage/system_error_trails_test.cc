// "unhandled system error" says a system call failed, not which: the failing process's own
// return-code trail says where (NCCL's IB code: network). An internal error keeps its class
// wherever its trail began. Lines quoted from public threads (NVIDIA/nccl#1332,
// NVIDIA/nccl-tests#204).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

constexpr std::string_view kGidSettingsThenTrail =
    "busybox2-68df6c586-ntvlv:11537:11571 [3] NCCL INFO NCCL_IB_ADDR_FAMILY set by environment "
    "to AF_INET\n"
    "busybox2-68df6c586-ntvlv:11537:11571 [3] NCCL INFO NCCL_IB_ADDR_RANGE set by environment to "
    "192.168.64.0/24\n"
    "busybox2-68df6c586-ntvlv:11537:11571 [3] NCCL INFO transport/net_ib.cc:282 -> 2\n"
    "busybox2-68df6c586-ntvlv:11537:11571 [3] NCCL INFO transport/net_ib.cc:305 -> 2\n"
    "busybox2-68df6c586-ntvlv:11537:11560 [3] NCCL INFO transport/net.cc:306 -> 2\n"
    "busybox2-68df6c586-ntvlv:11537:11560 [3] NCCL INFO init.cc:1263 -> 2\n"
    "busybox2-68df6c586-ntvlv:11537:11537 [3] NCCL INFO group.cc:95 -> 2\n"
    "busybox2-68df6c586-ntvlv: Test NCCL failure common.cu:961 'unhandled system error (run "
    "with NCCL_DEBUG=INFO for details) / '\n";

TEST(SystemErrorTrails, SystemErrorFromIbCodeIsNetwork) {
  const AnalysisResult r = AnalyzeText(std::string(kGidSettingsThenTrail));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "network");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].host, "busybox2-68df6c586-ntvlv");
  EXPECT_TRUE(Has(c.reasoning, "transport/net_ib.cc:282 -> 2")) << c.reasoning;
}

TEST(SystemErrorTrails, GidSettingsBeforeAFailedIbSetupAreWarned) {
  const AnalysisResult r = AnalyzeText(std::string(kGidSettingsThenTrail));
  int warned = 0;
  for (const Finding& f : r.findings) {
    if (f.rule == "env-override" && f.severity == Severity::kWarning) {
      ++warned;
      EXPECT_TRUE(Has(f.message, "GID")) << f.message;
    }
  }
  EXPECT_EQ(warned, 2);  // NCCL_IB_ADDR_FAMILY and NCCL_IB_ADDR_RANGE
}

TEST(SystemErrorTrails, GidSettingsWithoutAFailureAreOnlyListed) {
  const AnalysisResult r = AnalyzeText(
      "node1:11537:11571 [3] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3\n"
      "node1:11537:11571 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB "
      "eth0:10.0.0.1<0>\n");
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_TRUE(Has(f->message, "NCCL_IB_GID_INDEX=3")) << f->message;
}

TEST(SystemErrorTrails, InternalErrorKeepsItsClassWhereverItsTrailBegan) {
  const AnalysisResult r = AnalyzeText(
      "DisAI-4090-2:914454:914479 [1] NCCL INFO bootstrap.cc:312 -> 3\n"
      "DisAI-4090-2:914454:914479 [1] NCCL INFO init.cc:1493 -> 3\n"
      "DisAI-4090-2:914454:914454 [3] NCCL INFO group.cc:95 -> 3\n"
      "DisAI-4090-2: Test NCCL failure common.cu:961 'internal error - please report this issue "
      "to the NCCL developers / '\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
}

}  // namespace
}  // namespace ncclscope
