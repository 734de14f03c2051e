// The families the fifth held-out round of public logs exposed (docs/triage.md): lines verbatim
// from the threads named, each with the case where the rule must stay quiet.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/watchdog_table.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// Mellanox/nv_peer_memory#56 (NCCL 2.4.7): the bootstrap lists ib0 as "NET/Socket : Using",
// then the plugin probe, then NET/IB. InfiniBand carries the traffic.
constexpr std::string_view kBootstrapSocketLines =
    "master_node:20:289 [0] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.1<0>\n"
    "master_node:20:289 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
    "master_node:20:289 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.\n"
    "master_node:20:289 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:192.168.11.1<0>\n"
    "NCCL version 2.4.7+cuda10.0\n"
    "master_node:22:295 [2] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.1<0>\n"
    "master_node:22:295 [2] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
    "secondary_node:44:311 [3] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.2<0>\n"
    "secondary_node:41:312 [0] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.2<0>\n";

TEST(FieldRound5, OldBootstrapSocketListIsNotTheSocketTransport) {
  AnalysisResult r = AnalyzeText(kBootstrapSocketLines);
  EXPECT_EQ(FindingOf(r, "socket-fallback"), nullptr);
}

TEST(FieldRound5, OldSocketListAfterAnIbProbeThatFoundNothingIsStillAFallback) {
  // The same NCCL, but IB found no device: the socket list is the transport's.
  const std::string text =
      "NCCL version 2.4.7+cuda10.0\n"
      "hostA:20:289 [0] NCCL INFO NET/Socket : Using [0]eth0:192.168.11.1<0>\n"
      "hostA:20:289 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
      "hostA:20:289 [0] NCCL INFO NET/IB : No device found.\n"
      "hostB:44:311 [0] NCCL INFO NET/Socket : Using [0]eth0:192.168.11.2<0>\n"
      "hostB:44:311 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
      "hostB:44:311 [0] NCCL INFO NET/IB : No device found.\n";
  AnalysisResult r = AnalyzeText(text);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->severity, Severity::kInfo);
  EXPECT_FALSE(f->evidence.empty());
}

TEST(FieldRound5, SocketListOfNewerNcclIsTheTransportWithoutAnIbProbe) {
  // From 2.4.8 on the bootstrap prints "Bootstrap : Using": a NET/Socket list is the transport.
  const std::string text =
      "nodeA:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
      "nodeA:1:1 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
      "implementation\n"
      "nodeA:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
      "nodeB:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
      "nodeB:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n";
  AnalysisResult r = AnalyzeText(text);
  EXPECT_NE(FindingOf(r, "socket-fallback"), nullptr);
}

// hiyouga/LlamaFactory#8261: numbered lines (`[1784] `) before PyTorch's `[rank0]:` prefix; rank
// 0's progress line names the failed SeqNum (its watchdog caught it too), and both ranks enqueued
// past it.
constexpr std::string_view kNumberedWatchdog =
    "[1784] [rank0]:[E602 11:17:52.399340163 ProcessGroupNCCL.cpp:2268] [PG ID 1 PG GUID 1 Rank 0]"
    "  failure detected by watchdog at work sequence id: 2847 PG status: last enqueued work: 2855, "
    "last completed work: 2846\n"
    "[1787] [rank2]:[E602 11:17:52.400612945 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=2847, OpType=ALLREDUCE, NumelIn=197140480, "
    "NumelOut=197140480, Timeout(ms)=600000) ran for 600080 milliseconds before timing out.\n"
    "[1788] [rank2]:[E602 11:17:52.400889883 ProcessGroupNCCL.cpp:2268] [PG ID 1 PG GUID 1 Rank 2]"
    "  failure detected by watchdog at work sequence id: 2847 PG status: last enqueued work: 2856, "
    "last completed work: 2846\n";

