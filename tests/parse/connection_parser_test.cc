// Connection lines and transports in every version form (nccl-log-formats.md §2).
#include <gtest/gtest.h>

#include "ncclscope/parse/ring_ranks.h"
#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

struct ConnCase {
  const char* body;
  ConnKind kind;
  int channel, conn_index, src, dst;
  const char* src_dev;
  const char* dst_dev;
  ConnDirection dir;
  const char* raw;
};

class ConnectionLines : public ::testing::TestWithParam<ConnCase> {};

TEST_P(ConnectionLines, ParsesRanksDevicesDirectionAndRaw) {
  const ConnCase& c = GetParam();
  Connection conn = testing::ParseAs<Connection>(std::string("vm:1:1 [0] NCCL INFO ") + c.body);
  EXPECT_EQ(conn.kind, c.kind);
  EXPECT_EQ(conn.channel, c.channel);
  EXPECT_EQ(conn.conn_index, c.conn_index);
  EXPECT_EQ(conn.src_rank, c.src);
  EXPECT_EQ(conn.dst_rank, c.dst);
  EXPECT_EQ(conn.src_dev, c.src_dev);
  EXPECT_EQ(conn.dst_dev, c.dst_dev);
  EXPECT_EQ(conn.direction, c.dir);
  EXPECT_EQ(conn.raw, c.raw);
}

INSTANTIATE_TEST_SUITE_P(
    AllVersions, ConnectionLines,
    ::testing::Values(
        // 2.18.3+ nvmlDev, connIndex.
        ConnCase{"Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM", ConnKind::kChannel, 0, 0, 0, 1, "0",
                 "1", ConnDirection::kNone, "P2P/CUMEM"},
        ConnCase{"Channel 23/1 : 3[3] -> 0[0] via P2P/CUMEM/read", ConnKind::kChannel, 23, 1, 3, 0,
                 "3", "0", ConnDirection::kNone, "P2P/CUMEM/read"},
        // 2.4-2.6 Ring with busId hex.
        ConnCase{"Ring 00 : 0[1b000] -> 1[3d000] via P2P/IPC", ConnKind::kRing, 0, -1, 0, 1,
                 "1b000", "3d000", ConnDirection::kNone, "P2P/IPC"},
        ConnCase{"Ring 01 : 1[1] -> 2[2] via direct shared memory", ConnKind::kRing, 1, -1, 1, 2,
                 "1", "2", ConnDirection::kNone, "direct shared memory"},
        // 2.4 NET lines have no [dev].
        ConnCase{"Ring 00 : 3 -> 4 [send] via NET/IB/0/GDRDMA", ConnKind::kRing, 0, -1, 3, 4, "",
                 "", ConnDirection::kSend, "NET/IB/0/GDRDMA"},
        ConnCase{"Ring 00 : 7 -> 0 [receive] via NET/Socket/1", ConnKind::kRing, 0, -1, 7, 0, "",
                 "", ConnDirection::kReceive, "NET/Socket/1"},
        ConnCase{"Channel 00/0 : 4[0] -> 0[0] [receive] via NET/Socket/0", ConnKind::kChannel, 0, 0,
                 4, 0, "0", "0", ConnDirection::kReceive, "NET/Socket/0"},
        ConnCase{"Channel 02/0 : 0[0] -> 1[0] [send] via NET/AWS Libfabric/0/GDRDMA",
                 ConnKind::kChannel, 2, 0, 0, 1, "0", "0", ConnDirection::kSend,
                 "NET/AWS Libfabric/0/GDRDMA"},
        ConnCase{"Channel 00 : 0[0] -> 1[1] via SHM/direct/direct", ConnKind::kChannel, 0, -1, 0, 1,
                 "0", "1", ConnDirection::kNone, "SHM/direct/direct"},
        ConnCase{"CollNet 00/1 : 3 [send] via COLLNET/SHARP/5/GDRDMA", ConnKind::kCollNet, 0, 1, 3,
                 -1, "", "", ConnDirection::kSend, "COLLNET/SHARP/5/GDRDMA"},
        ConnCase{"Coll 01 : 2 [receive] via COLLNET/SHARP/0", ConnKind::kCollNet, 1, -1, 2, -1, "",
                 "", ConnDirection::kReceive, "COLLNET/SHARP/0"}));

struct TransportCase {
  const char* raw;
  TransportType type;
  const char* mode;
  const char* net;
  int net_dev, proxy_rank, via_rank;
  bool read, ce, gdrdma, pci, shared;
};

class Transports : public ::testing::TestWithParam<TransportCase> {};

