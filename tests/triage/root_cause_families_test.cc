// Families of failure lines the root-cause analysis reads, each on real lines quoted from public
// threads (the held-out failure excerpts of testdata/real-world, labels.json "set": "heldout",
// and the threads named): PyTorch's "Last error:" detail, a watchdog abort under "terminate
// called", UCX's "Caught signal" handler, and ranks stated only by connection lines; and the
// times of one job printed in formats with and without a year.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

const RootCause& CauseOf(const AnalysisResult& r) { return r.root_cause.cause; }

bool EvidenceHolds(const RootCause& c, const std::string& text) {
  for (const Evidence& e : c.evidence) {
    if (e.text == text) return true;
  }
  return false;
}

// hkproj/pytorch-transformer-distributed#1: the summary says "unhandled system error"; the
// detail after "Last error:" says what failed (fixed with NCCL_SOCKET_IFNAME).
constexpr std::string_view kSystemErrorWithDetail =
    "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
    "ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), "
    "NCCL version 2.18.6\n"
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
    "error. \n"
    "Last error:\n"
    "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host\n";

TEST(RootCauseFamilies, LastErrorDetailNamesTheNetworkBehindASystemError) {
  const AnalysisResult r = AnalyzeText(kSystemErrorWithDetail);
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_NE(c.what.find("Last error: socketStartConnect: Connect to 192.168.19.14<52822> failed "
                        ": No route to host"),
            std::string::npos)
      << c.what;
}

TEST(RootCauseFamilies, LastErrorDetailLineIsQuotedWholeInTheEvidence) {
  const AnalysisResult r = AnalyzeText(kSystemErrorWithDetail);
  const RootCause& c = CauseOf(r);
  EXPECT_TRUE(EvidenceHolds(
      c, "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host"));
}

TEST(RootCauseFamilies, LastErrorDetailBehindRayPrefixesIsRead) {
  // vllm-project/vllm#798: "internal error" whose detail is a refused connection.
  const AnalysisResult r = AnalyzeText(
      "(LLMEngine pid=2347640, ip=10.58.226.15) torch.distributed.DistBackendError: NCCL error "
      "in: /opt/conda/conda-bld/pytorch_1682343967769/work/torch/csrc/distributed/c10d/"
      "ProcessGroupNCCL.cpp:1275, internal error, NCCL version 2.14.3\n"
      "(LLMEngine pid=2347640, ip=10.58.226.15) ncclInternalError: Internal check failed.\n"
      "(LLMEngine pid=2347640, ip=10.58.226.15) Last error:\n"
      "(LLMEngine pid=2347640, ip=10.58.226.15) Net : Call to recv from 10.58.226.18<38309> "
      "failed : Connection refused\n");
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "network");
}

TEST(RootCauseFamilies, LastErrorGluedOnOneLineIsRead) {
  // awslabs/awsome-distributed-ai#192: a paste whose newlines were lost (Slurm task labels kept).
  const AnalysisResult r = AnalyzeText(
      "File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", "
      "line 1906, in broadcast 10: work = default_pg.broadcast([tensor], opts) 10: "
      "torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/"
      "pytorch_1696588393313/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, "
      "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5 10: "
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
      "device error. 10: Last error: 10: socketStartConnect: Connect to 127.0.0.1<45069> failed "
      ": Software caused connection abort\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_NE(c.what.find("Last error: socketStartConnect: Connect to 127.0.0.1<45069> failed : "
                        "Software caused connection abort"),
            std::string::npos)
      << c.what;
}

TEST(RootCauseFamilies, LastErrorDetailOfAResourceFailureKeepsItsClass) {
  // NVIDIA/nccl#1653: CUDA failure 999 behind "unhandled cuda error" stays an NCCL/CUDA error.
  const AnalysisResult r = AnalyzeText(
      "DESKTOP-1CE5APL:2852:3596 [0] include/alloc.h:112 NCCL WARN Cuda failure 999 'unknown "
      "error'\n"
      "2025-03-21 17:24:40,028 - finetrainers - ERROR - Error during training: NCCL error in: "
      "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled cuda error (run with "
      "NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
      "ncclUnhandledCudaError: Call to CUDA function failed.\n"
      "Last error:\n"
      "Cuda failure 999 'unknown error'\n");
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "nccl-error");
}

