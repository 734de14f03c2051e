// Classification of every raw transport form of the format catalog (NCCL 2.4 → 2.30).
#include "ncclscope/model/classify.h"

#include <gtest/gtest.h>

#include "ncclscope/parse/line_parser.h"

namespace ncclscope {
namespace {

struct Case {
  const char* raw;
  TransportClass cls;
  bool gdrdma;
};

class ClassifyRaw : public ::testing::TestWithParam<Case> {};

TEST_P(ClassifyRaw, GivesTheClassBeforePathEvidence) {
  const Case& c = GetParam();
  TransportSpec spec = ParseTransport(c.raw);
  EXPECT_EQ(ClassifyTransport(spec), c.cls) << c.raw;
  EXPECT_EQ(spec.gdrdma, c.gdrdma) << c.raw;
}

INSTANTIATE_TEST_SUITE_P(
    Catalog, ClassifyRaw,
    ::testing::Values(
        // P2P is P2P until GRAPH lines, --topo or NCCL_P2P_LEVEL=NVL prove NVLink.
        Case{"P2P/IPC", TransportClass::kP2P, false},
        Case{"P2P/IPC/read", TransportClass::kP2P, false},
        Case{"P2P/CUMEM", TransportClass::kP2P, false},
        Case{"P2P/CUMEM/read", TransportClass::kP2P, false},
        Case{"P2P/CUMEM/CE", TransportClass::kP2P, false},
        Case{"P2P/direct pointer", TransportClass::kP2P, false},
        Case{"P2P/direct pointer/read", TransportClass::kP2P, false},
        Case{"P2P/indirect/2[2]", TransportClass::kP2P, false},
        Case{"P2P/common device", TransportClass::kP2P, false},
        Case{"direct shared memory", TransportClass::kSHM, false},
        Case{"SHM/direct/direct", TransportClass::kSHM, false},
        Case{"SHM/CE/direct", TransportClass::kSHM, false},
        Case{"SHM/direct", TransportClass::kSHM, false},
        Case{"NET/Socket/0", TransportClass::kNetSocket, false},
        Case{"NET/Socket/0/Shared", TransportClass::kNetSocket, false},
        Case{"NET/IB/0", TransportClass::kNetIB, false},
        Case{"NET/IB/0/GDRDMA", TransportClass::kNetIB, true},
        Case{"NET/IB/0(8)/GDRDMA", TransportClass::kNetIB, true},
        Case{"NET/IB/1/GDRDMA(PCI)", TransportClass::kNetIB, true},
        Case{"NET/IB/0/GDRDMA/Shared", TransportClass::kNetIB, true},
        Case{"NET/IBext_v8/3/GDRDMA", TransportClass::kNetIB, true},
        Case{"NET/AWS Libfabric/0/GDRDMA", TransportClass::kNetLibfabric, true},
        Case{"NET/Libfabric/0/GDRDMA", TransportClass::kNetLibfabric, true},
        Case{"NET/Libfabric/1", TransportClass::kNetLibfabric, false},
        Case{"NET/MyCustomNet/0", TransportClass::kNetOther, false},
        Case{"COLLNET/SHARP/5/GDRDMA", TransportClass::kCollNet, true}));

TEST(ClassifyNetName, KnowsThePluginSpellings) {
  EXPECT_EQ(ClassifyNetName("IB"), TransportClass::kNetIB);
  EXPECT_EQ(ClassifyNetName("IBext_v9"), TransportClass::kNetIB);
  EXPECT_EQ(ClassifyNetName("Socket"), TransportClass::kNetSocket);
  EXPECT_EQ(ClassifyNetName("AWS Libfabric"), TransportClass::kNetLibfabric);
  EXPECT_EQ(ClassifyNetName("OFI"), TransportClass::kNetLibfabric);
  EXPECT_EQ(ClassifyNetName("Foo"), TransportClass::kNetOther);
  EXPECT_EQ(ClassifyNetName(""), TransportClass::kUnknown);
}

TEST(TransportClassName, RoundTripsEveryClass) {
  for (auto c : {TransportClass::kNVL, TransportClass::kP2P, TransportClass::kSHM,
                 TransportClass::kNetSocket, TransportClass::kNetIB, TransportClass::kNetLibfabric,
                 TransportClass::kNetOther, TransportClass::kCollNet, TransportClass::kNVLS}) {
    EXPECT_EQ(ParseTransportClass(TransportClassName(c)), c);
  }
  EXPECT_EQ(ParseTransportClass("nvl"), TransportClass::kNVL);
  EXPECT_EQ(ParseTransportClass("EFA"), TransportClass::kNetLibfabric);
  EXPECT_FALSE(ParseTransportClass("warp-drive").has_value());
}

TEST(TransportClassSpeedRank, OrdersNvlinkOverPcieOverShmAndRdmaOverSockets) {
  EXPECT_GT(TransportClassSpeedRank(TransportClass::kNVL),
            TransportClassSpeedRank(TransportClass::kP2P));
  EXPECT_GT(TransportClassSpeedRank(TransportClass::kP2P),
            TransportClassSpeedRank(TransportClass::kSHM));
  EXPECT_GT(TransportClassSpeedRank(TransportClass::kNetIB),
            TransportClassSpeedRank(TransportClass::kNetSocket));
  EXPECT_GT(TransportClassSpeedRank(TransportClass::kNetLibfabric),
            TransportClassSpeedRank(TransportClass::kNetSocket));
}

}  // namespace
}  // namespace ncclscope