TEST_P(Transports, SplitsIntoParts) {
  const TransportCase& c = GetParam();
  TransportSpec t = ParseTransport(c.raw);
  EXPECT_EQ(t.type, c.type);
  EXPECT_EQ(t.mode, c.mode);
  EXPECT_EQ(t.net, c.net);
  EXPECT_EQ(t.net_dev, c.net_dev);
  EXPECT_EQ(t.proxy_rank, c.proxy_rank);
  EXPECT_EQ(t.via_rank, c.via_rank);
  EXPECT_EQ(t.read, c.read);
  EXPECT_EQ(t.ce, c.ce);
  EXPECT_EQ(t.gdrdma, c.gdrdma);
  EXPECT_EQ(t.pci, c.pci);
  EXPECT_EQ(t.shared, c.shared);
}

constexpr auto P2P = TransportType::kP2P;
constexpr auto SHM = TransportType::kSHM;
constexpr auto NET = TransportType::kNET;

INSTANTIATE_TEST_SUITE_P(
    AllForms, Transports,
    ::testing::Values(
        TransportCase{"P2P/CUMEM", P2P, "CUMEM", "", -1, -1, -1, false, false, false, false, false},
        TransportCase{"P2P/CUMEM/read", P2P, "CUMEM", "", -1, -1, -1, true, false, false, false,
                      false},
        TransportCase{"P2P/CUMEM/CE", P2P, "CUMEM", "", -1, -1, -1, false, true, false, false,
                      false},
        TransportCase{"P2P/IPC/read", P2P, "IPC", "", -1, -1, -1, true, false, false, false, false},
        TransportCase{"P2P/IPC/read/CE", P2P, "IPC", "", -1, -1, -1, true, true, false, false,
                      false},
        TransportCase{"P2P/direct pointer", P2P, "direct pointer", "", -1, -1, -1, false, false,
                      false, false, false},
        TransportCase{"P2P/direct pointer/read", P2P, "direct pointer", "", -1, -1, -1, true, false,
                      false, false, false},
        TransportCase{"P2P/common device", P2P, "common device", "", -1, -1, -1, false, false,
                      false, false, false},
        TransportCase{"P2P/MNNVL", P2P, "MNNVL", "", -1, -1, -1, false, false, false, false, false},
        TransportCase{"P2P/indirect/2[2]", P2P, "indirect", "", -1, -1, 2, false, false, false,
                      false, false},
        TransportCase{"P2P/indirect/3[3]/read", P2P, "indirect", "", -1, -1, 3, true, false, false,
                      false, false},
        TransportCase{"SHM/direct/direct", SHM, "direct/direct", "", -1, -1, -1, false, false,
                      false, false, false},
        TransportCase{"SHM/CE/direct", SHM, "CE/direct", "", -1, -1, -1, false, true, false, false,
                      false},
        TransportCase{"SHM/direct", SHM, "direct", "", -1, -1, -1, false, false, false, false,
                      false},
        TransportCase{"direct shared memory", SHM, "direct shared memory", "", -1, -1, -1, false,
                      false, false, false, false},
        TransportCase{"NET/IB/0/GDRDMA", NET, "", "IB", 0, -1, -1, false, false, true, false,
                      false},
        TransportCase{"NET/Socket/0", NET, "", "Socket", 0, -1, -1, false, false, false, false,
                      false},
        TransportCase{"NET/Socket/1/Shared", NET, "", "Socket", 1, -1, -1, false, false, false,
                      false, true},
        TransportCase{"NET/AWS Libfabric/0/GDRDMA", NET, "", "AWS Libfabric", 0, -1, -1, false,
                      false, true, false, false},
        TransportCase{"NET/Libfabric/3/GDRDMA", NET, "", "Libfabric", 3, -1, -1, false, false, true,
                      false, false},
        TransportCase{"NET/IBext_v8/3/GDRDMA", NET, "", "IBext_v8", 3, -1, -1, false, false, true,
                      false, false},
        TransportCase{"NET/IB/0(8)/GDRDMA", NET, "", "IB", 0, 8, -1, false, false, true, false,
                      false},
        TransportCase{"NET/IB/1/GDRDMA(PCI)", NET, "", "IB", 1, -1, -1, false, false, true, true,
                      false},
        TransportCase{"NET/IB/1/GDRDMA(PCI)/Shared", NET, "", "IB", 1, -1, -1, false, false, true,
                      true, true},
        TransportCase{"COLLNET/SHARP/5/GDRDMA", TransportType::kCOLLNET, "", "SHARP", 5, -1, -1,
                      false, false, true, false, false},
        TransportCase{"NVLS", TransportType::kOther, "", "", -1, -1, -1, false, false, false, false,
                      false}));

