// MatchCommunicators: by size and rank layout, in creation order for repeated shapes, never by
// pointer or commId; every communicator appears in exactly one pair.
#include <gtest/gtest.h>

#include "ncclscope/diff/run_diff.h"

namespace ncclscope {
namespace {

CommSnapshot Comm(std::string id, std::vector<int> global_ranks) {
  CommSnapshot c;
  c.id = std::move(id);
  c.nranks = static_cast<int>(global_ranks.size());
  c.global_ranks = std::move(global_ranks);
  return c;
}

using Pairs = std::vector<std::pair<int, int>>;

TEST(CommMatchingTest, SameLayoutsMatchWhateverTheirIdsAndOrder) {
  // World, TP {0,1} {2,3}, DP {0,2} {1,3}; AFTER created the DP groups first.
  const std::vector<CommSnapshot> a = {Comm("0x1", {0, 1, 2, 3}), Comm("0x1/split1", {0, 1}),
                                       Comm("0x1/split2", {2, 3}), Comm("0x1/split3", {0, 2}),
                                       Comm("0x1/split4", {1, 3})};
  const std::vector<CommSnapshot> b = {Comm("0x9", {0, 1, 2, 3}), Comm("0x9/split1", {0, 2}),
                                       Comm("0x9/split2", {1, 3}), Comm("0x9/split3", {0, 1}),
                                       Comm("0x9/split4", {2, 3})};
  EXPECT_EQ(MatchCommunicators(a, b), (Pairs{{0, 0}, {1, 3}, {2, 4}, {3, 1}, {4, 2}}));
}

TEST(CommMatchingTest, RepeatedShapesPairInCreationOrder) {
  const std::vector<CommSnapshot> a = {Comm("a", {0, 1}), Comm("b", {0, 1})};
  const std::vector<CommSnapshot> b = {Comm("c", {0, 1}), Comm("d", {0, 1}), Comm("e", {0, 1})};
  EXPECT_EQ(MatchCommunicators(a, b), (Pairs{{0, 0}, {1, 1}, {-1, 2}}));
}

TEST(CommMatchingTest, DifferentKnownLayoutsNeverPair) {
  const std::vector<CommSnapshot> a = {Comm("a", {0, 1})};
  const std::vector<CommSnapshot> b = {Comm("b", {0, 2})};
  EXPECT_EQ(MatchCommunicators(a, b), (Pairs{{0, -1}, {-1, 0}}));
}

TEST(CommMatchingTest, UnknownLayoutPairsBySize) {
  CommSnapshot partial = Comm("a", {0, -1, 2, 3});  // Rank 1's log is missing.
  CommSnapshot old_report;                          // A report without global_ranks.
  old_report.id = "b";
  old_report.nranks = 2;
  const std::vector<CommSnapshot> a = {partial, old_report};
  const std::vector<CommSnapshot> b = {Comm("c", {0, 1}), Comm("d", {0, 1, 2, 3})};
  EXPECT_EQ(MatchCommunicators(a, b), (Pairs{{0, 1}, {1, 0}}));
}

TEST(CommMatchingTest, AfterOnlyCommunicatorsFollowTheirPredecessor) {
  const std::vector<CommSnapshot> a = {Comm("a", {0, 1, 2, 3}), Comm("b", {0, 1})};
  const std::vector<CommSnapshot> b = {Comm("c", {0, 1, 2, 3}), Comm("d", {2, 3}),
                                       Comm("e", {0, 1})};
  EXPECT_EQ(MatchCommunicators(a, b), (Pairs{{0, 0}, {-1, 1}, {1, 2}}));
}

TEST(CommMatchingTest, EmptyRuns) {
  EXPECT_TRUE(MatchCommunicators({}, {}).empty());
  EXPECT_EQ(MatchCommunicators({Comm("a", {0})}, {}), (Pairs{{0, -1}}));
}

}  // namespace
}  // namespace ncclscope
