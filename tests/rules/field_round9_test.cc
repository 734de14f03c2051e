// The families the ninth held-out round of public logs exposed (docs/triage.md): jobs that died,
// lines verbatim from the threads named, each with the case where the tool must not conclude
// the same.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::OneCulprit;

TEST(FieldRound9, APidWhoseNcclLinesAreAllNoiseStillNamesItsHost) {
  // pytorch/pytorch#135486 (srun -l): the crashed process printed one NCCL line, known noise.
  AnalysisResult r = AnalyzeText(
      "0: g1002:2128869:2128880 [0] NCCL INFO Setting affinity for GPU 0 to ffff0000,00000000\n"
      "0: Fatal Python error: Segmentation fault\n"
      "0: E0909 14:03:50.013000 22579342468928 torch/distributed/elastic/multiprocessing/"
      "api.py:833] failed (exitcode: -11) local_rank: 0 (pid: 2128869) of binary: /bin/python\n");
  EXPECT_TRUE(OneCulprit(r, 0, "g1002"));
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kCrashSignal);
}

TEST(FieldRound9, TheLocalLaunchersProcessRunsOnTheInputsOneHost) {
  // mlcommons/training#770 (accelerate): the survivors' service threads on one host, then
  // torchelastic's line for the process that aborted.
  AnalysisResult r = AnalyzeText(
      "nb-e3p9s3o28rnk-0:21615:21978 [6] NCCL INFO [Service thread] Connection closed by "
      "localRank 2\n"
      "nb-e3p9s3o28rnk-0:21612:22750 [3] NCCL INFO [Service thread] Connection closed by "
      "localRank 4\n"
      "[2024-11-14 06:04:09,095] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
      "(exitcode: -6) local_rank: 5 (pid: 21617) of binary: /opt/conda/bin/python\n");
  EXPECT_TRUE(OneCulprit(r, 5, "nb-e3p9s3o28rnk-0"));
}

TEST(FieldRound9, TwoHostsLeaveALaunchersPidWithoutAHost) {
  AnalysisResult r = AnalyzeText(
      "nodeA:21615:21978 [0] NCCL INFO [Service thread] Connection closed by localRank 2\n"
      "nodeB:21612:22750 [0] NCCL INFO [Service thread] Connection closed by localRank 4\n"
      "[2024-11-14 06:04:09,095] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
      "(exitcode: -6) local_rank: 5 (pid: 21617) of binary: /opt/conda/bin/python\n");
  for (const Culprit& c : r.root_cause.cause.culprits) EXPECT_EQ(c.host, "");
}

TEST(FieldRound9, AProxysFailedOperationBeforeASegfaultIsNotWhatEndedTheProcess) {
  // NVIDIA/nccl#1538: the proxy of rank 2 fails its Connect, then the process segfaults.
  const std::string host = "job-3bb823c0-6d27-4312-8094-1c5910bf9b51-worker-0";
  AnalysisResult r = AnalyzeText(
      host + ":5665:5811 [2] NCCL INFO comm 0x5600 rank 2 nranks 8 cudaDev 2 nvmlDev 2 busId "
             "3b000 commId 0x1234 - Init START\n" +
      host + ":5665:5811 [2] NCCL INFO transport.cc:166 -> 2\n" + host +
      ":5665:5801 [2] proxy.cc:1487 NCCL WARN [Service thread] Error encountered progressing "
      "operation=Connect, res=3, closing connection\n" +
      host + ":5665:5801 [2] proxy.cc:1521 NCCL WARN [Proxy Service 2] Failed to execute "
             "operation Connect from rank 2, retcode 3\n"
             "[" + host + ":5665 :0:5665] Caught signal 11 (Segmentation fault: address not "
             "mapped to object at address (nil))\n");
  EXPECT_TRUE(OneCulprit(r, 2, host));
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kCrashSignal);
}

TEST(FieldRound9, PyTorchsOwnNcclSettingsAreNotNcclSettings) {
  // om-ai-lab/VLM-R1#257 (a wrapped heartbeat message) and a launcher's environment echo.
  AnalysisResult r = AnalyzeText(
      "HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monitor "
      "(TORCH_NCCL_ENABLE_MONITORING=0).If either\n"
      "env: WL_MODE=stuck TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1\n"
      "env: NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
  EXPECT_EQ(r.job.stats.events_by_type["env_setting"], 2u);  // only the NCCL_* ones
}

TEST(FieldRound9, CollectivesOnADeadCommunicatorAreExplainedAsFallout) {
  // horovod/horovod#3625, under mpirun's tags.
  AnalysisResult r = AnalyzeText(
      "[1,0]<stdout>:biomind:6502:6588 [0] misc/argcheck.cc:39 NCCL WARN AllReduce : invalid "
      "root 0 (root should be in the 0..-1 range)\n"
      "[1,0]<stdout>:biomind:6502:6588 [0] init.cc:1137 NCCL WARN comm 0x7fd72034c4d0 has "
      "already been destroyed\n");
  const Finding* f = FindingOf(r, "nccl-warn");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("failed or was destroyed"), std::string::npos) << f->title;
}

}  // namespace
}  // namespace ncclscope
