// The families the twelfth held-out round of public logs exposed (docs/triage.md): which path
// NCCL took, in containers and clouds; lines verbatim from the threads named, each with the case
// where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

// aws/aws-ofi-nccl#803: EFA devices not passed into a docker container on a p4d; the plugin
// loads and settles for libfabric's TCP provider.
constexpr std::string_view kOfiTcp =
    "6f2d8a82d208:1287:1328 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.12.1-aws\n"
    "6f2d8a82d208:1287:1328 [0] NCCL INFO NET/OFI Using Libfabric version 1.22\n"
    "6f2d8a82d208:1287:1328 [0] NCCL INFO NET/OFI Using transport protocol SENDRECV\n"
    "6f2d8a82d208:1287:1328 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)\n";

TEST(FieldRound12, OfiSelectingTheTcpProviderIsReported) {
  const AnalysisResult r = AnalyzeText(kOfiTcp);
  const Finding* f = FindingOf(r, "net-plugin-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);  // one host: TCP between nodes is not shown
  EXPECT_NE(f->message.find("tcp provider"), std::string::npos) << f->message;
}

TEST(FieldRound12, OfiSelectingEfaIsNotReported) {
  // aws/aws-ofi-nccl#161 (SageMaker): the EFA provider.
  const AnalysisResult r =
      AnalyzeText("algo-1:462:462 [0] NCCL INFO NET/OFI Selected Provider is efa\n");
  EXPECT_EQ(FindingOf(r, "net-plugin-failed"), nullptr);
}

// NVIDIA/nccl#500-style headless paste (pie#500): the WARN and its error trail without NCCL's
// host:pid:tid head; the trail lines have no "NCCL INFO" either.
constexpr std::string_view kHeadlessNvls =
    "transport/nvls.cc:251 NCCL WARN Cuda failure 1 'invalid argument'\n"
    "transport/nvls.cc:401 -> 1\n"
    "init.cc:1138 -> 1\n"
    "init.cc:1407 -> 1\n"
    "group.cc:75 -> 1 [Async thread]\n";

TEST(FieldRound12, HeadlessWarnKeepsItsLocationAndTheBareTrailIsRead) {
  const AnalysisResult r = AnalyzeText(kHeadlessNvls);
  // The location names the NVLS transport: nvls-failure, and the CUDA error names it.
  EXPECT_NE(FindingOf(r, "nvls-failure"), nullptr);
  const Finding* cuda = FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_TRUE(cuda->message.find("NVLS transport") != std::string::npos) << cuda->message;
  // The four trail lines are NCCL's INFO lines: counted, understood, and INFO was on.
  EXPECT_EQ(r.job.stats.nccl_lines, 5u);
  EXPECT_EQ(r.job.stats.info_lines, 4u);
  EXPECT_EQ(FindingOf(r, "debug-info-missing"), nullptr);
  ASSERT_FALSE(r.job.error_trails.empty());
  EXPECT_EQ(r.job.error_trails.front().location, "transport/nvls.cc:401");
}

TEST(FieldRound12, ArrowsInOtherTextAreNotErrorTrails) {
  const AnalysisResult r = AnalyzeText(
      "epoch 3 -> 4\n"
      "model.py:12 -> loss\n"
      "see train.py:88 -> 2 for details\n");
  EXPECT_EQ(r.job.stats.nccl_lines, 0u);
  EXPECT_TRUE(r.job.error_trails.empty());
}

// sgl-project/sglang#3398: one rank of a 16-rank communicator over two 8-GPU H20 pods; no IB
// device in the pod, so NCCL picks sockets. The excerpt shows one host and no nNodes line.
constexpr std::string_view kSixteenRanksOnSockets =
    "llm-bm-infer:75205:75205 [1] NCCL INFO NET/IB : No device found.\n"
    "llm-bm-infer:75205:75205 [1] NCCL INFO NET/Socket : Using [0]eth0:11.130.1.53<0>\n"
    "llm-bm-infer:75205:75205 [1] NCCL INFO Using network Socket\n"
    "llm-bm-infer:75205:75205 [1] NCCL INFO ncclCommInitRank comm 0xb9c26e0 rank 1 nranks 16 "
    "cudaDev 1 nvmlDev 1 busId 7e000 commId 0x898b6d578585998c - Init START\n";

TEST(FieldRound12, SocketsInACommunicatorLargerThanANodeAreAWarning) {
  const AnalysisResult r = AnalyzeText(kSixteenRanksOnSockets);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->message.find("16 ranks, more than the 8 GPUs of a node"), std::string::npos)
      << f->message;
}

TEST(FieldRound12, SocketsInAnEightRankCommunicatorStayInfoWithoutNodeCount) {
  std::string log(kSixteenRanksOnSockets);
  log.replace(log.find("nranks 16"), 9, "nranks 8");
  const AnalysisResult r = AnalyzeText(log);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
}

// vllm-project/vllm#10453: the output of vLLM's NCCL sanity-check script after Init COMPLETE.
TEST(FieldRound12, SanityCheckPrintsAreUnderstood) {
  const AnalysisResult r = AnalyzeText(
      "PyTorch NCCL is successful!\n"
      "vLLM NCCL is successful!\n"
      "vLLM NCCL with cuda graph is successful!vLLM NCCL with cuda graph is successful!\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
  // A line that only ends like one is still listed as not understood.
  const AnalysisResult other = AnalyzeText("NCCL all_reduce failed; fallback is successful!\n");
  EXPECT_EQ(other.job.stats.unrecognized_mentions, 1u);
}

}  // namespace
}  // namespace ncclscope
