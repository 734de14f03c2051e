// Model tests over the real logs in testdata/corpus: communicators, attribution, hosts, classes.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/link_summary.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::TestData;

AnalysisResult AnalyzeCorpus(const std::string& rel, const std::string& topo = "") {
  AnalyzeOptions opts;
  opts.inputs = {TestData(rel)};
  opts.topo_path = topo.empty() ? "" : TestData(topo);
  opts.run_rules = false;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(opts, &r).ok());
  return r;
}

std::map<TransportClass, int> ClassCounts(const Job& job) {
  std::map<TransportClass, int> m;
  for (const auto& l : job.links) ++m[l.cls];
  return m;
}

TEST(JobBuilder, DefaultLogHasWorldAndFourSplitCommunicatorsAllComplete) {
  auto r = AnalyzeCorpus("corpus/h200x4/default.log");
  const Job& job = r.job;
  ASSERT_EQ(job.comms.size(), 5u);
  EXPECT_EQ(job.comms[0].id, "0xe9089ab3dce6b312");
  EXPECT_EQ(job.comms[0].nranks, 4);
  EXPECT_EQ(job.comms[0].nnodes, 1);
  EXPECT_EQ(job.comms[0].rings.size(), 24u);
  for (const auto& c : job.comms) {
    EXPECT_EQ(static_cast<int>(c.ranks.size()), c.nranks) << c.id;
    for (const auto& [rank, cr] : c.ranks) EXPECT_TRUE(cr.completed) << c.id << " rank " << rank;
  }
  for (size_t i = 1; i < job.comms.size(); ++i) {
    EXPECT_EQ(job.comms[i].nranks, 2);
    EXPECT_EQ(job.comms[i].parent_id, "0xe9089ab3dce6b312");
  }
  EXPECT_EQ(job.hosts.size(), 1u);
  EXPECT_EQ(job.processes.size(), 4u);
}

TEST(JobBuilder, DefaultLogLinksArePathUnknownP2pWithoutTopo) {
  auto r = AnalyzeCorpus("corpus/h200x4/default.log");
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kP2P) << l.raw;
    EXPECT_EQ(l.path, P2pPath::kUnknown);
    EXPECT_EQ(l.intra_node, std::optional<bool>(true));
    EXPECT_NE(l.comm, -1);
  }
}

TEST(JobBuilder, DefaultLogWithTopoMatrixIsAllNvlink) {
  auto r = AnalyzeCorpus("corpus/h200x4/default.log", "corpus/topo/h200x4-topo-m.txt");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kNVL) << l.raw << " " << l.path_evidence;
    EXPECT_NE(l.path_evidence.find("NV18"), std::string::npos);
  }
}

TEST(JobBuilder, SplitCommunicatorLinksGoToTheCommunicatorOfThePrintedDevices) {
  // TP {0,1},{2,3} and DP {0,2},{1,3}: every split communicator gets both of its directions.
  auto r = AnalyzeCorpus("corpus/h200x4/default.log");
  std::map<int, std::set<std::pair<int, int>>> pairs;
  for (const auto& l : r.job.links) pairs[l.comm].insert({l.src, l.dst});
  for (int c = 1; c < 5; ++c) {
    EXPECT_EQ(pairs[c], (std::set<std::pair<int, int>>{{0, 1}, {1, 0}})) << r.job.comms[c].id;
  }
}

TEST(JobBuilder, SubsysAllLogProvesNvlinkFromItsOwnGraphLines) {
  auto r = AnalyzeCorpus("corpus/h200x4/subsys_all.log");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kNVL) << l.raw;
    EXPECT_NE(l.path_evidence.find("NVL"), std::string::npos) << l.path_evidence;
  }
}