TEST(FieldRound5, NumberedLinesKeepPytorchsRankPrefix) {
  AnalysisResult r = AnalyzeText(kNumberedWatchdog);
  bool rank0 = false;
  for (const TorchRankState& s : r.job.torch_ranks) rank0 = rank0 || (s.rank == 0 && s.pg_id == 1);
  EXPECT_TRUE(rank0);
}

TEST(FieldRound5, ARankWhoseWatchdogNamedTheFailedWorkAndEnqueuedPastItIsNoSuspect) {
  AnalysisResult r = AnalyzeText(kNumberedWatchdog);
  const Finding* f = FindingOf(r, "watchdog-timeout");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->suspect_ranks.empty()) << f->message;
  EXPECT_FALSE(Has(f->message, "reported no timeout")) << f->message;
}

TEST(FieldRound5, ARankThatNeverEnqueuedTheFailedWorkStaysASuspect) {
  // corpus h200x4/hang.log's shape: rank 1 is behind the SeqNum the others timed out on.
  const std::string text =
      "[rank0]:[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, NumelIn=16777216, "
      "NumelOut=16777216, Timeout(ms)=25000) ran for 25021 milliseconds before timing out.\n"
      "[rank0]:[E1121 13:39:41.737806899 ProcessGroupNCCL.cpp:2303] [PG ID 0 PG GUID 0(default_pg) "
      "Rank 0]  failure detected by watchdog at work sequence id: 6 PG status: last enqueued work: "
      "6, last completed work: 1\n"
      "[rank1]:[E1121 13:39:45.282551439 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID "
      "0(default_pg) Rank 1] Received a dump signal due to a collective timeout from  rank 0 and we "
      "will try our best to dump the debug info. Last enqueued NCCL work: 1, last completed NCCL "
      "work: 1.\n";
  AnalysisResult r = AnalyzeText(text);
  const Finding* f = FindingOf(r, "watchdog-timeout");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{1}) << f->message;
}

// hiyouga/LlamaFactory#7396: timeout lines carry no process group; the progress lines show one
// (PG 1). Rank 4 printed only its timeout: it is in that group with the others.
constexpr std::string_view kTimeoutsAndOneGroup =
    "[80746] [rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.\n"
    "[80747] [rank4]:[E321 02:07:08.414640780 ProcessGroupNCCL.cpp:607] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600067 milliseconds before timing out.\n"
    "[80748] [rank0]:[E321 02:07:08.465150152 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.\n"
    "[80749] [rank3]:[E321 02:07:08.465224069 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 3] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.\n";

TEST(FieldRound5, TimeoutsWithoutAGroupJoinTheOnlyGroupTheProgressLinesShow) {
  AnalysisResult r = AnalyzeText(kTimeoutsAndOneGroup);
  const std::vector<WatchdogGroup> groups = BuildWatchdogGroups(r.job);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].pg_id, 1);
  EXPECT_EQ(groups[0].timed_out, (std::vector<int>{0, 4}));
  EXPECT_TRUE(groups[0].suspects.empty());
}