TEST(RootCauseFamilies, WatchdogAbortUnderTerminateIsFalloutOfTheTimeoutNotACrash) {
  // snap-research/discoscene#5: rank 7's watchdog timed out and aborted it (exitcode -6); the
  // abort is the watchdog's, not a crash of its own.
  const AnalysisResult r = AnalyzeText(
      "terminate called after throwing an instance of 'std::runtime_error'\n"
      "  what():  [Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=806, "
      "OpType=BROADCAST, Timeout(ms)=1800000) ran for 1801027 milliseconds before timing out.\n"
      "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 561635 closing signal "
      "SIGTERM\n"
      "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 561636 closing signal "
      "SIGTERM\n"
      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 7 "
      "(pid: 561642) of binary: \n");
  const RootCause& c = CauseOf(r);
  EXPECT_NE(CauseClassName(c.cls), "crash-signal") << c.reasoning;
  EXPECT_EQ(CauseClassName(c.cls), "timeout-unknown") << c.reasoning;
}

TEST(RootCauseFamilies, WatchdogLinesWrappedMidKeyAreNotACollectiveMismatch) {
  // huggingface/open-r1#620 (held-out round 3): the paste wrapped most watchdog lines inside
  // `OpType` or `NumelOut`, so only rank 1's line still says BROADCAST. An op or size a line did
  // not say is unknown, not different: neither rank is an odd one out (before: "ranks 1,2 disagree
  // on the collective they are in").
  const AnalysisResult r = AnalyzeText(
      "` ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, Numel\n"
      "Out=112, Timeout(ms)=1800000) ran for 1800010 milliseconds before timing out.\n"
      "[rank2]:[E424 01:11:21.160832730 ProcessGroupNCCL.cpp:629] [Rank 2] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=4, OpTy\n"
      "pe=BROADCAST, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800010 milliseconds "
      "before timing out.\n");
  const RootCause& c = CauseOf(r);
  EXPECT_NE(CauseClassName(c.cls), "collective-mismatch") << c.reasoning;
  for (const Culprit& k : c.culprits) EXPECT_NE(k.rank, 1) << c.reasoning;
}

/// A whole (unwrapped) watchdog timeout line of `rank` in SeqNum 4 `op`, as in open-r1#620.
std::string WatchdogTimeoutLine(int rank, const std::string& op) {
  const std::string r = std::to_string(rank);
  return "[rank" + r + "]:[E424 01:11:21.1 ProcessGroupNCCL.cpp:629] [Rank " + r +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=" + op +
         ", NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800010 milliseconds before "
         "timing out.\n";
}

TEST(RootCauseFamilies, WatchdogTimeoutInAnotherOpIsStillAMismatchWhenEveryLineSaysItsOp) {
  // The same lines unwrapped, rank 1 in another collective: a real mismatch stays one.
  const AnalysisResult r =
      AnalyzeText(WatchdogTimeoutLine(1, "ALLREDUCE") + WatchdogTimeoutLine(2, "BROADCAST") +
                  WatchdogTimeoutLine(0, "BROADCAST"));
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "collective-mismatch") << c.reasoning;
  ASSERT_EQ(c.culprits.size(), 1u) << c.reasoning;
  EXPECT_EQ(c.culprits[0].rank, 1);
}

