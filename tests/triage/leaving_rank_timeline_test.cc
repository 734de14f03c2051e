// The failure timeline's row of a rank that left the job (real jobs of
// testdata/corpus/h200x2-failures): it says what said so, PyTorch's exit warning or NCCL's end
// of the rank's world communicator, and it is the first failure.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/triage/failure_timeline.h"
#include "test_util.h"

namespace ncclscope {
namespace {

/// The row of the attempt's first kOrderlyExit incident, or an empty row.
TimelineRow LeavingRow(const std::string& file) {
  AnalyzeOptions o;
  o.inputs = {testing::TestData("corpus/h200x2-failures/" + file)};
  o.jobs = 1;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(o, &r).ok());
  EXPECT_FALSE(r.root_cause.attempts.empty());
  for (TimelineRow& row : BuildFailureTimeline(r.job, r.root_cause.attempts.front())) {
    if (row.incident->kind == IncidentKind::kOrderlyExit) return row;
  }
  return {};
}

TEST(LeavingRankTimeline, AnAbortedCommunicatorIsNcclsWordNotPyTorchs) {
  // Rank 1 exits with NCCL_DEBUG=INFO: NCCL aborts its communicator, PyTorch prints nothing.
  const TimelineRow row = LeavingRow("exit0_p2p.log");
  ASSERT_NE(row.incident, nullptr);
  EXPECT_TRUE(row.first_failure);
  EXPECT_NE(row.summary.find("NCCL aborts its world communicator"), std::string::npos)
      << row.summary;
  EXPECT_NE(row.summary.find("Abort START"), std::string::npos) << row.summary;
  EXPECT_EQ(row.summary.find("PyTorch"), std::string::npos) << row.summary;
}

TEST(LeavingRankTimeline, PyTorchsExitWarningIsNamedAsSuch) {
  // NCCL_DEBUG=WARN: rank 0's only sign of leaving is PyTorch's exit warning.
  const TimelineRow row = LeavingRow("exit0_p2p_warn.log");
  ASSERT_NE(row.incident, nullptr);
  EXPECT_TRUE(row.first_failure);
  EXPECT_NE(row.summary.find("destroy_process_group() was not called"), std::string::npos)
      << row.summary;
}

}  // namespace
}  // namespace ncclscope
