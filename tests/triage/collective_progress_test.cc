// A job that hung and was stopped from outside before any timeout fired (a scheduler's time
// limit): with NCCL_DEBUG_SUBSYS=COLL, each rank's last `AllReduce: opCount N ... comm 0x..` line
// says how far it got, and the rank behind the others is the one that stopped. Real jobs of
// testdata/corpus/h200x1-failures (batch 9: SIGTERM to torchrun after 40-45 s, 30-minute
// timeouts).
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

std::string Corpus(const std::string& file) {
  return testing::ReadFileOrDie(testing::TestData("corpus/h200x1-failures/" + file));
}

std::set<int> CulpritRanks(const RootCause& c) {
  std::set<int> out;
  for (const Culprit& k : c.culprits) out.insert(k.rank);
  return out;
}

/// `text` with every line for which `drop` is true left out.
template <typename Pred>
std::string Without(const std::string& text, Pred drop) {
  std::istringstream in(text);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    if (!drop(l)) out += l + "\n";
  }
  return out;
}

TEST(CollectiveProgress, EachRanksLastCollectiveIsKeptWhereTheRanksDiffer) {
  const AnalysisResult r = AnalyzeText(Corpus("hang_coll_stuck_rank1.log"));
  ASSERT_EQ(r.job.comms.size(), 1u);
  const Communicator& c = r.job.comms[0];
  ASSERT_EQ(c.ranks.size(), 2u);
  ASSERT_GE(c.ranks.at(0).last_collective, 0);
  ASSERT_GE(c.ranks.at(1).last_collective, 0);
  const LastCollective& ahead = r.job.last_collectives.at(c.ranks.at(0).last_collective);
  const LastCollective& behind = r.job.last_collectives.at(c.ranks.at(1).last_collective);
  EXPECT_EQ(ahead.op_count, 3u);
  EXPECT_EQ(behind.op_count, 2u);
  EXPECT_EQ(ahead.line.line, 79u);
  EXPECT_FALSE(ahead.p2p);
  // Both quoted: rank 1 is behind, rank 0 the first ahead; each is its process's last COLL line.
  EXPECT_NE(behind.line.text.str().find("AllReduce: opCount 2 "), std::string::npos);
  EXPECT_NE(ahead.line.text.str().find("AllReduce: opCount 3 "), std::string::npos);
}

TEST(CollectiveProgress, NothingIsKeptWhereEveryRankGotAsFar) {
  // A job of thousands of ranks that all enqueued the same collectives keeps no positions.
  const AnalysisResult r = AnalyzeText(Corpus("hang_coll_running_of4.log"));
  EXPECT_TRUE(r.job.last_collectives.empty());
  for (const Communicator& c : r.job.comms) {
    for (const auto& [rank, cr] : c.ranks) EXPECT_EQ(cr.last_collective, -1) << c.id;
  }
}

TEST(CollectiveProgress, TheRankBehindWhenTheJobWasStoppedIsTheStuckRank) {
  const AnalysisResult r = AnalyzeText(Corpus("hang_coll_stuck_rank1.log"));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "stuck-rank");
  EXPECT_EQ(CulpritRanks(c), std::set<int>{1}) << c.reasoning;
  EXPECT_EQ(c.confidence, Confidence::kMedium);
  EXPECT_NE(c.reasoning.find("rank 0 reached opCount 3, rank 1 stopped at 2"), std::string::npos)
      << c.reasoning;
  // The evidence quotes the stop and the stuck rank's last collective.
  bool quoted = false;
  for (const Evidence& e : c.evidence) quoted = quoted || e.line == 77;
  EXPECT_TRUE(quoted);
}

TEST(CollectiveProgress, NcclRootBehindAmongFourRanks) {
  const RootCause& c = AnalyzeText(Corpus("hang_coll_stuck_rank0_of4.log")).root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "stuck-rank");
  EXPECT_EQ(CulpritRanks(c), std::set<int>{0}) << c.reasoning;
}

TEST(CollectiveProgress, SocketsClosingAfterTheStopAreTeardownNotTheCause) {
  // Subgroups [0,1], [2,3] and the world: rank 3 is behind on both of its communicators; rank
  // 1's NCCL WARN "Connection closed by remote peer" comes after torchrun's "Received 15 death
  // signal" (the launcher ending the workers), and was read as the peer going away.
  const RootCause& c =
      AnalyzeText(Corpus("hang_coll_subgroup_stuck_rank3_of4.log")).root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "stuck-rank");
  EXPECT_EQ(CulpritRanks(c), std::set<int>{3}) << c.reasoning;
}

TEST(CollectiveProgress, RanksAtTheSameCollectiveNameNoRank) {
  // Stopped while running: every rank's last line has the same opCount.
  const RootCause& c = AnalyzeText(Corpus("hang_coll_running_of4.log")).root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "timeout-unknown");
  EXPECT_TRUE(c.culprits.empty()) << c.reasoning;
}

TEST(CollectiveProgress, ACommunicatorWithARankMissingFromTheInputIsNotCompared) {
  // Rank 1's process (pid 614) left out, as from a log of one pod only: rank 0 is "ahead" of
  // nobody the input shows.
  const std::string text = Without(Corpus("hang_coll_stuck_rank1.log"),
                                   [](const std::string& l) { return l.rfind("vm:614:", 0) == 0; });
  const RootCause& c = AnalyzeText(text).root_cause.cause;
  EXPECT_NE(CauseClassName(c.cls), "stuck-rank") << c.reasoning;
}

TEST(CollectiveProgress, PointToPointCountsAreNotCompared) {
  // The same job as if rank 0's last operation had been a Send (p2p operations count only on the
  // ranks that call them): the communicator's counts are not comparable, no rank is named.
  std::string p2p = Corpus("hang_coll_stuck_rank1.log");
  const std::string from = "vm:613:613 [0] NCCL INFO AllReduce: opCount 3 ";
  const size_t at = p2p.find(from);
  ASSERT_NE(at, std::string::npos);
  p2p.replace(at, from.size(), "vm:613:613 [0] NCCL INFO Send: opCount 3 ");
  const RootCause& c = AnalyzeText(p2p).root_cause.cause;
  EXPECT_NE(CauseClassName(c.cls), "stuck-rank") << c.reasoning;
}

TEST(CollectiveProgress, ParallelReadingKeepsTheSameLastCollectives) {
  // -j 2 over pieces of 3,000 bytes: the condensed pieces keep each communicator's last COLL
  // line per run, so the positions (and the answer) are those of the single read.
  const std::string path =
      testing::TestData("corpus/h200x1-failures/hang_coll_subgroup_stuck_rank3_of4.log");
  AnalyzeOptions one, many;
  one.inputs = many.inputs = {path};
  one.jobs = 1;
  many.jobs = 2;
  many.piece_bytes = 3000;
  many.sample_pieces = false;
  AnalysisResult a, b;
  ASSERT_TRUE(Analyze(one, &a).ok());
  ASSERT_TRUE(Analyze(many, &b).ok());
  EXPECT_EQ(CulpritRanks(a.root_cause.cause), CulpritRanks(b.root_cause.cause));
  EXPECT_EQ(a.root_cause.cause.reasoning, b.root_cause.cause.reasoning);
}

}  // namespace
}  // namespace ncclscope