TEST(RootCauseFamilies, UcxCaughtSignalIsACrashOfThatProcess) {
  // deepspeedai/DeepSpeed#2638: UCX's handler lines among NCCL's, no launcher line.
  const AnalysisResult r = AnalyzeText(
      "cf0b62962198:378934:382525 [2] NCCL INFO Connected all trees\n"
      "[cf0b62962198:378934:0:382579] Caught signal 7 (Bus error: nonexistent physical address)\n"
      "cf0b62962198:378935:382528 [3] NCCL INFO Connected all trees\n"
      "[cf0b62962198:378935:0:382582] Caught signal 7 (Bus error: nonexistent physical address)\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "crash-signal");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().host, "cf0b62962198");
  EXPECT_EQ(c.culprits.front().pid, 378934);
}

TEST(RootCauseFamilies, ConnectionLinesNameTheRankOfAnExcerptWithoutInitLines) {
  // PKU-YuanGroup/Open-Sora-Plan#386: the pid that fails prints "0[1020] -> ..." links.
  const AnalysisResult r = AnalyzeText(
      "ins-7df6eojsifuykig9:3018451:3024010 [0] NCCL INFO Channel 00 : 0[1020] -> 2[1040] via "
      "SHM/direct/direct\n"
      "ins-7df6eojsifuykig9:3018453:3024011 [2] NCCL INFO Channel 00 : 2[1040] -> 1[1030] via "
      "SHM/direct/direct\n"
      "ins-7df6eojsifuykig9:3018451:3024010 [0] NCCL INFO Channel 01 : 0[1020] -> 3[1050] via "
      "SHM/direct/direct\n"
      "\n"
      "ins-7df6eojsifuykig9:3018451:3018451 [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of "
      "memory'\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "cuda-oom");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().rank, 0);
}

TEST(RootCauseFamilies, ConnectionLinesOfTwoCommunicatorsNameNoRank) {
  // The same process as rank 0 of one communicator and rank 1 of another: no single rank.
  const AnalysisResult r = AnalyzeText(
      "ins-7df6eojsifuykig9:3018451:3024010 [0] NCCL INFO Channel 00 : 0[1020] -> 2[1040] via "
      "SHM/direct/direct\n"
      "ins-7df6eojsifuykig9:3018451:3024010 [0] NCCL INFO Channel 00 : 1[1020] -> 0[1040] via "
      "SHM/direct/direct\n"
      "\n"
      "ins-7df6eojsifuykig9:3018451:3018451 [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of "
      "memory'\n");
  const RootCause& c = CauseOf(r);
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().rank, -1);
  EXPECT_EQ(c.culprits.front().host, "ins-7df6eojsifuykig9");
}

TEST(RootCauseFamilies, YearlessGlogAndSyslogTimesOrderAgainstIsoTimesOfTheSameJob) {
  // Three inputs of one job, each in its printer's own format (torchelastic's glog header, the
  // kernel's syslog line, NCCL's NCCL_DEBUG_TIMESTAMP_FORMAT): the OOM kill at 13:41:09 comes
  // first although only the NCCL line carries a year, and the kernel's pid is the launcher's
  // local rank 1.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() /
                       ("ncclscope_yearless_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  AnalyzeOptions o;
  o.inputs = {
      write("launcher.log",
            "E1122 13:41:12.380000 4242 torch/distributed/elastic/multiprocessing/api.py:869] "
            "failed (exitcode: -9) local_rank: 1 (pid: 5002) of binary: /usr/bin/python3\n"),
      write("rank0.log",
            "[2026-11-22 13:41:11] vm:5001:5090 [0] misc/socket.cc:50 NCCL WARN socketProgress: "
            "Connection closed by remote peer vm<40000>\n"),
      write("kernel.log",
            "Nov 22 13:41:09 vm kernel: Out of memory: Killed process 5002 (python3) "
            "total-vm:1kB, anon-rss:1kB\n")};
  o.jobs = 1;
  AnalysisResult r;
  ASSERT_TRUE(Analyze(o, &r).ok());
  fs::remove_all(dir);
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().rank, 1);
  EXPECT_EQ(c.time_text, "2026-11-22 13:41:09") << c.reasoning;
}

// A proxy's "[Proxy Service N] Failed to execute operation Connect from rank N" wraps the error
// that made the operation fail; it states that its process is rank N. dmlc/xgboost#7982: the
// wrapped error is a broken pipe (the peer it names is the process's own host).
constexpr std::string_view kProxyBrokenPipe =
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO proxy.cc:942 -> 2\n"
    "\n"
    "ip-172-31-12-104:28056:39685 [0] proxy.cc:1040 NCCL WARN [Proxy Service 3] Failed to exe"
    "cute operation Connect from rank 3, retcode 2\n"
    "\n"
    "ip-172-31-12-104:28056:39685 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 17"
    "2.18.0.1<34483> failed : Broken pipe\n"
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO misc/socket.cc:520 -> 2\n"
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO transport/net_socket.cc:368 -> 2\n"
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO include/net.h:25 -> 2\n"
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO transport/net.cc:515 -> 2\n"
    "ip-172-31-12-104:28056:39685 [0] NCCL INFO proxy.cc:914 -> 2\n"
    "\n"
    "ip-172-31-12-104:28056:39685 [0] proxy.cc:1040 NCCL WARN [Proxy Service 3] Failed to exe"
    "cute operation Connect from rank 3, retcode 2\n"
    "\n"
    "ip-172-31-12-104:28056:17126 [0] misc/socket.cc:523 NCCL WARN Net : Connection closed by"
    " remote peer ip-172-31-12-104.ap-southeast-1.compute.internal<36803>\n"
    "ip-172-31-12-104:28056:17126 [0] NCCL INFO misc/socket.cc:531 -> 2\n"
    "ip-172-31-12-104:28056:17126 [0] NCCL INFO misc/socket.cc:543 -> 2\n"
    "ip-172-31-12-104:28056:17126 [0] NCCL INFO proxy.cc:805 -> 2\n"
    "\n"
    "ip-172-31-12-104:28056:17126 [0] proxy.cc:808 NCCL WARN Proxy Call to rank 3 failed (Con"
    "nect)\n"
    "ip-172-31-12-104:28056:17126 [0] NCCL INFO transport/net.cc:269 -> 2\n";

TEST(RootCauseFamilies, ProxyServiceFailureIsItsProcessWithTheErrorItWraps) {
  const AnalysisResult r = AnalyzeText(kProxyBrokenPipe);
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, 3);
  EXPECT_EQ(c.culprits[0].host, "ip-172-31-12-104");
  EXPECT_NE(c.what.find("Call to recv from 172.18.0.1<34483> failed : Broken pipe"),
            std::string::npos)
      << c.what;
}

