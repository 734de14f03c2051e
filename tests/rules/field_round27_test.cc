// The families the twenty-seventh and twenty-eighth held-out rounds of public logs exposed
// (docs/triage.md): P2P and SHM trouble on one machine, and jobs that died under frameworks that
// raise NCCL's result string in their own words. Lines verbatim from the threads named, each with
// the case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// microsoft/WSL#12467: two vLLM workers interleave their tracebacks; pid 3985's "Last error:"
// detail comes after a line of pid 3984.
constexpr std::string_view kWslWorkers =
    "(VllmWorkerProcess pid=3985) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226] "
    "torch.distributed.DistBackendError: NCCL error in: "
    "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with "
    "NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
    "(VllmWorkerProcess pid=3984) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226]     "
    "torch.distributed.all_reduce(input_, group=self.device_group)\n"
    "(VllmWorkerProcess pid=3985) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226] "
    "ncclUnhandledCudaError: Call to CUDA function failed.\n"
    "(VllmWorkerProcess pid=3985) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226] Last "
    "error:\n"
    "(VllmWorkerProcess pid=3984) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226]   File "
    "\"/usr/local/lib/python3.8/dist-packages/torch/distributed/c10d_logger.py\", line 79, in "
    "wrapper\n"
    "(VllmWorkerProcess pid=3985) ERROR 01-15 02:47:32 multiproc_worker_utils.py:226] Error "
    "while creating shared memory segment /dev/shm/nccl-g0wGsu (size 9637888)\n";

TEST(FieldRound27, InterleavedWorkersKeepTheirLastErrorDetail) {
  const AnalysisResult r = AnalyzeText(kWslWorkers);
  ASSERT_NE(FindingOf(r, "shm-failure"), nullptr);
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kNcclError);
  EXPECT_TRUE(Has(rc.what, "/dev/shm/nccl-g0wGsu")) << rc.what;
  EXPECT_FALSE(Has(rc.what, "c10d_logger.py")) << rc.what;
  // The worker's prefix names its process.
  ASSERT_FALSE(rc.culprits.empty());
  EXPECT_EQ(rc.culprits.front().pid, 3985);
}

// NVIDIA/nccl#1706: one process drives GPUs 0 and 1 (ncclCommInitAll) and NCCL's P2P check says
// 0: these GPUs cannot use P2P with each other.
constexpr std::string_view kOneProcessTwoGpus =
    "deepseek:2081594:2081600 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 1\n"
    "deepseek:2081594:2081604 [1] NCCL INFO [Proxy Service] Device 1 CPU core 13\n"
    "deepseek:2081594:2081605 [0] NCCL INFO [Proxy Service] Device 0 CPU core 38\n"
    "deepseek:2081594:2081601 [1] NCCL INFO ncclCommInitAll comm 0x55f68495f4f0 rank 1 nranks 2 "
    "cudaDev 1 nvmlDev 1 busId 34000 commId 0x76b3b6be637caf1c - Init COMPLETE\n";

TEST(FieldRound27, P2pCheckZeroCountsWhenOneProcessDrivesSeveralGpus) {
  const AnalysisResult r = AnalyzeText(kOneProcessTwoGpus);
  const Finding* f = FindingOf(r, "p2p-disabled");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "intraNodeP2pSupport 0")) << f->message;
  // The same check in a process of one GPU, with nothing saying ranks share its node: NCCL
  // prints 0 for a node of one rank too, so it proves nothing.
  const AnalysisResult alone = AnalyzeText(
      "deepseek:2081594:2081600 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 1\n"
      "deepseek:2081594:2081605 [0] NCCL INFO [Proxy Service] Device 0 CPU core 38\n");
  EXPECT_EQ(FindingOf(alone, "p2p-disabled"), nullptr);
}

TEST(FieldRound27, HorovodNcclFailureIsAnNcclAndCudaError) {
  // horovod/horovod#3618
  const AnalysisResult r = AnalyzeText(
      "    raise HorovodInternalError(e)\n"
      "horovod.common.exceptions.HorovodInternalError: ncclAllReduce failed: unhandled cuda "
      "error\n");
  const Finding* f = FindingOf(r, "nccl-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "ncclAllReduce")) << f->message;
  EXPECT_NE(FindingOf(r, "cuda-error"), nullptr);
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNcclError);
  // A system error is no CUDA error.
  const AnalysisResult sys = AnalyzeText(
      "tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: "
      "unhandled system error\n");
  EXPECT_NE(FindingOf(sys, "nccl-error"), nullptr);
  EXPECT_EQ(FindingOf(sys, "cuda-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
