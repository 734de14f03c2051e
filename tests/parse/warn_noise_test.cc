// Warning categories, error trails and the KnownNoise families (§5 and subsys ALL noise).
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseAs;

struct WarnCase {
  const char* body;
  WarnCategory category;
};

class WarnCategories : public ::testing::TestWithParam<WarnCase> {};

TEST_P(WarnCategories, ChosenFromText) {
  auto w = ParseAs<Warning>(std::string("h:1:2 [0] misc/x.cc:10 NCCL WARN ") + GetParam().body);
  EXPECT_EQ(w.category, GetParam().category) << GetParam().body;
}

INSTANTIATE_TEST_SUITE_P(
    Section5, WarnCategories,
    ::testing::Values(
        WarnCase{"Error while creating shared memory segment /dev/shm/nccl-x (size 9637888), "
                 "error: No space left on device (28)",
                 WarnCategory::kShm},
        WarnCase{"Error: failed to extend /dev/shm/nccl-x to 9637892 bytes", WarnCategory::kShm},
        WarnCase{"Cuda failure 'out of memory'", WarnCategory::kCuda},
        WarnCase{"Cuda failure 2 'out of memory'", WarnCategory::kCuda},
        WarnCase{"socketProgress: Connection closed by remote peer h<1234>", WarnCategory::kSocket},
        WarnCase{"Net : Connect to 10.0.0.2<4567> failed : Connection refused",
                 WarnCategory::kSocket},
        WarnCase{"ncclSocketConnect: connect to 10.0.0.2<4567> failed : Connection refused",
                 WarnCategory::kSocket},
        WarnCase{"socketProgressOpt: Call to recv from 10.0.0.2<1> failed : Connection reset",
                 WarnCategory::kSocket},
        WarnCase{"Bootstrap : no socket interface found", WarnCategory::kBootstrap},
        WarnCase{"NET/IB : Got completion from peer 10.0.0.2<1> with error 12, opcode 0, len 0, "
                 "vendor err 129",
                 WarnCategory::kIb},
        WarnCase{"Call to ibv_reg_mr failed", WarnCategory::kIb},
        WarnCase{"[Proxy Service 3] Failed to execute operation Connect from rank 1, retcode 3",
                 WarnCategory::kProxy},
        WarnCase{"Call to posix_fallocate failed : No space left on device",
                 WarnCategory::kSyscall},
        WarnCase{"NET/Plugin : Plugin load failed", WarnCategory::kPlugin},
        WarnCase{"NVLS multicast setup failed", WarnCategory::kNvls},
        WarnCase{"CollNet setup failed", WarnCategory::kCollNet},
        WarnCase{"Error : ring 0 does not loop back to start (1 != 0)", WarnCategory::kOther}));

TEST(Notice, OldConnectRetryIsANotice) {
  // Oneflow-Inc/oneflow#3586 (NCCL <= 2.8): each connect retry at INFO.
  auto p = testing::ParseOne(
      "worker:101542:101934 [0] NCCL INFO Call to connect returned Connection timed out, "
      "retrying");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  const auto* n = std::get_if<Notice>(&p.event.data);
  ASSERT_NE(n, nullptr) << EventTypeName(p.event.data);
  EXPECT_EQ(n->message, "Call to connect returned Connection timed out, retrying");
  // Without "retrying" it is not the retry notice.
  auto q = testing::ParseOne("worker:1:2 [0] NCCL INFO Call to connect returned Connection timed out");
  EXPECT_EQ(std::get_if<Notice>(&q.event.data), nullptr);
}

TEST(Warning, NowarnDowngradedShmFailureAtInfoIsWarning) {
  auto p = testing::ParseOne(
      "h:1:2 [0] NCCL INFO Error while attaching to shared memory segment /dev/shm/nccl-a (size "
      "1)");
  EXPECT_EQ(p.event.ctx.level, Level::kInfo);
  EXPECT_EQ(std::get<Warning>(p.event.data).category, WarnCategory::kShm);
}

