// NCCL up to 2.21 prints its bare "NCCL version" banner from rank 0 only (init.cc: `if (myrank ==
// 0) showVersion();`): a failing process whose rank no line states, and whose own lines surround
// that banner, is rank 0. Lines quoted from a public thread (pytorch/pytorch#17502, held-out
// round 22).
#include "model/banner_rank.h"

#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"

namespace ncclscope {
namespace {

constexpr std::string_view kK80Failure =
    "Epoch 1/10\n"
    "linux-ml:12735:12795 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.8.5<0>\n"
    "linux-ml:12735:12795 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
    "linux-ml:12735:12795 [0] NCCL INFO NET/IB : No device found.\n"
    "NCCL version 2.4.2+cuda10.0\n"
    "\n"
    "linux-ml:12735:12795 [0] include/topo.h:20 NCCL WARN Cuda failure 'invalid argument'\n"
    "linux-ml:12735:12795 [0] NCCL INFO init.cu:864 -> 1\n";

int CulpritRank(const AnalysisResult& r) {
  const auto& culprits = r.root_cause.cause.culprits;
  return culprits.empty() ? -2 : culprits.front().rank;
}

TEST(BannerRank, BareBannerAmidOneProcessesLinesMakesItRankZero) {
  const AnalysisResult r = AnalyzeText(kK80Failure);
  ASSERT_FALSE(r.root_cause.cause.culprits.empty());
  EXPECT_EQ(CulpritRank(r), 0);
  EXPECT_EQ(r.root_cause.cause.culprits.front().host, "linux-ml");
}

TEST(BannerRank, BannerOfANewerNcclSaysNothing) {
  // 2.22.3+ prints the banner as an INFO line with NCCL's head; a bare one is another format.
  std::string text(kK80Failure);
  text.replace(text.find("2.4.2"), 5, "2.23.4");
  EXPECT_EQ(CulpritRank(AnalyzeText(text)), -1);
}

TEST(BannerRank, BannerBetweenTwoProcessesLinesSaysNothing) {
  const std::string text =
      "linux-ml:12735:12795 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.8.5<0>\n"
      "linux-ml:12736:12796 [1] NCCL INFO NET/Socket : Using [0]eth0:10.1.8.5<0>\n"
      "NCCL version 2.4.2+cuda10.0\n"
      "linux-ml:12735:12795 [0] include/topo.h:20 NCCL WARN Cuda failure 'invalid argument'\n";
  EXPECT_EQ(CulpritRank(AnalyzeText(text)), -1);
}

TEST(BannerRank, NextLineOfAnotherProcessSaysNothing) {
  std::string text(kK80Failure);
  text.replace(text.find("linux-ml:12735:12795 [0] include"), 20,
               "linux-ml:12736:12796 [1] include");
  EXPECT_EQ(CulpritRank(AnalyzeText(text)), -1);
}

TEST(BannerRank, StatedRankWins) {
  // A connection line states rank 1 of the printing process: the banner does not override it.
  std::string text(kK80Failure);
  text.insert(text.find("linux-ml:12735:12795 [0] include"),
              "linux-ml:12735:12795 [0] NCCL INFO Ring 00 : 1[0] -> 0[1] via P2P/IPC\n");
  EXPECT_EQ(CulpritRank(AnalyzeText(text)), 1);
}

TEST(BannerRank, VersionsThatPrintABareBannerFromRankZero) {
  EXPECT_TRUE(BannerRank::BareBannerOfRankZero("2.4.2"));
  EXPECT_TRUE(BannerRank::BareBannerOfRankZero("2.21.5"));
  EXPECT_FALSE(BannerRank::BareBannerOfRankZero("2.22.3"));
  EXPECT_FALSE(BannerRank::BareBannerOfRankZero("2.28.9"));
  EXPECT_FALSE(BannerRank::BareBannerOfRankZero("3.0.1"));
  EXPECT_FALSE(BannerRank::BareBannerOfRankZero("2."));
}

}  // namespace
}  // namespace ncclscope