TEST(RootCauseFamilies, ProxyServiceNamesTheRankOfTheFailureBeforeIt) {
  // NVIDIA/nccl-tests#185: the IB failure comes first; the proxy's report names its rank.
  const AnalysisResult r = AnalyzeText(
    "dgxh100-3:225140:225355 [0] misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed w"
    "ith error Network is unreachable\n"
    "dgxh100-3:225140:225355 [0] NCCL INFO transport/net_ib.cc:579 -> 2\n"
    "dgxh100-3:225140:225355 [0] NCCL INFO transport/net_ib.cc:786 -> 2\n"
    "dgxh100-3:225140:225355 [0] NCCL INFO transport/net.cc:728 -> 2\n"
    "dgxh100-3:225140:225355 [0] NCCL INFO proxy.cc:1306 -> 2\n"
    "dgxh100-3:225140:225355 [0] NCCL INFO proxy.cc:1377 -> 2\n"
    "\n"
    "dgxh100-3:225140:225355 [0] proxy.cc:1519 NCCL WARN [Proxy Service 1] Failed to execute "
    "operation Connect from rank 1, retcode 2\n"
    "\n"
    "dgxh100-3:225140:225289 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection close"
    "d by remote peer dgxh100-3<41109>\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO misc/socket.cc:749 -> 6\n"
    "\n"
    "dgxh100-3:225140:225289 [0] proxy.cc:1143 NCCL WARN Socket recv failed while polling for"
    " opId=0x7fa0242685e0\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO transport/net.cc:362 -> 3\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO transport.cc:168 -> 3\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO init.cc:1079 -> 3\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO init.cc:1358 -> 3\n"
    "dgxh100-3:225140:225289 [0] NCCL INFO group.cc:65 -> 3 [Async thread]\n"
    "dgxh100-3:225140:225140 [0] NCCL INFO group.cc:406 -> 3\n"
    "dgxh100-3:225140:225140 [0] NCCL INFO group.cc:96 -> 3\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, 1);
  EXPECT_NE(c.what.find("ibv_modify_qp failed with error Network is unreachable"),
            std::string::npos)
      << c.what;
}

/// Two processes of one job: `peer` (rank 0) and `printer` (rank 1), whose proxy fails after
/// `peer` closed its connection. Returns the culprit host of the root cause.
std::string CulpritAfterPeerClosed(const std::string& peer, const std::string& printer) {
  const AnalysisResult r = AnalyzeText(
      peer + ":100:100 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init "
             "START\n" +
      printer + ":200:200 [0] NCCL INFO comm 0x66e0 rank 1 nranks 2 cudaDev 0 busId 1000 - Init "
                "START\n" +
      printer + ":200:201 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
                "remote peer " + peer + "<41109>\n" +
      printer + ":200:202 [0] proxy.cc:1519 NCCL WARN [Proxy Service 1] Failed to execute "
                "operation Connect from rank 1, retcode 2\n");
  const RootCause& c = CauseOf(r);
  return c.culprits.size() == 1 ? c.culprits[0].host : std::string("(not one culprit)");
}

TEST(RootCauseFamilies, ProxyFailureAfterAKnownPeerWentAwayBlamesThePeer) {
  // The proxy report on node2 comes after node1, a process of the job, closed its connection:
  // node1 went away first.
  EXPECT_EQ(CulpritAfterPeerClosed("node1", "node2"), "node1");
}

TEST(RootCauseFamilies, ProxyFailureAfterAPeerWithALongerNameWentAwayBlamesThatPeer) {
  // A host name that only starts like the printer's is another host (node10 is not node1).
  EXPECT_EQ(CulpritAfterPeerClosed("node10", "node1"), "node10");
}

TEST(RootCauseFamilies, BenignVerbsProbeWarningIsNoRootCause) {
  // pytorch/pytorch#68893 (Ray, ESC bytes lost): NCCL looks for libibverbs, does not find it
  // and uses sockets; nothing failed.
  const AnalysisResult r = AnalyzeText(
      "[0m ip-172-31-0-137:14605:14673 [0] NCCL INFO NET/Plugin : No plugin found "
      "(libnccl-net.so), using internal implementation\n"
      "[0m ip-172-31-0-137:14605:14673 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open "
      "libibverbs.so[.1]\n"
      "[0m ip-172-31-0-137:14605:14673 [0] NCCL INFO Using network Socket\n");
  EXPECT_FALSE(CauseOf(r).job_failed);
  EXPECT_NE(CauseClassName(CauseOf(r).cls), "nccl-error");
}

TEST(RootCauseFamilies, NcclTestsFailureNamesItsHostNotThePeerThatSawItGo) {
  // NVIDIA/nccl-tests#204: DisAI-4090-2's init fails (nccl-tests reports the failed call); the
  // peer on DisAI-4090-3 then sees the connection closed.
  const AnalysisResult r = AnalyzeText(
    "DisAI-4090-2:914454:914479 [1] NCCL INFO bootstrap.cc:312 -> 3\n"
    "DisAI-4090-2:914454:914479 [1] NCCL INFO init.cc:1493 -> 3\n"
    "DisAI-4090-2:914454:914479 [1] NCCL INFO group.cc:64 -> 3 [Async thread]\n"
    "DisAI-4090-2:914454:914454 [3] NCCL INFO group.cc:418 -> 3\n"
    "DisAI-4090-2:914454:914454 [3] NCCL INFO group.cc:95 -> 3\n"
    "DisAI-4090-2: Test NCCL failure common.cu:961 'internal error - please report this issue"
    " to the NCCL developers / '\n"
    " .. DisAI-4090-2 pid 914454: Test failure common.cu:844\n"
    "DisAI-4090-3:63755:63771 [3] NCCL INFO NVLS multicast support is not available on dev 3"
    "\n"
    "\n"
    "DisAI-4090-3:63755:63768 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection clos"
    "ed by remote peer 10.102.0.232<40318>\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO misc/socket.cc:58 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO misc/socket.cc:787 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO bootstrap.cc:75 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO bootstrap.cc:399 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO init.cc:820 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO init.cc:1396 -> 6\n"
    "DisAI-4090-3:63755:63768 [0] NCCL INFO group.cc:64 -> 6 [Async thread]\n"
    "DisAI-4090-3:63755:63769 [1] NCCL INFO misc/socket.cc:47 -> 3\n"
    "DisAI-4090-3:63755:63769 [1] NCCL INFO misc/socket.cc:58 -> 3\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits[0].host, "DisAI-4090-2");
}

TEST(RootCauseFamilies, MpirunAbortWithoutARankIsAFailedJobWithNoCulprit) {
  // NVIDIA/nccl#983: mpirun aborts the job after one process failed; the excerpt names neither
  // the rank nor the reason. The job failed: the report must not say it did not.
  const AnalysisResult r = AnalyzeText(
      "4c217144f0b1:113168:113179 [0] NCCL INFO Channel 01/0 : 0[1a000] -> 1[1a000] [send] via "
      "NET/IB/2\n"
      "--------------------------------------------------------------------------\n"
      "Primary job  terminated normally, but 1 process returned\n"
      "a non-zero exit code. Per user-direction, the job has been aborted.\n"
      "--------------------------------------------------------------------------\n");
  const RootCause& c = CauseOf(r);
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "none");
  EXPECT_TRUE(c.culprits.empty());
  EXPECT_TRUE(EvidenceHolds(c, "Primary job  terminated normally, but 1 process returned"));
}

TEST(RootCauseFamilies, OpenMpiSignalHandlerLineIsACrashOfThatProcess) {
  // NVIDIA/nccl#1669: the excerpt ends on the handler's first line; NCCL lines before it.
  const AnalysisResult r = AnalyzeText(
      "rtptest1625:1886888:1890510 [7] NCCL INFO RAS client listening socket at ::1<28028>\n"
      "rtptest1621:405884:407462 [0] NCCL INFO RAS client listening socket at ::1<28028>\n"
      "[rtptest1621:405884] *** Process received signal ***\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "crash-signal");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().host, "rtptest1621");
  EXPECT_EQ(c.culprits.front().pid, 405884);
}

TEST(RootCauseFamilies, TimestampedOpenMpiSignalReportNamesTheSignal) {
  // NVIDIA/nccl#2380: every line of the handler's report behind a timestamp, no NCCL line.
  const AnalysisResult r = AnalyzeText(
      "2026-08-31 12:27:50 [k8s-slave03:00956] *** Process received signal ***\n"
      "2026-08-31 12:27:50 [k8s-slave03:00956] Signal: Segmentation fault (11)\n"
      "2026-08-31 12:27:50 [k8s-slave03:00956] Signal code:  (-6)\n"
      "2026-08-31 12:27:50 [k8s-slave03:00956] Failing at address: 0x3bc\n"
      "2026-08-31 12:27:50 [k8s-slave03:00956] [ 4] "
      "/usr/local/nccl/lib/libnccl.so.2(+0xbd72c)[0x7d1d0c8f372c]\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "crash-signal");
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().host, "k8s-slave03");
  EXPECT_EQ(c.culprits.front().pid, 956);
  EXPECT_NE(c.what.find("signal 11"), std::string::npos) << c.what;
}

TEST(RootCauseFamilies, WrappedWatchdogLinesOfRanksInTheSameCollectiveAreNoMismatch) {
  // mila-iqia/milabench#269: rank 13's line wraps before WorkNCCL(, rank 8's after SeqNum.
  const AnalysisResult r = AnalyzeText(
      "cn-d004 [stderr] [rank13]:[E909 09:55:29.340428860 ProcessGroupNCCL.cpp:607] [Rank 13] "
      "Watchdog caught collective operation timeout: \n"
      "WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
      "600068 milliseconds before timing out.\n"
      "cn-d004 [stderr] [rank8]:[E909 09:55:29.340541894 ProcessGroupNCCL.cpp:607] [Rank 8] "
      "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2070, \n"
      "OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600067 milliseconds "
      "before timing out.\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "timeout-unknown") << c.what << " / " << c.reasoning;
}

TEST(RootCauseFamilies, UnknownSeqNumWaitsWithTheMajority) {
  // A timeout line that lost its WorkNCCL(...) entirely (nothing joined it) is no mismatch.
  const AnalysisResult r = AnalyzeText(
      "[rank0]:[E909 09:55:29.1 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
      "operation timeout: \n"
      "[rank1]:[E909 09:55:29.2 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective "
      "operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, "
      "Timeout(ms)=600000) ran for 600067 milliseconds before timing out.\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "timeout-unknown") << c.what << " / " << c.reasoning;
}

TEST(RootCauseFamilies, OneRanksPasteDoesNotMakeTheOtherRankTheStuckOne) {
  // verl-project/verl#597: only rank 1's worker output was pasted.
  const AnalysisResult r = AnalyzeText(
      "(WorkerDict pid=231421) [rank1]:[E314 14:33:45.172185860 ProcessGroupNCCL.cpp:607] [Rank "
      "1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, "
      "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600009 milliseconds before timing out."
      "\n"
      "(WorkerDict pid=231421) [rank1]:[E314 14:33:45.173249001 ProcessGroupNCCL.cpp:1664] [PG 0 "
      "(default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: "
      "1, last enqueued NCCL work: 1, last completed NCCL work: -1.\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "timeout-unknown") << c.what << " / " << c.reasoning;
  EXPECT_NE(c.reasoning.find("printed nothing"), std::string::npos) << c.reasoning;
}

TEST(RootCauseFamilies, ASilentRankAmongManyThatTimedOutIsStillTheSuspect) {
  std::string text;
  for (int r : {0, 1, 3}) {
    text += "[rank" + std::to_string(r) + "]:[E909 09:55:29.1 ProcessGroupNCCL.cpp:607] [Rank " +
            std::to_string(r) +
            "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
            "OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for 600067 "
            "milliseconds before timing out.\n";
  }
  const AnalysisResult r = AnalyzeText(text);
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "stuck-rank") << c.what << " / " << c.reasoning;
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits.front().rank, 2);
}

// aws/aws-ofi-nccl#927: a headless paste (no host:pid:tid head) where aws-ofi-nccl's progress
// thread fails first and PyTorch raises "internal error" later in the same output.
constexpr std::string_view kHeadlessOfiWarn =
    "get_req_from_imm_data:1411 NCCL WARN NET/OFI Unexpected status (0) for message 246\n"
    "NCCL INFO transport/net.cc:1302 -> 3\n"
    "NCCL INFO proxy.cc:698 -> 3\n"
    "NCCL INFO proxy.cc:878 -> 3 [Progress Thread]\n"
    "\n"
    "process_completions:1648 NCCL WARN NET/OFI Write complete from unexpected request type!\n"
    "NCCL INFO transport/net.cc:1302 -> 3\n";
constexpr std::string_view kInternalErrorRaised =
    "init.cc:290 NCCL WARN Attempt to use communicator before the previous operation returned "
    "ncclSuccess\n"
    "NCCL INFO enqueue.cc:2014 -> 3\n"
    "    work = group._reduce_scatter_base(output, input, opts)\n"
    "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
    "ProcessGroupNCCL.cpp:3144, internal error - please report this issue to the NCCL "
    "developers, NCCL version 2.21.5\n"
    "ncclInternalError: Internal check failed.\n"
    "Last error:\n";

/// Analyses several inputs, each written to its own file.
AnalysisResult AnalyzeInputs(const std::vector<std::pair<std::string, std::string>>& inputs) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("ncclscope_inputs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  AnalyzeOptions o;
  for (const auto& [name, text] : inputs) {
    std::ofstream(dir / name) << text;
    o.inputs.push_back((dir / name).string());
  }
  o.jobs = 1;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(o, &r).ok());
  fs::remove_all(dir);
  return r;
}

TEST(RootCauseFamilies, HeadlessNetPluginWarnBeforeAFrameworkErrorIsTheNetworkFirstFailure) {
  const AnalysisResult r =
      AnalyzeText(std::string(kHeadlessOfiWarn) + std::string(kInternalErrorRaised));
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_NE(c.what.find("NET/OFI Unexpected status (0) for message 246"), std::string::npos)
      << c.what;
  ASSERT_FALSE(c.evidence.empty());
  EXPECT_EQ(c.evidence.front().text,
            "get_req_from_imm_data:1411 NCCL WARN NET/OFI Unexpected status (0) for message 246");
}

TEST(RootCauseFamilies, FrameworkErrorAfterAHeadlessNetPluginWarnIsMarkedFallout) {
  const AnalysisResult r =
      AnalyzeText(std::string(kHeadlessOfiWarn) + std::string(kInternalErrorRaised));
  const Finding* raised = testing::FindingOf(r, "nccl-error");
  const Finding* plugin = testing::FindingOf(r, "net-error");
  ASSERT_NE(raised, nullptr);
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(raised->caused_by, "unknown rank network");
  EXPECT_TRUE(plugin->caused_by.empty()) << plugin->caused_by;
}

TEST(RootCauseFamilies, HeadlessNetPluginWarnAfterTheFrameworkErrorDoesNotTakeItsPlace) {
  // The same lines in the other order: the exception came first, the WARN cannot explain it.
  const AnalysisResult r =
      AnalyzeText(std::string(kInternalErrorRaised) + std::string(kHeadlessOfiWarn));
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  EXPECT_EQ(c.what.find("NET/OFI"), std::string::npos) << c.what;
}

TEST(RootCauseFamilies, HeadlessWarnOfAnotherInputIsNotTheFrameworkErrorsOwn) {
  // Two inputs: the WARN's process is not the one that raised (nothing ties the two).
  const AnalysisResult r = AnalyzeInputs({{"plugin.log", std::string(kHeadlessOfiWarn)},
                                          {"trainer.log", std::string(kInternalErrorRaised)}});
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(c.what.find("reported an NCCL error: NET/OFI"), std::string::npos) << c.what;
}

// NVIDIA/nccl#697: the excerpt ends with the return-code trail of a failed connect through
// NET/Socket (NCCL 2.12: include/net.h:25 is ncclNetConnect, transport/net.cc:515 its caller);
// the WARN that said why is not in it.
constexpr std::string_view kSilentNetTrail =
    "dgxa100:1050:1315 [0] NCCL INFO Channel 15/0 : 0[90000] -> 1[1000] [send] via NET/Socket/7\n"
    "dgxa100:1050:1316 [0] NCCL INFO include/net.h:25 -> 2\n"
    "dgxa100:1050:1316 [0] NCCL INFO transport/net.cc:515 -> 2\n";

TEST(RootCauseFamilies, ReturnCodeTrailAloneNamesANetworkFailureAtLowConfidence) {
  const AnalysisResult r = AnalyzeText(kSilentNetTrail);
  const RootCause& c = CauseOf(r);
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_EQ(c.confidence, Confidence::kLow);
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits[0].host, "dgxa100");
  EXPECT_EQ(c.culprits[0].pid, 1050);
  EXPECT_NE(c.what.find("ncclSystemError"), std::string::npos) << c.what;
  EXPECT_NE(c.reasoning.find("not in it"), std::string::npos) << c.reasoning;
  EXPECT_TRUE(EvidenceHolds(c, "dgxa100:1050:1316 [0] NCCL INFO include/net.h:25 -> 2"));
}

TEST(RootCauseFamilies, ReturnCodeTrailOfAFailedCudaCallIsAnNcclError) {
  // NVIDIA/nccl#1235's trail (testdata/real-world/nccl-1235-cuda-oom-calloc-remote-closed.log)
  // without the WARN before it, as an excerpt cut there would show it: code 1 is a CUDA call.
  const AnalysisResult r = AnalyzeText(
      "ng30903:3063028:3066152 [3] NCCL INFO transport/p2p.cc:204 -> 1\n"
      "ng30903:3063028:3066152 [3] NCCL INFO transport/p2p.cc:605 -> 1\n");
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "nccl-error");
  EXPECT_NE(CauseOf(r).what.find("CUDA"), std::string::npos) << CauseOf(r).what;
}

