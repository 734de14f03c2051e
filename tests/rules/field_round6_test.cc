// The families the sixth held-out round of public logs exposed (docs/triage.md): lines verbatim
// from the threads named, each with the case where the tool must not conclude the same.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::OneCulprit;

// pytorch/pytorch#150852: one process's NCCL lines (no init line names its rank), then
// PyTorch's `[rank0]:` traceback of the error NCCL raised.
constexpr std::string_view kOneProcessNvlsFailure =
    "[2025-04-08 08:39:46] devgpu263:589012:591652 [0] transport/nvls.cc:254 NCCL WARN Cuda "
    "failure 1 'invalid argument'\n"
    "devgpu263:589012:591652 [0] NCCL INFO transport/nvls.cc:409 -> 1\n"
    "devgpu263:589012:591652 [0] NCCL INFO init.cc:1141 -> 1\n"
    "devgpu263:589012:589012 [0] NCCL INFO init.cc:1836 -> 1\n"
    "[rank0]: Traceback (most recent call last):\n"
    "[rank0]:   File \"/home/kw2501/local/driver_12.2/repro.py\", line 12, in <module>\n"
    "[rank0]:     dist.all_reduce(x)\n"
    "[rank0]: torch.distributed.DistBackendError: NCCL error in: "
    "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with "
    "NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n";

TEST(FieldRound6, ThePasteOfOneProcessAndOneTaggedRankIsThatRank) {
  AnalysisResult r = AnalyzeText(kOneProcessNvlsFailure);
  const RootCause& rc = r.root_cause.cause;
  ASSERT_TRUE(OneCulprit(r, 0, "devgpu263"));
  EXPECT_EQ(rc.culprits[0].pid, 589012);
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  EXPECT_NE(rc.reasoning.find("invalid argument"), std::string::npos) << rc.reasoning;
}

TEST(FieldRound6, ATracebackWithoutItsErrorStillNamesTheRankOfTheOneProcess) {
  // pytorch/pytorch#130414: the traceback is cut before its exception line.
  AnalysisResult r = AnalyzeText(
      "iZmj7cfy2ysqwfo0nrci4pZ:2532579:2532579 [0] enqueue.cc:336 NCCL WARN Cuda failure "
      "'invalid resource handle'\n"
      "iZmj7cfy2ysqwfo0nrci4pZ:2532579:2532579 [0] NCCL INFO enqueue.cc:1382 -> 1\n"
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"/home/yyc/dist.py\", line 45, in <module>\n"
      "[rank1]:     main()\n");
  EXPECT_TRUE(OneCulprit(r, 1, "iZmj7cfy2ysqwfo0nrci4pZ"));
}

TEST(FieldRound6, TwoTaggedRanksLeaveTheProcessWithoutARank) {
  // Which of the two the process is, nothing says.
  std::string text(kOneProcessNvlsFailure);
  text += "[rank1]: Traceback (most recent call last):\n"
          "[rank1]:     dist.all_reduce(x)\n";
  AnalysisResult r = AnalyzeText(text);
  for (const Culprit& c : r.root_cause.cause.culprits) {
    EXPECT_FALSE(c.host == "devgpu263" && c.rank >= 0) << "rank " << c.rank;
  }
}

TEST(FieldRound6, AProcessThatLostItsPeerIsNotTheTaggedRank) {
  // The NCCL lines say a peer went away: the `[rank1]:` lines may be that peer's.
  AnalysisResult r = AnalyzeText(
      "nodeA:100:120 [0] transport/net_socket.cc:540 NCCL WARN NET/Socket : peer "
      "10.0.0.2<43512> message truncated : receiving 1048576 bytes instead of 65536. If you "
      "believe your socket network is in a healthy state, there may be a mismatch in collective "
      "sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks\n"
      "nodeA:100:120 [0] NCCL INFO include/net.h:35 -> 3\n"
      "nodeA:100:120 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
      "remote peer 10.0.0.2<43512>\n"
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:     loss.backward()\n"
      "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n");
  for (const Culprit& c : r.root_cause.cause.culprits) {
    EXPECT_FALSE(c.host == "nodeA" && c.rank == 1);
  }
}

TEST(FieldRound6, AnIncompleteTopologyFileIsASettingNotAnNcclBug) {
  // aws/aws-ofi-nccl#476 (NCCL_TOPO_FILE of the plugin for p5.48xlarge), under mpirun's tags.
  AnalysisResult r = AnalyzeText(
      "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] graph/xml.h:101 NCCL WARN Attribute arch "
      "of node cpu not found\n"
      "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] NCCL INFO graph/topo.cc:540 -> 3\n"
      "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] NCCL INFO init.cc:1012 -> 3\n");
  const Finding* f = FindingOf(r, "costly-setting");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->fix.find("NCCL_TOPO_FILE"), std::string::npos);
}

TEST(FieldRound6, AnAttributeMissingElsewhereIsNotTheTopologyFile) {
  AnalysisResult r = AnalyzeText(
      "host1:75:95 [2] misc/param.cc:30 NCCL WARN Attribute foo of environment not found\n");
  EXPECT_EQ(FindingOf(r, "costly-setting"), nullptr);
}

TEST(FieldRound6, SglangsTensorParallelTagNamesTheRankOfTheOneProcess) {
  // sgl-project/sglang#3820 (a dev excerpt): the rank was reported by host and pid only.
  AnalysisResult r = AnalyzeText(
      "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to "
      "10.0.0.4<56849> returned 113(No route to host) errno 115(Operation now in progress)\n"
      "node5:240:240 [6] NCCL INFO misc/socket.cc:570 -> 2\n"
      "node5:240:240 [6] NCCL INFO bootstrap.cc:285 -> 2\n"
      "[2025-02-24 14:09:34 TP14] Scheduler hit an exception: Traceback (most recent call "
      "last):\n"
      "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1816, in "
      "run_scheduler_process\n");
  EXPECT_TRUE(OneCulprit(r, 14, "node5"));
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
}

}  // namespace
}  // namespace ncclscope
