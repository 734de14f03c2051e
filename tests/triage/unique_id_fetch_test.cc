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

TEST(UniqueIdFetch, OtherRuntimeErrorsStayPythonExceptions) {
  const AnalysisResult r = AnalyzeText(
      "[rank3]: RuntimeError: [3] is setting up the data loader and got error: file not found\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "python-exception");
  EXPECT_EQ(FindingOf(r, "connection-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