TEST(RootCauseFamilies, ReturnCodeTrailAfterItsWarnLeavesTheCauseToTheWarn) {
  // dmlc/xgboost#7982's lines: the same trail, with the WARN that explains it before it (a
  // peer-gone message: the peer's end is the story, not the trail).
  const AnalysisResult r = AnalyzeText(
      "ip-172-31-12-104:28056:39685 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from "
      "172.18.0.1<34483> failed : Broken pipe\n"
      "ip-172-31-12-104:28056:39685 [0] NCCL INFO misc/socket.cc:520 -> 2\n"
      "ip-172-31-12-104:28056:39685 [0] NCCL INFO include/net.h:25 -> 2\n");
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "process-killed");
  EXPECT_EQ(CauseOf(r).what.find("failed an NCCL call"), std::string::npos) << CauseOf(r).what;
}

TEST(RootCauseFamilies, ReturnCodeTrailOfAProbeNcclRecoveredFromIsNoFailure) {
  // testdata/corpus/h200x4/socket_only.log: NCCL_IB_DISABLE=1 makes the IB plugin's init
  // return 3; NCCL says so on the next line and uses sockets.
  const AnalysisResult r = AnalyzeText(
      "vm:2185:2185 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
      "vm:2185:2185 [0] NCCL INFO transport/net_ib.cc:852 -> 3\n"
      "vm:2185:2185 [0] NCCL INFO Failed to initialize NET plugin IB\n"
      "vm:2185:2185 [0] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>\n"
      "vm:2185:2185 [0] NCCL INFO Initialized NET plugin Socket\n");
  EXPECT_FALSE(CauseOf(r).job_failed) << CauseOf(r).what;
}

