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

#include "ncclscope/analysis/analyze.h"
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

}  // namespace
}  // namespace ncclscope
