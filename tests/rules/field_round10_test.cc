// The families the tenth held-out round of public logs exposed (docs/triage.md): multi-node jobs
// on clouds and clusters; lines verbatim from the threads named, each with the case where the
// tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::OneCulprit;

TEST(FieldRound10, ARankTagGluedToNcclsHeadNamesTheRank) {
  // NVIDIA/nccl#706 (Horovod on Kubernetes; the collector dropped `<stdout>:`).
  AnalysisResult r = AnalyzeText(
      "[15]worker-23:83:2526 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from "
      "100.96.188.199<41468> failed : Connection timed out\n"
      "[15]worker-23:83:2526 [0] NCCL INFO misc/socket.cc:520 -> 2\n");
  EXPECT_TRUE(OneCulprit(r, 15, "worker-23"));
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
}

TEST(FieldRound10, TheSamePidOnAnotherHostIsAnotherProcess) {
  // Containers give every pod the same pids: a WARN of nodeA stays nodeA's, whatever nodeB's
  // process with that pid printed later.
  AnalysisResult r = AnalyzeText(
      "nodeA:83:2526 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 10.0.0.9<41468> "
      "failed : Connection timed out\n"
      "nodeB:83:2526 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.9<0>\n");
  EXPECT_TRUE(OneCulprit(r, -1, "nodeA"));
}

TEST(FieldRound10, AMarkdownBacktickIsNotPartOfTheHost) {
  // NVIDIA/nccl#928: a WARN quoted inline in prose.
  AnalysisResult r = AnalyzeText(
      "error log `H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got "
      "completion from peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4, opcode 32564, len "
      "32564, vendor err 81 (Send)`\n"
      "H100-2:19989:20082 [1] NCCL INFO transport/net.cc:1008 -> 6\n");
  ASSERT_EQ(r.job.processes.size(), 1u);
  EXPECT_EQ(r.job.processes[0].hostname, "H100-2");
}

TEST(FieldRound10, AnNcclTestsFailureOfAHostJoinsItsOneRankedProcess) {
  // NVIDIA/nccl#749 (RoCE in VMs): rank 4's verbs call times out; nccl-tests then fails on the
  // host. The verbs failure of rank 4 is the cause.
  AnalysisResult r = AnalyzeText(
      "vm-133:52744:52787 [0] ibvwrap.c:160 NCCL WARN Call to ibv_modify_qp failed with error "
      "Connection timed out\n"
      "vm-133:52744:52787 [0] NCCL INFO ib_plugin.c:297 -> 2\n"
      "vm-133:52744:52787 [0] proxy.cc:1119 NCCL WARN [Proxy Service 4] Failed to execute "
      "operation Connect from rank 4, retcode 2\n"
      "vm-133:52744:52744 [0] NCCL INFO group.cc:106 -> 3\n"
      "vm-133: Test NCCL failure common.cu:958 'internal error / '\n");
  EXPECT_TRUE(OneCulprit(r, 4, "vm-133"));
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
}

TEST(FieldRound10, FastSocketsChatterIsReadAndItsRetriesDoNotFailTheJob) {
  // google/nccl-fastsocket#4: the plugin retried, then connected; the reporter's job ran.
  AnalysisResult r = AnalyzeText(
      "full-debug2-test-1:4024:4048 [0] net_fastsocket.cc:765 NCCL WARN Cannot get incoming "
      "CPU.\n"
      "full-debug2-test-0:4300:4325 [0] net_fastsocket.cc:785 NCCL WARN Maximum retry reached "
      "for accept 3.\n"
      "full-debug2-test-0:4300:4325 [0] NCCL INFO accept qid: 3, rqid: 3\n"
      "full-debug2-test-0:4300:4325 [0] NCCL INFO accept incoming cpu: 0\n"
      "full-debug2-test-0:4300:4325 [0] NCCL INFO NET/FastSocket : Connected after 1000 "
      "retries.\n");
  EXPECT_EQ(r.job.stats.unrecognized, 0u);
  EXPECT_FALSE(r.root_cause.cause.job_failed);
  for (const Finding& f : r.findings) EXPECT_NE(f.severity, Severity::kError) << f.rule;
}

TEST(FieldRound10, AnEfaDeviceWithoutRdmaMeansNoGpuDirect) {
  // aws/aws-ofi-nccl#161 (SageMaker): libfabric's own warning.
  AnalysisResult r = AnalyzeText(
      "algo-1:462:462 [0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.3.0aws\n"
      "libfabric:462:1673041636:efa:core:rxr_info_to_rxr():506<warn> FI_HMEM capability "
      "requires RDMA, which this device does not support.\n");
  EXPECT_NE(FindingOf(r, "no-gdrdma"), nullptr);
}

}  // namespace
}  // namespace ncclscope
