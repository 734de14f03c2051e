// PyTorch's failure to fetch the NCCL unique id from the creating rank's store ("[14] is setting
// up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0',
// but store->get('0') got error: Connection reset by peer"): rank 14's, a connection failure
// (network, connection-error), medium confidence since rank 14 is where it showed, not where it
// began. Lines quoted from a public thread (hiyouga/LLaMA-Factory#2470).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;
using testing::OneCulprit;

TEST(UniqueIdFetch, StoreErrorIsTheFetchingRanksConnectionFailure) {
  const AnalysisResult r = AnalyzeText(
      "gpu004:     work = default_pg.barrier(opts=opts)\n"
      "gpu004: RuntimeError: [14] is setting up NCCL communicator and retrieving ncclUniqueId "
      "from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection "
      "reset by peer. This may indicate a possible application crash on rank 0 or a network set "
      "up issue.\n");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_EQ(ConfidenceName(c.confidence), "medium");
  EXPECT_TRUE(OneCulprit(r, 14));
  EXPECT_TRUE(Has(c.reasoning, "store")) << c.reasoning;
  EXPECT_NE(FindingOf(r, "connection-error"), nullptr);
}

// corpus/h200x1-failures/late_rank0_45s.log: rank 0 sleeps before init_process_group; rank 1's
// fetch of the unique id times out, and torchrun then stops rank 0.
constexpr const char* kFetchTimedOut =
    "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving "
    "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: "
    "wait timeout after 15000ms, keys: /default_pg/0//cuda//0\n"
    "W1127 12:02:44.272000 578 torch/distributed/elastic/multiprocessing/api.py:1012] Sending "
    "process 594 closing signal SIGTERM\n"
    "E1127 12:02:44.387000 578 torch/distributed/elastic/multiprocessing/api.py:986] failed "
    "(exitcode: 1) local_rank: 1 (pid: 595) of binary: /opt/torch/.venv/bin/python\n";

TEST(UniqueIdFetch, TimeoutWaitingForACreatorThatNeverReachedInitIsItsLateStart) {
  const AnalysisResult r = AnalyzeText(kFetchTimedOut);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "late-start") << c.reasoning;
  EXPECT_EQ(ConfidenceName(c.confidence), "medium");
  EXPECT_TRUE(OneCulprit(r, 0));
  EXPECT_TRUE(Has(c.reasoning, "printed no NCCL init line")) << c.reasoning;
}

TEST(UniqueIdFetch, CreatorThatReachedInitStaysOutOfTheBlame) {
  // Rank 0's Init START is in the input: it was not late, whatever kept its store from answering.
  const AnalysisResult r = AnalyzeText(
      std::string("vm:594:594 [0] NCCL INFO ncclCommInitRankConfig comm 0x2ad5a410 rank 0 nranks 2 "
                  "cudaDev 0 nvmlDev 0 busId 60 commId 0xd15842adcb2cadc1 - Init START\n") +
      kFetchTimedOut);
  EXPECT_NE(CauseClassName(r.root_cause.cause.cls), "late-start");
}

TEST(UniqueIdFetch, OtherRuntimeErrorsStayPythonExceptions) {
  const AnalysisResult r = AnalyzeText(
      "[rank3]: RuntimeError: [3] is setting up the data loader and got error: file not found\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "python-exception");
  EXPECT_EQ(FindingOf(r, "connection-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