TEST(JobBuilder, TwoNodesLogIsP2pWithinAndSocketBetweenSimulatedHosts) {
  auto r = AnalyzeCorpus("corpus/h200x4/two_nodes.log");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) {
    ASSERT_TRUE(l.intra_node.has_value());
    if (*l.intra_node) {
      EXPECT_EQ(l.cls, TransportClass::kP2P) << l.raw;
    } else {
      EXPECT_EQ(l.cls, TransportClass::kNetSocket) << l.raw;
    }
    EXPECT_EQ(l.same_physical_host, std::optional<bool>(true));
  }
  ASSERT_EQ(r.job.hosts.size(), 1u);
  EXPECT_EQ(r.job.hosts[0].nodes, (std::set<std::string>{"simhost0", "simhost1"}));
}

TEST(JobBuilder, SocketOnlyLogIsAllSocketWithinOneHost) {
  auto r = AnalyzeCorpus("corpus/h200x4/socket_only.log");
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kNetSocket);
    EXPECT_EQ(l.intra_node, std::optional<bool>(true));
  }
  EXPECT_EQ(r.job.comms[0].nnodes, 4);
}

TEST(JobBuilder, P2pDisableLogIsShm) {
  auto r = AnalyzeCorpus("corpus/h200x4/p2p_disable.log");
  EXPECT_EQ(ClassCounts(r.job), (std::map<TransportClass, int>{
                                    {TransportClass::kSHM, static_cast<int>(r.job.links.size())}}));
}

TEST(JobBuilder, Seed002IsLibfabricWithGdrdma) {
  auto r = AnalyzeCorpus("corpus/seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kNetLibfabric);
    EXPECT_TRUE(l.gdrdma);
  }
}

TEST(JobBuilder, Seed001IsShmLocallyAndSocketToOtherPodsWithUnknownCommunicator) {
  auto r = AnalyzeCorpus("corpus/seeds/seed001-4pods-x4gpu-shm-socket.log");
  int shm = 0, socket = 0;
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.attribution, Attribution::kUnknown);
    EXPECT_EQ(l.comm, -1);
    if (l.cls == TransportClass::kSHM) {
      ++shm;
      EXPECT_EQ(l.intra_node, std::optional<bool>(true));
    } else {
      EXPECT_EQ(l.cls, TransportClass::kNetSocket);
      ++socket;
    }
  }
  EXPECT_EQ(shm, 3);
  EXPECT_GT(socket, 0);
}

TEST(JobBuilder, DebugFileDirectoryIsOneJobOfFourProcesses) {
  auto r = AnalyzeCorpus("corpus/h200x4/debug_file");
  EXPECT_EQ(r.job.sources.size(), 4u);
  EXPECT_EQ(r.job.processes.size(), 4u);
  std::set<int> ranks;
  for (const auto& p : r.job.processes) ranks.insert(p.global_rank);
  EXPECT_EQ(ranks, (std::set<int>{0, 1, 2, 3}));
  ASSERT_FALSE(r.job.comms.empty());
  EXPECT_EQ(r.job.comms[0].ranks.size(), 4u);
}

TEST(JobBuilder, TeePrefixLogGivesTheSameLinksAsAPlainLog) {
  auto tee = AnalyzeCorpus("corpus/h200x4/tee_prefix.log");
  for (const auto& p : tee.job.processes) EXPECT_EQ(p.hostname, "vm");
  EXPECT_EQ(tee.job.comms.size(), 5u);
  EXPECT_EQ(ClassCounts(tee.job)[TransportClass::kP2P], static_cast<int>(tee.job.links.size()));
}

TEST(JobBuilder, EveryViaLineBecomesPartOfALink) {
  for (const char* f :
       {"corpus/h200x4/default.log", "corpus/h200x4/two_nodes.log", "corpus/h200x4/coll_heavy.log",
        "corpus/seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log"}) {
    auto r = AnalyzeCorpus(f);
    uint64_t lines = 0;
    for (const auto& l : r.job.links) lines += l.lines;
    EXPECT_EQ(lines, r.job.stats.connection_lines) << f;
    EXPECT_GT(lines, 0u) << f;
  }
}

