// Communicator lifecycle, layout, env echo and timings in every version form (§3, §4).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/parse/collective_args.h"
#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;
using testing::ParseOne;

std::string Info(const std::string& body) { return "vm:1:1 [0] NCCL INFO " + body; }

TEST(CommInit, Nccl24NvmlDevComplete) {
  auto c =
      ParseAs<CommInit>(Info("comm 0x7f00 rank 0 nranks 8 cudaDev 0 nvmlDev 0 - Init COMPLETE"));
  EXPECT_EQ(c.phase, InitPhase::kComplete);
  EXPECT_TRUE(c.api.empty());
  EXPECT_EQ(c.comm, "0x7f00");
  EXPECT_EQ(c.nranks, 8);
  EXPECT_EQ(c.nvml_dev, 0);
  EXPECT_FALSE(c.comm_id.has_value());
}

TEST(CommInit, Nccl216BusIdCommId) {
  auto c = ParseAs<CommInit>(
      Info("comm 0x55d0 rank 3 nranks 4 cudaDev 3 busId 1b000 commId 0xabc - Init COMPLETE"));
  EXPECT_EQ(c.rank, 3);
  EXPECT_EQ(c.bus_id, "1b000");
  ASSERT_TRUE(c.comm_id.has_value());
  EXPECT_EQ(*c.comm_id, 0xabcu);
}

TEST(CommInit, Nccl223ApiStart) {
  auto c = ParseAs<CommInit>(Info(
      "ncclCommInitRankConfig comm 0x35468120 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 60 commId "
      "0xe9089ab3dce6b312 - Init START"));
  EXPECT_EQ(c.phase, InitPhase::kStart);
  EXPECT_EQ(c.api, "ncclCommInitRankConfig");
  EXPECT_EQ(c.cuda_dev, 0);
  EXPECT_EQ(c.bus_id, "60");
  EXPECT_EQ(*c.comm_id, 0xe9089ab3dce6b312u);
}

TEST(CommInit, SplitChildWithoutSpaceBeforeDash) {
  auto c = ParseAs<CommInit>(
      Info("ncclCommSplit comm 0x4f2b rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 parent 0x2154 "
           "splitCount 1 color 2130503744 key 1- Init START"));
  EXPECT_EQ(c.api, "ncclCommSplit");
  EXPECT_EQ(c.parent, "0x2154");
  EXPECT_EQ(*c.split_count, 1);
  EXPECT_EQ(*c.color, 2130503744);
  EXPECT_EQ(*c.key, 1);
  EXPECT_EQ(c.phase, InitPhase::kStart);
}

TEST(CommInit, Nccl229RankPrefixAndChildCount) {
  auto s =
      ParseAs<CommInit>(Info("[Rank 2] ncclCommInitRank comm 0x1 rank 2 nranks 4 cudaDev 2 "
                             "nvmlDev 2 busId 80 commId 0x5 - Init START"));
  EXPECT_EQ(s.rank, 2);
  EXPECT_EQ(s.api, "ncclCommInitRank");
  auto c =
      ParseAs<CommInit>(Info("ncclCommSplit comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 "
                             "busId 60 parent 0x9 childCount 2 color 1 key 0 - Init COMPLETE"));
  EXPECT_EQ(*c.split_count, 2);
}

TEST(CommEnd, OldDestroyedCommLineIsADestroy) {
  // NCCL before 2.12 (quoted from NVIDIA/nccl-tests#24).
  auto d = ParseAs<CommEnd>(Info("Destroyed comm 0x7f24c4001af0 rank 4"));
  EXPECT_EQ(d.kind, CommEndKind::kDestroy);
  EXPECT_EQ(d.comm, "0x7f24c4001af0");
  EXPECT_EQ(d.rank, 4);
  EXPECT_FALSE(std::holds_alternative<CommEnd>(
      ParseOne(Info("Destroyed comm 0x7f24c4001af0 rank 4 after timeout")).event.data));
  EXPECT_FALSE(
      std::holds_alternative<CommEnd>(ParseOne(Info("Destroyed comm rank 4")).event.data));
}

