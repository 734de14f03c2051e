// Held-out round 76's families (docs/triage.md): a process PyTorch took down (SIGABRT after
// "we are taking the entire process down") when nothing in the input says why, and NCCL 2.2's
// WARN that states the printer's own rank. Lines verbatim from the threads named.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::OneCulprit;

// NVIDIA-Merlin/Transformers4Rec#726 (host redacted by the reporter).
constexpr std::string_view kTakenDown =
    "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process "
    "down.\n"
    "<merlin-training>:255200:255473 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by "
    "remote peer <merlin-training>.ap-south-1.compute.internal<40048>\n"
    "<merlin-training>:255200:255473 [1] NCCL INFO transport/net_socket.cc:493 -> 6\n"
    "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 255200 closing signal "
    "SIGTERM\n"
    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 "
    "(pid: 255199) of binary: /home/ubuntu/miniconda3/envs/merlin_env_2/bin/python\n";

TEST(TakenDown, SigabrtAfterPyTorchsTeardownIsAnUnknownCollectiveFailureNotACrash) {
  const AnalysisResult r = AnalyzeText(kTakenDown);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "timeout-unknown");
  EXPECT_TRUE(OneCulprit(r, 0));
  EXPECT_EQ(r.root_cause.cause.confidence, Confidence::kLow);
}

TEST(TakenDown, WithoutTheTeardownLineSigabrtStaysACrash) {
  std::string text(kTakenDown);
  text.erase(0, text.find('\n') + 1);
  const AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "crash-signal");
  EXPECT_TRUE(OneCulprit(r, 0));
}

TEST(TakenDown, AnOwnNcclErrorBeforeItIsTheCause) {
  const AnalysisResult r = AnalyzeText(
      "<merlin-training>:255199:255470 [0] include/alloc.h:125 NCCL WARN Cuda failure 700 'an "
      "illegal memory access was encountered'\n" +
      std::string(kTakenDown));
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
}

// pytorch/pytorch#4921: NCCL 2.2's p2p.cu names the printing process's rank.
TEST(StatedRank, Nccl22IpcHandleWarnStatesThePrintersRank) {
  const AnalysisResult r = AnalyzeText(
      "c460c041:101211:106353 [0] init.cu:218 WARN Cuda failure 'out of memory'\n"
      "c460c041:101211:106353 [0] transport/p2p.cu:404 WARN rank 1 failed to get CUDA IPC handle "
      "to device 0 : 11 invalid argument\n"
      "c460c041:101211:106353 [0] INFO init.cu:191 -> 3\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "cuda-oom");
  EXPECT_TRUE(OneCulprit(r, 1, "c460c041"));
}

TEST(StatedRank, RankOfAnotherMessageShapeIsNotTaken) {
  // Only a message that starts "rank N failed to" states the printer's rank: "ranks 1 failed
  // to agree" (or "Duplicate GPU detected : rank 1 and rank 0 ...") does not.
  const AnalysisResult r = AnalyzeText(
      "c460c041:101211:106353 [0] init.cu:218 WARN Cuda failure 'out of memory'\n"
      "c460c041:101211:106353 [0] init.cc:840 NCCL WARN ranks 1 failed to agree\n");
  ASSERT_EQ(r.root_cause.cause.culprits.size(), 1u);
  EXPECT_EQ(r.root_cause.cause.culprits[0].rank, -1);
}

}  // namespace
}  // namespace ncclscope
