// Every rank timed out in one collective and none lagged, but one rank printed an NCCL error of
// its own before that: the error is the root cause and the timeouts are its fallout. Built on the
// real 4-rank H200 run of corpus/h200x4/hang.log (its lines up to the stuck rank's message), with
// PyTorch's watchdog lines of that run for all four ranks.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

/// hang.log up to "rank 3: simulating a stuck rank" (the four ranks' init and connections).
std::string InitOfFourRanks() {
  std::istringstream in(ReadFileOrDie(TestData("corpus/h200x4/hang.log")));
  std::string out, line;
  while (std::getline(in, line) && line.find("simulating a stuck rank") == std::string::npos) {
    out += line + "\n";
  }
  return out;
}

/// The watchdog's timeout line of hang.log, for rank `r` at 13:39:41.7xx.
std::string TimeoutOf(int r) {
  return "[rank" + std::to_string(r) + "]:[E1121 13:39:41.7" + std::to_string(20 + r) +
         "410739 ProcessGroupNCCL.cpp:689] [Rank " + std::to_string(r) +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, "
         "NumelIn=16777216, NumelOut=16777216, Timeout(ms)=25000) ran for 2502" +
         std::to_string(r) + " milliseconds before timing out.\n";
}

std::string AllRanksTimeOut() {
  std::string out;
  for (int r = 0; r < 4; ++r) out += TimeoutOf(r);
  return out;
}

const RootCause& CauseOf(const AnalysisResult& r) { return r.root_cause.cause; }

/// The four ranks' init, then `lines`, then every rank's timeout.
AnalysisResult WithLinesBeforeTheTimeouts(const std::string& lines) {
  return AnalyzeText(InitOfFourRanks() + lines + AllRanksTimeOut());
}

/// The root cause the timeouts alone give: a stall no rank is named for.
void ExpectNoRankNamed(const AnalysisResult& r) {
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "timeout-unknown");
  EXPECT_TRUE(CauseOf(r).culprits.empty());
}

TEST(ErrorBehindStall, AllRanksTimingOutTogetherNameNoRank) {
  ExpectNoRankNamed(WithLinesBeforeTheTimeouts(""));
}

TEST(ErrorBehindStall, OneRanksCudaFailureBeforeTheTimeoutsIsTheRootCause) {
  // Rank 2 (pid 3888) hit an illegal memory access in a proxy thread; the collective then
  // stalled on every rank.
  const AnalysisResult r = WithLinesBeforeTheTimeouts(
      "vm:3888:3950 [2] NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n"
      "vm:3888:3950 [2] NCCL INFO transport/p2p.cc:450 -> 1\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, 2);
  EXPECT_NE(c.reasoning.find("no rank lagged or differed in the timeouts that followed"),
            std::string::npos)
      << c.reasoning;
  // The other ranks' timeouts are its fallout; rank 2's own timeout is not fallout of itself.
  int timed_out = 0;
  for (const Fallout& f : c.fallout) {
    EXPECT_NE(f.rank, 2);
    timed_out += f.what.find("timed out") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(timed_out, 3);
}

TEST(ErrorBehindStall, APeerGoingAwayIsNotTheCauseOfTheStall) {
  // A closed connection is a consequence of some other process ending: no rank is named for it.
  ExpectNoRankNamed(WithLinesBeforeTheTimeouts(
      "vm:3888:3950 [2] NCCL WARN Net : Connection closed by remote peer vm<58512>\n"));
}

TEST(ErrorBehindStall, AnErrorStampedBeforeTheFirstTimeoutIsTheRootCause) {
  // NCCL 2.26.2+ stamps its WARN lines ("[%F %T] "): 11 seconds before the first timeout.
  const AnalysisResult r = WithLinesBeforeTheTimeouts(
      "[2025-11-21 13:39:30] vm:3888:3950 [2] NCCL WARN Cuda failure 700 'an illegal memory "
      "access was encountered'\n");
  ASSERT_EQ(CauseOf(r).culprits.size(), 1u);
  EXPECT_EQ(CauseOf(r).culprits[0].rank, 2);
}

TEST(ErrorBehindStall, AnErrorStampedAfterTheFirstTimeoutIsLeftToTheTimeouts) {
  // The same line two seconds after the first timeout may be the abort's echo.
  ExpectNoRankNamed(AnalyzeText(
      InitOfFourRanks() + AllRanksTimeOut() +
      "[2025-11-21 13:39:43] vm:3888:3950 [2] NCCL WARN Cuda failure 700 'an illegal memory "
      "access was encountered'\n"));
}

}  // namespace
}  // namespace ncclscope::testing