TEST(RootCauseFamilies, ReturnCodeTrailAfterAKnownHarmlessWarnIsNoFailure) {
  // testdata/real-world/deepspeed-8248-nccl-warn-timestamp-gin-single-gpu.log (a working run).
  const AnalysisResult r = AnalyzeText(
      "[2026-09-01 16:19:24] DESKTOP-NJJ0SFQ:2129:2129 [0] misc/ibvwrap.cc:173 NCCL WARN lib "
      "wrapper not initialized.\n"
      "DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO transport/net_ib/gdr.cc:56 -> 3\n"
      "DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO Failed to initialize any GIN plugin\n");
  EXPECT_FALSE(CauseOf(r).job_failed) << CauseOf(r).what;
}

TEST(RootCauseFamilies, RanklessCopyOfARanksExceptionIsThatRanks) {
  // The same exception printed once without PyTorch's prefix (another stream of the process)
  // and once with it, a few lines apart: one failure, rank 1's.
  const AnalysisResult r = AnalyzeText(
      "RuntimeError: CUDA error: an illegal memory access was encountered\n"
      "[rank1]: Traceback (most recent call last):\n"
      "[rank1]:   File \"train.py\", line 3, in <module>\n"
      "[rank1]:     loss.backward()\n"
      "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n");
  EXPECT_TRUE(testing::OneCulprit(r, 1));
  // Another text is another process's, as far as the lines say.
  const AnalysisResult other = AnalyzeText(
      "RuntimeError: CUDA error: misaligned address\n"
      "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n");
  EXPECT_EQ(other.root_cause.cause.culprits.size(), 2u) << other.root_cause.cause.reasoning;
}