TEST(CommEnd, AllKinds) {
  EXPECT_EQ(
      ParseAs<CommEnd>(Info("comm 0x1 rank 0 nranks 4 cudaDev 0 busId 60 - Destroy COMPLETE")).kind,
      CommEndKind::kDestroy);
  EXPECT_EQ(
      ParseAs<CommEnd>(Info("comm 0x1 rank 0 nranks 4 cudaDev 0 busId 60 - Abort COMPLETE")).kind,
      CommEndKind::kAbort);
  EXPECT_EQ(
      ParseAs<CommEnd>(Info("comm 0x1 rank 0 nRanks 4 cudaDev 0 busId 60 - Abort START")).kind,
      CommEndKind::kAbortStart);
  EXPECT_EQ(
      ParseAs<CommEnd>(Info("comm 0x1 rank 0 nRanks 4 cudaDev 0 busId 60 - Revoke START")).kind,
      CommEndKind::kRevokeStart);
  auto r = ParseAs<CommEnd>(
      Info("comm 0x1 rank 1 nRanks 4 cudaDev 1 busId 70 - Revoke COMPLETE, result 0"));
  EXPECT_EQ(r.kind, CommEndKind::kRevoke);
  EXPECT_EQ(r.nranks, 4);
  EXPECT_EQ(r.bus_id, "70");
}

TEST(CommTopology, NNodesLine) {
  auto t = ParseAs<CommTopology>(
      Info("comm 0x21542990 rank 1 nRanks 4 nNodes 1 localRanks 4 localRank 1 MNNVL 0"));
  EXPECT_EQ(t.rank, 1);
  EXPECT_EQ(t.nranks, 4);
  EXPECT_EQ(t.nnodes, 1);
  EXPECT_EQ(t.local_ranks, 4);
  EXPECT_EQ(t.local_rank, 1);
  EXPECT_EQ(t.mnnvl, 0);
}

TEST(TreeTopology, CountsChannels) {
  EXPECT_EQ(ParseAs<TreeTopology>(Info("Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1")).channels, 2);
  EXPECT_EQ(ParseAs<TreeTopology>(Info("Trees [0] -1->0->1/-1/-1")).channels, 1);
}

TEST(ChannelCounts, AllVersionForms) {
  auto a = ParseAs<ChannelCounts>(Info("2 coll channels, 2 p2p channels, 2 p2p channels per peer"));
  EXPECT_EQ(a.coll, 2);
  EXPECT_EQ(a.nvls, -1);
  EXPECT_EQ(a.p2p_per_peer, 2);
  auto b = ParseAs<ChannelCounts>(
      Info("32 coll channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer"));
  EXPECT_EQ(b.nvls, 0);
  EXPECT_EQ(b.collnet, -1);
  auto c = ParseAs<ChannelCounts>(Info(
      "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels "
      "per peer"));
  EXPECT_EQ(c.collnet, 24);
  EXPECT_EQ(c.p2p, 32);
}

TEST(ConnectedAll, RingsTreesAndVariants) {
  auto r = ParseAs<ConnectedAll>(Info("Connected all rings, use ring PXN 0 GDR 1"));
  EXPECT_EQ(r.what, "rings");
  EXPECT_EQ(r.pxn, 0);
  EXPECT_EQ(r.gdr, 1);
  auto old = ParseAs<ConnectedAll>(Info("Connected all rings"));
  EXPECT_EQ(old.what, "rings");
  EXPECT_EQ(old.gdr, -1);
  EXPECT_EQ(ParseAs<ConnectedAll>(Info("Connected all trees")).what, "trees");
  EXPECT_EQ(ParseAs<ConnectedAll>(Info("Connected NVLS tree")).what, "NVLS tree");
  EXPECT_EQ(ParseAs<ConnectedAll>(Info("Connected binomial trees")).what, "binomial trees");
  EXPECT_EQ(ParseAs<ConnectedAll>(Info("rank 3 Connected CollNet")).what, "CollNet");
}

TEST(Timings, BootstrapTimings) {
  auto t = ParseAs<BootstrapTimings>(
      Info("Bootstrap timings total 0.001375 (create 0.000035, send 0.000200, recv 0.000514, ring "
           "0.000093, delay 0.000000)"));
  EXPECT_DOUBLE_EQ(t.total, 0.001375);
  EXPECT_DOUBLE_EQ(t.recv, 0.000514);
  EXPECT_DOUBLE_EQ(t.delay, 0);
}

