// The families the twenty-ninth to thirty-sixth held-out rounds of public logs exposed
// (docs/triage.md): newer fabric features (NVLS, CollNet, MNNVL), logs from localized
// environments, CI and test-runner output, and NCCL 2.26-2.29's new lines. Lines verbatim from
// the threads named, each with the case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// OpenBMB/MiniCPM-V#265: four GPUs of one host linked through PHB and SYS only, and
// NCCL_P2P_LEVEL=NVL: P2P is off between all of them.
constexpr std::string_view kPcieOnlyNvlLevel =
    "gpu009:47870:48592 [3] NCCL INFO GPU/50000 :GPU/50000 (0/5000.000000/LOC) GPU/53000 "
    "(4/24.000000/PHB) GPU/57000 (4/24.000000/PHB) GPU/9C000 (5/10.000000/SYS) CPU/0 "
    "(2/24.000000/PHB) CPU/1 (3/10.000000/SYS) \n"
    "gpu009:47868:48591 [1] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
    "gpu009:47869:48590 [2] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n"
    "gpu009:47867:48593 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n";

TEST(FieldRound30, P2pLevelBelowTheGpusPathsDisablesP2p) {
  const AnalysisResult r = AnalyzeText(kPcieOnlyNvlLevel);
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "NCCL_P2P_LEVEL=NVL")) << f->message;
  EXPECT_TRUE(Has(f->message, "PHB/SYS")) << f->message;
  // The same level where the GPUs have NVLink between them keeps P2P: a setting, no warning.
  std::string nvlink(kPcieOnlyNvlLevel);
  for (size_t at; (at = nvlink.find("/PHB)")) != std::string::npos;) nvlink.replace(at, 5, "/NVL)");
  for (size_t at; (at = nvlink.find("/SYS)")) != std::string::npos;) nvlink.replace(at, 5, "/NVL)");
  const AnalysisResult ok = AnalyzeText(nvlink);
  const Finding* g = FindingOf(ok, "env-override");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->severity, Severity::kInfo) << g->message;
  // A level that admits the farthest path (SYS) cuts nothing.
  std::string sys(kPcieOnlyNvlLevel);
  for (size_t at; (at = sys.find("to NVL")) != std::string::npos;) sys.replace(at, 6, "to SYS");
  const AnalysisResult wide = AnalyzeText(sys);
  const Finding* h = FindingOf(wide, "env-override");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->severity, Severity::kInfo) << h->message;
}

TEST(FieldRound29, RuntimeEnvDictSettingsCount) {
  // NVIDIA/nccl#2186: the Ray job's runtime_env print is how its NCCL settings are known.
  const AnalysisResult r = AnalyzeText(
      "runtime_env env_vars: {'NCCL_DEBUG': 'INFO', 'NCCL_DEBUG_SUBSYS': 'INIT,COLL', "
      "'NCCL_CUMEM_ENABLE': '1', 'NCCL_NVLS_ENABLE': '1', 'NCCL_MNNVL_ENABLE': '1', "
      "'CUDA_DEVICE_MAX_CONNECTIONS': '1', 'TORCH_NCCL_AVOID_RECORD_STREAMS': '1', "
      "'PYTHONUNBUFFERED': '1'}\n"
      "(W pid=694) gb200-rack1-15:694:945 [0] NCCL INFO cudaDriverVersion 13000\n");
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "NCCL_MNNVL_ENABLE=1")) << f->message;
  EXPECT_EQ(r.job.stats.unrecognized_mentions + r.job.stats.unrecognized, 0u);
}