// hiyouga/LlamaFactory#1169 (WSL2): NCCL cannot dlopen libcuda.so.
TEST(FieldRound5, AMissingCudaDriverLibraryIsACudaWarningNotGenericNoise) {
  AnalysisResult r = AnalyzeText(
      "DESKTOP-VMBL43V:4163:4163 [0] misc/cudawrap.cc:179 NCCL WARN Failed to find CUDA library "
      "libcuda.so (NCCL_CUDA_PATH='') : libcuda.so: cannot open shared object file: No such file "
      "or directory\n");
  const Finding* f = FindingOf(r, "cuda-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->fix, "/usr/lib/wsl/lib")) << f->fix;
  EXPECT_EQ(FindingOf(r, "nccl-warn"), nullptr);
}

// NVIDIA/nccl#2190: attaching to a peer's segment fails with ENOENT while /dev/shm is large.
TEST(FieldRound5, AFailedAttachIsNotASmallDevShm) {
  AnalysisResult r = AnalyzeText(
      "[2026-05-22 10:26:17] d4fde3314201:13740:13740 [7] misc/shmutils.cc:132 NCCL WARN Error "
      "while attaching to shared memory segment /dev/shm/nccl- (size 0), error: No such file or "
      "directory (2)\n");
  const Finding* f = FindingOf(r, "shm-failure");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(Has(f->title, "too small")) << f->title;
  EXPECT_FALSE(Has(f->fix, "--shm-size")) << f->fix;
  // Creating or growing a segment still is the size problem.
  AnalysisResult grow = AnalyzeText(
      "vm:1:1 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-WU88OE to "
      "9637892 bytes, error: No space left on device (28)\n");
  const Finding* g = FindingOf(grow, "shm-failure");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(Has(g->title, "too small")) << g->title;
}

// aikitoria/open-gpu-kernel-modules#38: nccl-tests names only the host of its failed call; the
// NCCL WARN of that host just before it is what failed.
TEST(FieldRound5, NcclTestsFailureOfAHostIsExplainedByThatHostsEarlierWarn) {
  AnalysisResult r = AnalyzeText(
      "[2026-08-24 17:57:25] definitley-not-a-banana:2274:2274 [0] allocator.cc:89 (ncclMemAlloc) "
      "NCCL WARN Cuda failure 205 'mapping of buffer object failed'\n"
      "definitley-not-a-banana: Test NCCL failure common.cu:1107 'unhandled cuda error (run with "
      "NCCL_DEBUG=INFO for details) / '\n");
  EXPECT_EQ(r.job.processes.size(), 1u);  // the failure line joins the host's one process
  const RootCause& rc = r.root_cause.cause;
  EXPECT_TRUE(rc.job_failed);
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  ASSERT_EQ(rc.culprits.size(), 1u);
  EXPECT_EQ(rc.culprits[0].host, "definitley-not-a-banana");
  EXPECT_TRUE(Has(rc.what, "Cuda failure 205")) << rc.what;
}

TEST(FieldRound5, ATimeoutInAnotherOperationAtTheSameSeqNumStaysInAGroupOfItsOwn) {
  // NVIDIA/nccl#1409: SeqNum 80078 is BROADCAST on rank 7 (PG 0) and ALLREDUCE on rank 3 (no
  // group printed): a collective mismatch, not one group's timeout.
  AnalysisResult r = AnalyzeText(testing::ReadFileOrDie(
      testing::TestData("real-world/nccl-1409-watchdog-broadcast-vs-allreduce-indented.log")));
  const std::vector<WatchdogGroup> groups = BuildWatchdogGroups(r.job);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_NE(groups[0].op_type, groups[1].op_type);
}

// sgl-project/sglang#5594, NVIDIA/nccl#1515: a failed outgoing connect that NCCL 2.18-2.23
// misreport as "Software caused connection abort" is a network-path failure, not a dead peer.
TEST(FieldRound5, AnAbortedConnectIsANetworkPathFailureNotADeadPeer) {
  AnalysisResult r = AnalyzeText(
      "h100-15:139:1092 [7] socket.c:485 NCCL WARN socketStartConnect: Connect to "
      "10.0.0.82<38455> failed : Software caused connection abort\n"
      "h100-15:139:1092 [7] NCCL INFO transport/net.cc:687 -> 2\n");
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(Has(f->title, "died")) << f->title;
  EXPECT_TRUE(Has(f->fix, "NCCL_SOCKET_IFNAME")) << f->fix;
  // A reset on an established connection still points at the peer.
  AnalysisResult reset = AnalyzeText(
      "vm:1:2 [0] misc/socket.cc:67 NCCL WARN socketProgressOpt: Call to recv from "
      "10.0.0.2<45763> failed : Connection reset by peer\n");
  const Finding* g = FindingOf(reset, "connection-error");
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->title, f->title);
}

}  // namespace
}  // namespace ncclscope