TEST(Timings, InitTimingsNewAndOld) {
  auto t = ParseAs<InitTimings>(
      Info("Init timings - ncclCommInitRankConfig: rank 1 nranks 4 total 0.57 (kernels 0.27, alloc "
           "0.02, bootstrap 0.00, allgathers 0.00, topo 0.05, graphs 0.00, connections 0.21, rest "
           "0.01)"));
  EXPECT_EQ(t.api, "ncclCommInitRankConfig");
  EXPECT_EQ(t.rank, 1);
  EXPECT_DOUBLE_EQ(t.total, 0.57);
  EXPECT_DOUBLE_EQ(t.connections, 0.21);
  auto o = ParseAs<InitTimings>(Info(
      "Init timings: rank 0 nranks 2 total 0.40 (kernels 0.20, bootstrap 0.01, allgathers 0.00, "
      "topo 0.02, graphs 0.00, connections 0.10, rest 0.07)"));
  EXPECT_TRUE(o.api.empty());
  EXPECT_EQ(o.nranks, 2);
  EXPECT_DOUBLE_EQ(o.rest, 0.07);
}

TEST(Env, SetByEnvironmentStripsTrailingPeriod) {
  auto e = ParseAs<EnvSetting>(Info("NCCL_P2P_DISABLE set by environment to 1."));
  EXPECT_EQ(e.name, "NCCL_P2P_DISABLE");
  EXPECT_EQ(e.value, "1");
  EXPECT_TRUE(e.by_environment);
  auto s = ParseAs<EnvSetting>(Info("NCCL_SOCKET_IFNAME set by environment to ^docker0,lo"));
  EXPECT_EQ(s.value, "^docker0,lo");
  auto h = ParseAs<EnvSetting>(Info("NCCL_IB_HCA set to mlx5"));
  EXPECT_FALSE(h.by_environment);
  EXPECT_EQ(h.value, "mlx5");
}

TEST(Env, CommConfigAndDriverVersion) {
  auto c = ParseAs<CommConfig>(Info("Comm config Blocking set to 1"));
  EXPECT_EQ(c.name, "Blocking");
  EXPECT_EQ(c.value, "1");
  EXPECT_EQ(ParseAs<CudaDriverVersion>(Info("cudaDriverVersion 13000")).version, 13000);
}

TEST(Collective, OpCountLine) {
  auto c = ParseAs<Collective>(Info(
      "AllReduce: opCount 1f sendbuff 0x7f1 recvbuff 0x7f2 count 1048576 datatype 7 op 0 root 0 "
      "comm 0x35468120 [nranks=4] stream 0x5a"));
  EXPECT_EQ(c.op, "AllReduce");
  EXPECT_EQ(c.op_count, 0x1fu);
  EXPECT_EQ(c.comm, "0x35468120");
  const CollectiveArgs a = DecodeCollectiveArgs(c.args);
  EXPECT_EQ(a.count, 1048576u);
  EXPECT_EQ(a.datatype, 7);
  EXPECT_EQ(a.red_op, 0);
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(a.nranks, 4);
  auto s = ParseAs<Collective>(
      Info("Send: opCount 0 sendbuff (nil) recvbuff 0x1 count 4 datatype 7 op 0 root 1 comm 0x2 "
           "[nranks=4] stream 0x3"));
  EXPECT_EQ(s.op, "Send");
  EXPECT_EQ(s.comm, "0x2");
  EXPECT_EQ(DecodeCollectiveArgs(s.args).root, 1);
}

TEST(Collective, OtherLayoutsAreReadAsKeyValuePairs) {
  // Another order, extra keys, no [nranks=]: the generic reader; comm is still found.
  auto c = ParseAs<Collective>(
      Info("AllGather: opCount a7 comm 0xabc count 12 extra 5 root 2 datatype 3 op 1"));
  EXPECT_EQ(c.op_count, 0xa7u);
  EXPECT_EQ(c.comm, "0xabc");
  const CollectiveArgs a = DecodeCollectiveArgs(c.args);
  EXPECT_EQ(a.count, 12u);
  EXPECT_EQ(a.root, 2);
  EXPECT_EQ(a.datatype, 3);
  EXPECT_EQ(a.red_op, 1);
  EXPECT_EQ(a.nranks, 0);
  // "comm" inside another word or at the very end is not the comm key.
  EXPECT_EQ(ParseAs<Collective>(Info("Recv: opCount 1 stream 0xcommm count 1")).comm, "");
  EXPECT_EQ(ParseAs<Collective>(Info("Recv: opCount 1 count 1 comm")).comm, "");
  EXPECT_EQ(ParseAs<Collective>(Info("Recv: opCount 1 count 1 comm  0x9 x")).comm, "0x9");
}

