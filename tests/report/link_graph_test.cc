// The link graph behind dot/mermaid/html: communicator choice, grouping, aggregation.
#include "ncclscope/report/link_graph.h"

#include <gtest/gtest.h>

#include "report/report_fixtures.h"

namespace ncclscope {
namespace {

using testing::CorpusCase;
using testing::MakeRingJob;

TEST(LinkGraph, TwoNodesLogGroupsRanksBySimulatedNodeWithSocketBottleneck) {
  auto c = CorpusCase("corpus/h200x4/two_nodes.log");
  int comm = DefaultGraphComm(c.job);
  ASSERT_EQ(comm, 0);
  LinkGraph g = BuildLinkGraph(c.job, comm);
  EXPECT_FALSE(g.by_host);
  ASSERT_EQ(g.groups.size(), 2u);
  EXPECT_EQ(g.groups[0].name, "simhost0");
  EXPECT_EQ(g.groups[0].host, "vm");
  EXPECT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.bottleneck, TransportClass::kNetSocket);
  ASSERT_FALSE(g.edges.empty());
  for (const auto& e : g.edges) {
    bool same_group = g.nodes[e.a].group == g.nodes[e.b].group;
    EXPECT_EQ(e.cls, same_group ? TransportClass::kP2P : TransportClass::kNetSocket);
    EXPECT_EQ(e.bottleneck, !same_group);
    EXPECT_LT(e.a, e.b);
  }
  EXPECT_EQ(g.classes,
            (std::set<TransportClass>{TransportClass::kP2P, TransportClass::kNetSocket}));
}

TEST(LinkGraph, PairWithTwoClassesKeepsTheSlowestAndBothDirections) {
  Job job = MakeRingJob(1, 2, TransportClass::kNVL, TransportClass::kNetIB);
  job.links.push_back(testing::MakeLink(0, 0, 1, TransportClass::kSHM, true));
  LinkGraph g = BuildLinkGraph(job, 0);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].cls, TransportClass::kSHM);
  EXPECT_TRUE(g.edges[0].forward && g.edges[0].backward);
  EXPECT_EQ(g.edges[0].counts.at(TransportClass::kNVL), 2);
}

TEST(LinkGraph, DefaultCommunicatorIsTheLargestWithLinks) {
  Job job = MakeRingJob(2, 2, TransportClass::kNVL, TransportClass::kNetIB);
  Communicator small;
  small.id = "0xsmall";
  small.nranks = 2;
  job.comms.insert(job.comms.begin(), small);
  for (auto& l : job.links) l.comm = 1;
  EXPECT_EQ(DefaultGraphComm(job), 1);
  Communicator big;
  big.id = "0xbig-no-links";
  big.nranks = 64;
  job.comms.push_back(big);
  EXPECT_EQ(DefaultGraphComm(job), 1);
}

TEST(LinkGraph, WithoutCommunicatorDrawsTheUnknownCommunicatorLinks) {
  auto c = CorpusCase("corpus/seeds/seed001-4pods-x4gpu-shm-socket.log");
  ASSERT_TRUE(c.job.comms.empty());
  EXPECT_EQ(DefaultGraphComm(c.job), -1);
  LinkGraph g = BuildLinkGraph(c.job, -1);
  EXPECT_EQ(g.comm, -1);
  EXPECT_FALSE(g.edges.empty());
  EXPECT_GE(g.groups.size(), 2u);  // the printing pod's node, and ranks of unknown nodes
  EXPECT_EQ(g.bottleneck, TransportClass::kNetSocket);
}

TEST(LinkGraph, MoreThanEightHostsIsAggregatedOneNodePerHost) {
  Job job = MakeRingJob(9, 8, TransportClass::kNVL, TransportClass::kNetIB);
  LinkGraph g = BuildLinkGraph(job, 0);
  EXPECT_TRUE(g.by_host);
  EXPECT_EQ(g.nodes.size(), 9u);
  EXPECT_EQ(g.edges.size(), 9u);  // the ring between hosts, closing 8 → 0
  for (const auto& e : g.edges) EXPECT_EQ(e.counts.at(TransportClass::kNetIB), 1);
  EXPECT_EQ(g.groups[0].intra.at(TransportClass::kNVL), 7);
  EXPECT_NE(g.nodes[0].detail.find("8 ranks; within: NVL 7"), std::string::npos)
      << g.nodes[0].detail;
}

}  // namespace
}  // namespace ncclscope
