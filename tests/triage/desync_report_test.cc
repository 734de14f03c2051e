// PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1) names the ranks that caused a collective
// timeout; they are the root cause (stuck-rank), and the ranks that timed out waiting are its
// fallout. Lines quoted from a public thread (pytorch/pytorch#152623, held-out round 24) and
// from the report's format strings (TraceUtils.h retrieveDesyncReport).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

constexpr std::string_view kReport =
    "[rank0]:[E515 18:36:47.341808597 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=241, OpType=ALLREDUCE, NumelIn=6, NumelOut=6, "
    "Timeout(ms)=600000) ran for 600086 milliseconds before timing out.\n"
    "[rank0]:[E515 18:36:47.343377708 ProcessGroupNCCL.cpp:1937] Rank 0\n"
    "         - [0] Timeout at collective: ALLREDUCE, #315\n"
    "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync "
    "are:\n"
    "             [7] finished collective #182, but didn't join collective #183 (count from 1)\n"
    "         - Snapshot of ranks' latest states:\n"
    "           #182 finished ranks:\n"
    "             [7] finished ALLREDUCE\n"
    "           #315 started ranks:\n"
    "             [0, 1, 2] started ALLREDUCE\n";

std::vector<int> CulpritRanks(const AnalysisResult& r) {
  std::vector<int> out;
  for (const Culprit& c : r.root_cause.cause.culprits) out.push_back(c.rank);
  return out;
}

TEST(DesyncReport, LaggingRankLineIsAFrameworkEvent) {
  const testing::Parsed p = testing::ParseOne(
      "             [7] finished collective #182, but didn't join collective #183 (count from 1)");
  ASSERT_EQ(EventTypeName(p.event.data), "framework_event");
  const auto& f = std::get<FrameworkEvent>(p.event.data);
  EXPECT_EQ(f.kind, FrameworkKind::kDesyncLagging);
  EXPECT_EQ(f.detail, "7");
  EXPECT_EQ(f.seq, 183);
}

TEST(DesyncReport, StuckAndNeverJoinedLinesNameTheirRanks) {
  const testing::Parsed stuck = testing::ParseOne(
      "\t   - [47, 48] joined but didn't finish collective #41207 (count from 1)");
  ASSERT_EQ(EventTypeName(stuck.event.data), "framework_event");
  EXPECT_EQ(std::get<FrameworkEvent>(stuck.event.data).kind, FrameworkKind::kDesyncStuck);
  EXPECT_EQ(std::get<FrameworkEvent>(stuck.event.data).detail, "47, 48");
  const testing::Parsed never = testing::ParseOne(
      "\t - To our best knowledge, ranks [3] are the lagging ranks that caused this timeout. They "
      "never joined any collectives");
  ASSERT_EQ(EventTypeName(never.event.data), "framework_event");
  EXPECT_EQ(std::get<FrameworkEvent>(never.event.data).kind, FrameworkKind::kDesyncNeverJoined);
}

TEST(DesyncReport, SnapshotLinesBlameNobody) {
  // "[7] finished ALLREDUCE" and "[0, 1, 2] started ALLREDUCE" list states, not culprits.
  for (std::string_view line :
       {"             [7] finished ALLREDUCE", "             [0, 1, 2] started ALLREDUCE"}) {
    const testing::Parsed p = testing::ParseOne(line);
    EXPECT_NE(EventTypeName(p.event.data), "framework_event") << line;
  }
}

TEST(DesyncReport, BlamedRankIsTheRootCauseAndTheWaiterItsFallout) {
  const AnalysisResult r = AnalyzeText(kReport);
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kStuckRank);
  EXPECT_EQ(rc.confidence, Confidence::kHigh);
  EXPECT_EQ(CulpritRanks(r), (std::vector<int>{7}));
  EXPECT_NE(rc.what.find("did not join collective #183"), std::string::npos) << rc.what;
  ASSERT_FALSE(rc.fallout.empty());
  EXPECT_EQ(rc.fallout.front().rank, 0);
}

TEST(DesyncReport, EveryRankJoinedAndNoneFinishedBlamesNoRank) {
  // hiyouga/LlamaFactory#9496 (held-out round 30): the reporting rank 6 is itself among the ranks
  // that joined collective #730 without finishing it, so no rank lagged: the collective stalled.
  const AnalysisResult r = AnalyzeText(
      "[rank6]:[E1115 16:42:37.766242859 ProcessGroupNCCL.cpp:629] [Rank 6] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=730, OpType=ALLREDUCE, NumelIn=544997376, "
      "NumelOut=544997376, Timeout(ms)=600000) ran for 600027 milliseconds before timing out.\n"
      "[rank6]:[E1115 16:42:37.768057301 ProcessGroupNCCL.cpp:1936] Rank 6\n"
      "\t - [6] Timeout at collective: ALLREDUCE, #730\n"
      "\t - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
      "\t   - [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] joined but didn't finish "
      "collective #730 (count from 1)\n"
      "\t - Snapshot of ranks' latest states:\n"
      "\t   #730 started ranks:\n"
      "\t     [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] started ALLREDUCE\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_EQ(rc.cls, CauseClass::kTimeoutUnknown);
  EXPECT_TRUE(rc.culprits.empty());
  EXPECT_NE(rc.what.find("#730"), std::string::npos) << rc.what;
  // Ranks that joined an older collective than the reporter's still lag behind it.
  const AnalysisResult lag = AnalyzeText(
      "[rank6]:[E1115 16:42:37.766242859 ProcessGroupNCCL.cpp:629] [Rank 6] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=731, OpType=ALLREDUCE, NumelIn=5, "
      "NumelOut=5, Timeout(ms)=600000) ran for 600027 milliseconds before timing out.\n"
      "\t   - [3] joined but didn't finish collective #730 (count from 1)\n");
  EXPECT_EQ(lag.root_cause.cause.cls, CauseClass::kStuckRank);
  EXPECT_EQ(CulpritRanks(lag), (std::vector<int>{3}));
}

TEST(DesyncReport, WithoutTheReportTheTimeoutsAreCompared) {
  // The same timeout without the report: one rank timed out, nothing says who lagged.
  const std::string alone(kReport.substr(0, kReport.find("[rank0]:[E515 18:36:47.343377708")));
  const AnalysisResult r = AnalyzeText(alone);
  EXPECT_NE(r.root_cause.cause.cls, CauseClass::kStuckRank);
  EXPECT_TRUE(CulpritRanks(r).empty());
}

}  // namespace
}  // namespace ncclscope