TEST(Collective, AlgoLine) {
  auto a = ParseAs<CollAlgo>(
      Info("AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..23}"));
  EXPECT_EQ(a.op, "AllReduce");
  EXPECT_EQ(a.bytes, 1048576u);
  EXPECT_EQ(a.algo, "RING");
  EXPECT_EQ(a.proto, "SIMPLE");
}

TEST(Collective, NumericAlgoLineOfOlderReleases) {
  // NVIDIA/nccl#1595 (NCCL 2.7-2.19): no operation, the algorithm and protocol as numbers.
  auto a = ParseAs<CollAlgo>(Info("805306368 Bytes -> Algo 1 proto 2 time 3970.683594"));
  EXPECT_EQ(a.op, "");
  EXPECT_EQ(a.bytes, 805306368u);
  EXPECT_EQ(a.algo, "RING");
  EXPECT_EQ(a.proto, "SIMPLE");
  auto b = ParseAs<CollAlgo>(Info("4096 Bytes -> Algo 0 proto 0 time 12.5"));
  EXPECT_EQ(b.algo, "TREE");
  EXPECT_EQ(b.proto, "LL");
  // A number past the known enums stays as printed; a word is no numeric line.
  EXPECT_EQ(ParseAs<CollAlgo>(Info("64 Bytes -> Algo 9 proto 2 time 1.0")).algo, "9");
  const testing::Parsed word = testing::ParseOne(Info("64 Bytes -> Algo RING proto 2"));
  EXPECT_FALSE(std::holds_alternative<CollAlgo>(word.event.data));
}

TEST(Graph, PatternBwAndOldSpeed) {
  auto g = ParseAs<GraphPattern>(
      Info("Pattern 4, crossNic 0, nChannels 24, bw 40.0/40.0, type NVL/PIX, sameChannels 1"));
  EXPECT_EQ(g.pattern, 4);
  EXPECT_EQ(g.nchannels, 24);
  EXPECT_DOUBLE_EQ(g.bw_intra, 40.0);
  EXPECT_EQ(g.type_intra, "NVL");
  EXPECT_EQ(g.type_inter, "PIX");
  EXPECT_EQ(g.same_channels, 1);
  auto o =
      ParseAs<GraphPattern>(Info("Pattern 3, crossNic 0, nChannels 2, speed 12.000000/12.000000, "
                                 "type PHB/PHB, sameChannels 1"));
  EXPECT_DOUBLE_EQ(o.bw_inter, 12.0);
}

TEST(Graph, PathLine) {
  auto p = ParseAs<GraphPaths>(
      Info("GPU/0-60 :GPU/0-60 (0/5000.0/LOC) GPU/0-70 (2/370.8/NVL) NVS/0-0 (1/370.8/NVL) "));
  EXPECT_EQ(p.from, "GPU/0-60");
  ASSERT_EQ(p.to.size(), 3u);
  EXPECT_EQ(p.to[1].node, "GPU/0-70");
  EXPECT_EQ(p.to[1].count, 2);
  EXPECT_DOUBLE_EQ(p.to[1].bw, 370.8);
  EXPECT_EQ(p.to[1].type, "NVL");
}

TEST(Graph, P2pDisabled) {
  auto a = ParseAs<P2pDisabled>(
      Info("P2P is disabled between connected GPUs 0 and 1. You can repress this message with "
           "NCCL_IGNORE_DISABLED_P2P=1."));
  EXPECT_EQ(a.gpu_a, 0);
  EXPECT_EQ(a.gpu_b, 1);
  EXPECT_FALSE(a.nvlink);
  auto p = testing::ParseOne(
      "vm:1:1 [0] misc/x.cc:1 NCCL WARN P2P is disabled between NVLINK connected GPUs 2 and 3.");
  EXPECT_TRUE(std::holds_alternative<Warning>(p.event.data));
  EXPECT_TRUE(
      ParseAs<P2pDisabled>(Info("P2P is disabled between NVLINK connected GPUs 2 and 3.")).nvlink);
}

}  // namespace
}  // namespace ncclscope