// NVIDIA/TensorRT-LLM#953 (held-out round 70): the excerpt begins after the Init START lines;
// each process's "comm 0x.. rank 3 nranks 4 ... - Init COMPLETE" states its rank, so the process
// that warns "no algorithm/protocol available" is rank 3, not an unnamed pid.
TEST(RootCauseFamilies, AnExcerptAfterInitStartTakesTheRankFromInitComplete) {
  const AnalysisResult r = AnalyzeText(testing::ReadFileOrDie(testing::TestData(
      "real-world/tensorrt-llm-953-rank3-no-algorithm-protocol-available-enqueue.log")));
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, 3) << c.reasoning;
  EXPECT_EQ(c.culprits[0].host, "dc");
}

TEST(RootCauseFamilies, InitStartStatesTheRankBeforeALaterComplete) {
  // A process whose START (world of 4, rank 2) is in the input keeps that rank; a COMPLETE of a
  // smaller communicator later (a split child: the line names no parent) does not replace it.
  const std::string text =
      "h:1:1 [2] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 2 nranks 4 cudaDev 2 nvmlDev 2 "
      "busId 41000 commId 0x795520212f433144 - Init START\n"
      "h:1:1 [2] NCCL INFO comm 0x2 rank 0 nranks 2 cudaDev 2 nvmlDev 2 busId 41000 commId "
      "0x1111111111111111 - Init COMPLETE\n";
  const AnalysisResult r = AnalyzeText(text);
  ASSERT_EQ(r.job.incidents.instances.size(), 1u);
  EXPECT_EQ(r.job.incidents.instances[0].rank, 2);
  EXPECT_EQ(r.job.incidents.instances[0].world, 4);
}

}  // namespace
}  // namespace ncclscope