TEST(FieldRound31, TestRunnerStreamTagIsAPrefixAndTheExitOwnsTheError) {
  // huggingface/accelerate#1473: `accelerate test` tags the child's output `stderr: `; the
  // exception has no rank, and torchelastic's exit line two lines later names local_rank 0.
  const AnalysisResult r = AnalyzeText(
      "stderr:     work = default_pg.allgather([tensor_list], [tensor])\n"
      "stderr: RuntimeError: NCCL error in: "
      "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, "
      "unhandled cuda error, NCCL version 21.0.3\n"
      "stderr: ncclUnhandledCudaError: Call to CUDA function failed.\n"
      "stderr: ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
      "local_rank: 0 (pid: 227) of binary: /opt/anaconda3/bin/python\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  ASSERT_EQ(rc.culprits.size(), 1u);
  EXPECT_EQ(rc.culprits.front().rank, 0);
  // Far from the exit line (no times to go by), the error keeps no owner.
  std::string far =
      "stderr: RuntimeError: NCCL error in: "
      "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, "
      "unhandled cuda error, NCCL version 21.0.3\n";
  for (int i = 0; i < 12; ++i) far += "stderr: some other output\n";
  far +=
      "stderr: ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
      "local_rank: 0 (pid: 227) of binary: /opt/anaconda3/bin/python\n";
  const AnalysisResult far_result = AnalyzeText(far);
  const RootCause& apart = far_result.root_cause.cause;
  ASSERT_FALSE(apart.culprits.empty());
  EXPECT_EQ(apart.culprits.front().rank, -1);
}

TEST(FieldRound36, SeveralRanklessErrorsBeforeOneExitKeepNoOwner) {
  // XiaohangZhan/deocclusion#45: several processes print the same exception, then torchelastic
  // names local_rank 6 only; which of them is rank 6's is not known.
  const AnalysisResult r = AnalyzeText(
      "RuntimeError: work = default_pg.broadcast([tensor], opts): \n"
      "NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, invalid usage, NCCL "
      "version 2.7.8\n"
      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library (such as too many "
      "async ops, too many collectives at once, mixing streams in a group, etc).RuntimeError\n"
      ": NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, invalid usage, NCCL "
      "version 2.7.8\n"
      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library (such as too many "
      "async ops, too many collectives at once, mixing streams in a group, etc).\n"
      "NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, invalid usage, NCCL "
      "version 2.7.8\n"
      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library (such as too many "
      "async ops, too many collectives at once, mixing streams in a group, etc).\n"
      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 6 "
      "(pid: 1211) of binary: /usr/bin/python3\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_NE(rc.confidence, Confidence::kHigh) << rc.what;
  ASSERT_FALSE(rc.culprits.empty());
  EXPECT_EQ(rc.culprits.front().rank, -1) << rc.what;  // the first error's process: unknown
}

TEST(FieldRound35, AWatchdogFailureAloneIsAFailedJobWithNoRankNamed) {
  // sgl-project/sglang#10216: rank 1's watchdog reports a failed collective; nothing says why.
  const AnalysisResult r = AnalyzeText(
      "[rank1]:[E909 08:45:30.126335825 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 1]  "
      "failure detected by watchdog at work sequence id: 40231 PG status: last enqueued work: "
      "40267, last completed work: 40230\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_TRUE(rc.job_failed);
  EXPECT_EQ(rc.cls, CauseClass::kTimeoutUnknown);
  EXPECT_EQ(rc.confidence, Confidence::kLow);
  EXPECT_TRUE(rc.culprits.empty());
  // The same report without the failed work's number is only the PG's status: no failure.
  const AnalysisResult status = AnalyzeText(
      "[rank1]:[E909 08:45:30.126335825 ProcessGroupNCCL.cpp:2252] Last enqueued NCCL work: "
      "40267, last completed NCCL work: 40230.\n");
  EXPECT_FALSE(status.root_cause.cause.job_failed);
}

TEST(FieldRound36, InvalidRankRequestedNamesThePrintersRank) {
  // Lightning-AI/pytorch-lightning#3029: world size 1 under torchelastic, the process asks to be
  // rank 1; NCCL's warning states it.
  const AnalysisResult r = AnalyzeText(
      "mnist12-worker-0:70:70 [0] NCCL INFO Bootstrap : Using [0]eth0:192.168.60.90<0>\n"
      "mnist12-worker-0:70:70 [0] init.cc:981 NCCL WARN Invalid rank requested : 1/1\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  ASSERT_FALSE(rc.culprits.empty());
  EXPECT_EQ(rc.culprits.front().rank, 1);
}

TEST(FieldRound36, WatchdogTerminateWithAnNcclErrorIsAnNcclErrorOfOneProcess) {
  // pytorch/pytorch#91943: the watchdog thread dies of an NCCL error; C++'s terminate prints it.
  const AnalysisResult r = AnalyzeText(
      "terminate called after throwing an instance of 'std::runtime_error'\n"
      "  what():  NCCL error: unhandled system error, NCCL version 21.0.3\n"
      "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n");
  const Finding* f = FindingOf(r, "nccl-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "unhandled system error")) << f->message;
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  EXPECT_EQ(rc.culprits.size(), 1u);  // the terminate and the error are one process
  // An application's own message after what() is no NCCL error.
  const AnalysisResult app = AnalyzeText(
      "terminate called after throwing an instance of 'std::runtime_error'\n"
      "  what():  NCCL error: my own check failed\n");
  EXPECT_EQ(FindingOf(app, "nccl-error"), nullptr);
}

TEST(FieldRound32, NewerPluginAndSymmetricKernelLinesAreUnderstood) {
  // NVIDIA/nccl#2397 (2.28's GIN plugin), vllm-project/vllm#28901 (2.28 symmetric kernels).
  const testing::Parsed gin = testing::ParseOne(
      "ubuntu2:321049:321049 [0] NCCL INFO GIN/Plugin: Could not find: libnccl-gin.so");
  ASSERT_EQ(EventTypeName(gin.event.data), "plugin");
  const testing::Parsed sym = testing::ParseOne(
      "10-64-29-12:21151:21151 [0] NCCL INFO AllReduce [Symmetric]: 2097152 Bytes -> Kernel "
      "AllReduce_RSxLD_AGxST nchannels 7 nthreads 512 nWorks 1");
  ASSERT_EQ(EventTypeName(sym.event.data), "coll_algo");
  const auto& a = std::get<CollAlgo>(sym.event.data);
  EXPECT_EQ(a.op, "AllReduce");
  EXPECT_EQ(a.bytes, 2097152u);
  EXPECT_EQ(a.proto, "AllReduce_RSxLD_AGxST");
}

// pytorch/pytorch#174030 (healthy, NCCL 2.28.9 in a container without libibverbs): the IB
// plugin's probe fails and unwinds (`net_ib.cc:852 -> 3`), NCCL goes on with sockets.
constexpr std::string_view kNoVerbs228 =
    "1e47b71c2c88:326046:326046 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO Failed to open libibverbs.so[.1]\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO transport/net_ib.cc:852 -> 3\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO Failed to initialize NET plugin IB\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO NET/Socket : Using [0]eth0:172.17.0.2<0>\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO Using network Socket\n"
    "1e47b71c2c88:326046:326046 [0] NCCL INFO ncclCommInitRankConfig comm 0x3e41c5e0 rank 0 "
    "nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabf496d0fcdf3df4 - Init START\n";

TEST(FieldRound32, IbProbeWithoutVerbsIsNoFailureAndNoExpectedNetwork) {
  const AnalysisResult r = AnalyzeText(kNoVerbs228);
  for (const Finding& f : r.findings) {
    EXPECT_NE(f.severity, Severity::kError) << f.rule << ": " << f.message;
  }
  const Finding* sockets = FindingOf(r, "socket-fallback");
  ASSERT_NE(sockets, nullptr);
  EXPECT_EQ(sockets->severity, Severity::kInfo) << sockets->message;
  // The same plugin failure with an IB device present is an expectation that failed.
  std::string with_device(kNoVerbs228);
  with_device.erase(with_device.find("1e47b71c2c88:326046:326046 [0] NCCL INFO Failed to open"),
                    std::string_view("1e47b71c2c88:326046:326046 [0] NCCL INFO Failed to open "
                                     "libibverbs.so[.1]\n")
                        .size());
  const AnalysisResult ib = AnalyzeText(with_device);
  const Finding* expected = FindingOf(ib, "socket-fallback");
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(expected->severity, Severity::kError) << expected->message;
}

TEST(FieldRound32, AnExcerptEndingInInitIsALowConfidenceLateStart) {
  // pytorch/pytorch#174030 (healthy): rank 0's log ends right after its Init START; nothing
  // failed, so the absent rank 1 is only a guess.
  const AnalysisResult r = AnalyzeText(
      "1e47b71c2c88:326046:326046 [0] NCCL INFO ncclCommInitRankConfig comm 0x3e41c5e0 rank 0 "
      "nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabf496d0fcdf3df4 - Init START\n"
      "1e47b71c2c88:326046:326046 [0] NCCL INFO RAS client listening socket at ::1<28028>\n");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kLateStart);
  EXPECT_EQ(r.root_cause.cause.confidence, Confidence::kLow);
}

}  // namespace
}  // namespace ncclscope