TEST(ErrorTrail, AllForms) {
  auto a = ParseAs<ErrorTrail>("h:1:2 [0] NCCL INFO init.cc:421 -> 5");
  EXPECT_EQ(a.location, "init.cc:421");
  EXPECT_EQ(a.code, 5);
  EXPECT_FALSE(a.async);
  auto b = ParseAs<ErrorTrail>("h:1:2 [0] NCCL INFO misc/socket.cc:50 -> 2 (Connection refused)");
  EXPECT_EQ(b.code, 2);
  auto c = ParseAs<ErrorTrail>("h:1:2 [0] NCCL INFO group.cc:76 -> 5 [Async thread]");
  EXPECT_TRUE(c.async);
  auto d = ParseAs<ErrorTrail>("h:1:2 [0] NCCL INFO transport/shm.cc:190 (shmSendSetup) -> 2");
  EXPECT_EQ(d.location, "transport/shm.cc:190");
  EXPECT_EQ(d.code, 2);
}

struct NoiseCase {
  const char* body;
  const char* family;
};

class NoiseFamilies : public ::testing::TestWithParam<NoiseCase> {};

TEST_P(NoiseFamilies, KnownFamily) {
  auto n = ParseAs<KnownNoise>(std::string("vm:1:2 [0] NCCL INFO ") + GetParam().body);
  EXPECT_EQ(n.family, GetParam().family) << GetParam().body;
}

INSTANTIATE_TEST_SUITE_P(
    SubsysAll, NoiseFamilies,
    ::testing::Values(
        NoiseCase{"ProxyCall UDS comm 0x1 rank 0 tpRank 1(ab) reqSize 8 respSize 0 respFd -1 "
                  "opId 0x2",
                  "proxy"},
        NoiseCase{"New proxy send connection 0 from local rank 0, transport 0", "proxy"},
        NoiseCase{"UDS: ClientGetFd handle 0x1 tpRank 1 returned fd 12 sameProcess 0", "proxy"},
        NoiseCase{"[Proxy Service] Device 0 CPU core 12", "proxy"},
        NoiseCase{"RAS client listening socket at 127.0.0.1<28028>", "ras"},
        NoiseCase{"channel.cc:42 Cuda Alloc Size 1152 pointer 0x7f", "alloc"},
        NoiseCase{"init.cc:512 Cuda Host Alloc Size 4 pointer 0x7f", "alloc"},
        NoiseCase{"misc/utils.cc:234 memory stack hunk malloc(65536)", "alloc"},
        NoiseCase{"Mem Realloc old size 0, new size 8 pointer 0x1", "alloc"},
        NoiseCase{"Algorithm |  Tree | Ring |", "tuning"},
        NoiseCase{"Protocol | LL | LL128 | Simple |", "tuning"},
        NoiseCase{"Max NThreads | 512 | 640 |", "tuning"},
        NoiseCase{"    AllReduce |   11.2/  0.0 |", "tuning"},
        NoiseCase{"threadThresholds 8/8/64 | 32/8/64 | 512 | 512", "tuning"},
        NoiseCase{"Topology detection : could not read /sys/x, ignoring", "topology"},
        NoiseCase{"ncclTopoGetCpuAffinity: Affinity for GPU 0 is empty, ignoring.", "topology"},
        NoiseCase{"Setting affinity for GPU 0 to 0-15", "topology"},
        NoiseCase{"CPU/0-ffffffffffffff (1/1/4)", "topology"},
        NoiseCase{"NET/0-0 :GPU/0-60 (3/24.0/PHB) NET/0-0 (0/5000.0/LOC)", "topology"},
        NoiseCase{"=== System : maxBw 370.8 totalBw 370.8 ===", "topology"},
        NoiseCase{"              + NVL[370.8] - NVS/0-0", "topology"},
        NoiseCase{"MNNVL busId 0x60 fabric UUID 0.0 cliqueId 0x0 state 3 healthMask 0x0",
                  "topology"},
        NoiseCase{" 0 : GPU/0-60 GPU/0-70 GPU/0-80 GPU/0-90", "graph"},
        NoiseCase{"Tree 0 : -1 -> 0 -> 1/-1/-1", "graph"},
        NoiseCase{"CC Off, workFifoBytes 1048576", "init"},
        NoiseCase{"Check P2P Type isAllDirectP2p 1 directMode 0 isAllCudaP2p 1", "init"},
        NoiseCase{"P2P Chunksize set to 524288", "init"},
        NoiseCase{"NCCL git version master abcdef", "version"}));

}  // namespace
}  // namespace ncclscope