TEST(RingOrder, ChannelListWithoutArrowIsRingOrder) {
  RingOrder r =
      testing::ParseAs<RingOrder>("vm:1:1 [0] NCCL INFO Channel 00/24 :    0   1   2   3");
  EXPECT_EQ(r.channel, 0);
  EXPECT_EQ(r.nchannels, 24);
  EXPECT_EQ(DecodeRingRanks(r.ranks), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(r.nranks, 4);
  EXPECT_FALSE(r.cut);
}

TEST(RingOrder, Nccl24FormAndCutList) {
  RingOrder r = testing::ParseAs<RingOrder>("h:1:1 [0] NCCL INFO Channel 01 :    0   1");
  EXPECT_EQ(r.channel, 1);
  EXPECT_EQ(r.nchannels, 0);
  RingOrder cut = testing::ParseAs<RingOrder>("h:1:1 [0] NCCL INFO Channel 00/02 : 0 1 2 ...");
  EXPECT_TRUE(cut.cut);
  EXPECT_EQ(cut.nranks, 3);
  EXPECT_EQ(DecodeRingRanks(cut.ranks), (std::vector<int>{0, 1, 2}));
}

TEST(GraphRing, PrevMeNext) {
  GraphRing g = testing::ParseAs<GraphRing>("vm:1:1 [0] NCCL INFO Ring 05 : 3 -> 0 -> 1");
  EXPECT_EQ(g.channel, 5);
  EXPECT_EQ(g.prev, 3);
  EXPECT_EQ(g.me, 0);
  EXPECT_EQ(g.next, 1);
}

TEST(BareNetConnection, Pre23ReceiverLineIsAConnection) {
  // PaddlePaddle#14109 (held-out round 26), NCCL 2.1/2.2's netRecvSetup line: the receiving rank
  // (8) prints it, without a ring number.
  const testing::Parsed p =
      testing::ParseOne("yq01-jpaas-ai00-let0034:890:1081 [0] INFO 7 -> 8 via NET/Socket/0");
  ASSERT_EQ(EventTypeName(p.event.data), "connection");
  const auto& c = std::get<Connection>(p.event.data);
  EXPECT_EQ(c.src_rank, 7);
  EXPECT_EQ(c.dst_rank, 8);
  EXPECT_EQ(c.channel, -1);
  EXPECT_EQ(c.direction, ConnDirection::kReceive);
  EXPECT_EQ(c.raw, "NET/Socket/0");
  EXPECT_EQ(c.transport.type, TransportType::kNET);
}

TEST(BareNetConnection, Pre23SenderLinesOfShmAndP2pAreConnections) {
  // horovod/horovod#1171 (NCCL 2.2.13): the sending rank prints its SHM hop with the pids in
  // brackets, and its P2P hops with the devices; the bracketed numbers are not kept as devices.
  const testing::Parsed shm = testing::ParseOne(
      "g2-nasp:5224:5292 [1] INFO 1[5224] -> 0[5223] via direct shared memory");
  ASSERT_EQ(EventTypeName(shm.event.data), "connection");
  const auto& c = std::get<Connection>(shm.event.data);
  EXPECT_EQ(c.src_rank, 1);
  EXPECT_EQ(c.dst_rank, 0);
  EXPECT_EQ(c.direction, ConnDirection::kSend);
  EXPECT_TRUE(c.src_dev.empty());
  EXPECT_EQ(c.transport.type, TransportType::kSHM);
  const testing::Parsed p2p = testing::ParseOne("h:1:1 [0] NCCL INFO 7 -> 8 via P2P/IPC");
  ASSERT_EQ(EventTypeName(p2p.event.data), "connection");
  EXPECT_EQ(std::get<Connection>(p2p.event.data).transport.type, TransportType::kP2P);
}

TEST(BareNetConnection, OtherDigitLedBodiesAreNotConnections) {
  for (std::string_view body :
       {"h:1:1 [0] NCCL INFO 24 coll channels, 0 nvls channels, 32 p2p channels, 32 p2p channels "
        "per peer",
        "h:1:1 [0] NCCL INFO 7 -> 8 via ",
        "h:1:1 [0] NCCL INFO 7[x] -> 8 via P2P/IPC"}) {
    const testing::Parsed p = testing::ParseOne(body);
    EXPECT_NE(EventTypeName(p.event.data), "connection") << body;
  }
}

}  // namespace
}  // namespace ncclscope
