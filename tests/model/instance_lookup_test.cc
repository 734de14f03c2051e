// InstanceLookup (src/model/instance_lookup.h): the process instances by pid, rank and input that
// IncidentRecorder::Finish settles incidents with.
#include "model/instance_lookup.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace ncclscope {
namespace {

ProcessInstance Instance(std::string host, uint32_t pid, int attempt, int rank, uint32_t source) {
  ProcessInstance p;
  p.host = std::move(host);
  p.pid = pid;
  p.attempt = attempt;
  p.rank = rank;
  p.first.source = source;
  return p;
}

TEST(InstanceLookup, PidsAreFoundPerAttemptInInstanceOrder) {
  // Containers give every rank the same pid; a restart reuses it.
  const std::vector<ProcessInstance> instances = {
      Instance("node-a", 7, 0, 0, 0), Instance("node-b", 7, 0, 1, 1),
      Instance("node-a", 7, 1, 0, 0), Instance("node-a", 8, 0, -1, 2)};
  const InstanceLookup lookup(instances);
  EXPECT_EQ(lookup.WithPid(0, 7), (std::vector<int>{0, 1}));
  EXPECT_EQ(lookup.WithPid(1, 7), (std::vector<int>{2}));
  EXPECT_TRUE(lookup.WithPid(1, 8).empty());
  EXPECT_TRUE(lookup.WithPid(0, -1).empty());
  EXPECT_TRUE(lookup.WithPid(0, (int64_t{1} << 32) + 7).empty());  // no instance's pid
  EXPECT_EQ(lookup[1].host, "node-b");
}

TEST(InstanceLookup, RankGivesTheLastInstanceWithIt) {
  const std::vector<ProcessInstance> instances = {Instance("node-a", 7, 0, 3, 0),
                                                  Instance("node-b", 9, 0, 3, 1),
                                                  Instance("node-c", 5, 1, 3, 2)};
  const InstanceLookup lookup(instances);
  ASSERT_NE(lookup.LastWithRank(0, 3), nullptr);
  EXPECT_EQ(lookup.LastWithRank(0, 3)->host, "node-b");
  EXPECT_EQ(lookup.LastWithRank(1, 3)->host, "node-c");
  EXPECT_EQ(lookup.LastWithRank(0, 4), nullptr);
  EXPECT_EQ(lookup.LastWithRank(0, -1), nullptr);
}

TEST(InstanceLookup, InputWithOneInstanceNamesItAndWithSeveralNone) {
  const std::vector<ProcessInstance> instances = {
      Instance("node-a", 7, 0, 0, 0), Instance("node-a", 8, 0, 1, 1),
      Instance("node-a", 9, 0, 2, 1), Instance("node-a", 10, 1, 0, 1)};
  const InstanceLookup lookup(instances);
  ASSERT_NE(lookup.OnlyInSource(0, 0), nullptr);
  EXPECT_EQ(lookup.OnlyInSource(0, 0)->pid, 7u);
  EXPECT_EQ(lookup.OnlyInSource(0, 1), nullptr);  // two processes printed into input 1
  ASSERT_NE(lookup.OnlyInSource(1, 1), nullptr);  // one in the next attempt
  EXPECT_EQ(lookup.OnlyInSource(1, 1)->pid, 10u);
  EXPECT_EQ(lookup.OnlyInSource(0, 5), nullptr);
}

TEST(InstanceLookup, OneHostOnlyWhenEveryInstanceSharesTheFirstsHost) {
  EXPECT_TRUE(InstanceLookup(std::vector<ProcessInstance>{}).OneHost());
  const std::vector<ProcessInstance> same = {Instance("node-a", 7, 0, 0, 0),
                                             Instance("node-a", 8, 0, 1, 0)};
  EXPECT_TRUE(InstanceLookup(same).OneHost());
  const std::vector<ProcessInstance> two = {Instance("node-a", 7, 0, 0, 0),
                                            Instance("node-b", 8, 0, 1, 0)};
  EXPECT_FALSE(InstanceLookup(two).OneHost());
}

}  // namespace
}  // namespace ncclscope