TEST(JobBuilder, ShmLinksBetweenNvlinkGpusShowTheWastedNvlinkWithTopo) {
  auto r = AnalyzeCorpus("corpus/h200x4/p2p_disable.log", "corpus/topo/h200x4-topo-m.txt");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kSHM);
    EXPECT_EQ(l.hardware_path, P2pPath::kNvlink) << l.raw;
    EXPECT_NE(l.path_evidence.find("NV18"), std::string::npos);
  }
}

TEST(JobBuilder, ShmLinksWithoutTopoHaveNoHardwarePathClaim) {
  auto r = AnalyzeCorpus("corpus/h200x4/p2p_disable.log");
  for (const auto& l : r.job.links) EXPECT_EQ(l.hardware_path, P2pPath::kUnknown);
}

TEST(LinkSummary, BottleneckIsTheSlowestClassOnRings) {
  auto r = AnalyzeCorpus("corpus/h200x4/two_nodes.log");
  auto sums = SummarizeLinks(r.job);
  ASSERT_FALSE(sums.empty());
  EXPECT_EQ(sums[0].bottleneck, std::optional<TransportClass>(TransportClass::kNetSocket));
}

TEST(AnalyzeText, GarbageGivesAnEmptyJobWithoutCrashing) {
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage.push_back(static_cast<char>((i * 7919) % 256));
  auto r = AnalyzeText(garbage, "garbage.bin");
  EXPECT_TRUE(r.job.links.empty());
  EXPECT_EQ(r.job.stats.nccl_lines, 0u);
}

/// Process 11 prints first and never again; a 30 KB ring line ends process 12; process 10 fills
/// the rest (about 5 MB: the reader moves on from many buffers). The model views last lines in
/// the reader's buffers (or a relay batch's) and copies them only before those are reused.
void ExpectLastLinesKept(const AnalyzeOptions& options) {
  std::string text = "vm:11:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n";
  std::string ring = "vm:12:1 [0] NCCL INFO Channel 00/02 :";
  for (int r = 0; r < 6000; ++r) ring += " " + std::to_string(r);
  for (int i = 0; i < 30000; ++i) {
    if (i == 15000) text += ring + "\n";
    text += "vm:10:1 [0] NCCL INFO AllReduce: opCount " + std::to_string(i) +
            " sendbuff 0x7f198ae00000 recvbuff 0x7f198ae00000 count 1024 datatype 7 op 0 root 0 "
            "comm 0x3910e560 [nranks=2] stream 0x5d1c2f0\n";
  }
  const AnalysisResult r = AnalyzeText(text, "test.log", options);
  std::map<uint32_t, std::string> last;
  for (const Process& p : r.job.processes) last[p.pid] = std::string(p.last_line.text);
  EXPECT_EQ(last[11], "vm:11:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0");
  EXPECT_TRUE(last[12] == ring) << last[12].size() << " bytes, not the " << ring.size()
                                << " of the ring line";
  EXPECT_EQ(last[10],
            "vm:10:1 [0] NCCL INFO AllReduce: opCount 29999 sendbuff 0x7f198ae00000 recvbuff "
            "0x7f198ae00000 count 1024 datatype 7 op 0 root 0 comm 0x3910e560 [nranks=2] stream "
            "0x5d1c2f0");
}

TEST(JobBuilder, LastLinesSurviveTheReadersBuffers) {
  AnalyzeOptions options;
  options.jobs = 1;
  ExpectLastLinesKept(options);
}

TEST(JobBuilder, LastLinesSurviveTheRelaysBatches) {
  AnalyzeOptions options;
  options.jobs = 2;  // the model on a second thread (EventRelay)
  options.relay_min_bytes = 0;
  ExpectLastLinesKept(options);
  options.relay_hold = true;  // the model starts only when every batch is queued
  ExpectLastLinesKept(options);
}

}  // namespace
}  // namespace ncclscope
