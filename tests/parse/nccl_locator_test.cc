// NcclLocator: anchors anywhere in a line, NCCL's head read backwards, headless and glued messages.
#include "ncclscope/parse/nccl_locator.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

constexpr std::string_view kHead = "node-3:909608:910000 [2] ";

TEST(NcclLocator, FindsEveryLevelAndTheVersionLine) {
  AnchorKind kind;
  for (std::string_view level : {"INFO", "WARN", "TRACE", "CALL", "ABORT"}) {
    const std::string line = "xx NCCL " + std::string(level) + " body";
    EXPECT_EQ(FindNcclAnchor(line, 0, &kind), 3u) << level;
    EXPECT_EQ(kind, AnchorKind::kLevel);
  }
  EXPECT_EQ(FindNcclAnchor("(pid=1) NCCL version 2.21.5+cuda12.4", 0, &kind), 8u);
  EXPECT_EQ(kind, AnchorKind::kVersion);
  EXPECT_EQ(FindNcclAnchor("NCCL version 2.3.7", 0, &kind), 0u);
}

TEST(NcclLocator, AFrameworkErrorNamingTheVersionIsNotAVersionLine) {
  AnchorKind kind;
  EXPECT_EQ(FindNcclAnchor("torch.distributed.DistBackendError: NCCL error in: x.cpp:1, "
                           "unhandled system error, NCCL version 2.19.3",
                           0, &kind),
            std::string_view::npos);
}

TEST(NcclLocator, IgnoresWordsThatOnlyContainNccl) {
  AnchorKind kind;
  for (std::string_view line :
       {"ProcessGroupNCCL INFO x", "NCCL_DEBUG INFO", "NCCL INFORMATION", "NCCL version x",
        "NCCL error in: x", "no anchor at all", "NCCL"}) {
    EXPECT_EQ(FindNcclAnchor(line, 0, &kind), std::string_view::npos) << line;
  }
}

TEST(NcclLocator, ReadsTheHeadBackwardsAfterAnUnknownPrefix) {
  const std::string line = "(worker-2 q=3f) |12| " + std::string(kHead) + "NCCL INFO Channel 00";
  NcclSpan span;
  ASSERT_TRUE(LocateNcclMessage(line, 0, &span));
  EXPECT_FALSE(span.headless);
  EXPECT_EQ(line.substr(span.head, 6), "node-3");
  EXPECT_EQ(span.end, line.size());
}

TEST(NcclLocator, HeadAcrossAWarnLocationAndNcclTimestamp) {
  const std::string line =
      "junk [2026-11-21 13:43:25] vm:851:879 [3] misc/shmutils.cc:87 NCCL WARN Error: failed";
  NcclSpan span;
  ASSERT_TRUE(LocateNcclMessage(line, 0, &span));
  EXPECT_EQ(line.substr(span.head, 21), "[2026-11-21 13:43:25]");
  const std::string fn =
      ">> vm:851:879 [3] transport/net.cc:12 (ncclTransportP2pSetup) NCCL WARN boom";
  ASSERT_TRUE(LocateNcclMessage(fn, 0, &span));
  EXPECT_EQ(fn.substr(span.head, 3), "vm:");
}

TEST(NcclLocator, LauncherPunctuationEndsTheHost) {
  const std::string line = "[1,0]<stdout>:host-a:1:2 [0] NCCL INFO x";
  NcclSpan span;
  ASSERT_TRUE(LocateNcclMessage(line, 0, &span));
  EXPECT_EQ(line.substr(span.head, 7), "host-a:");
  const std::string redacted = "<cluster_name>:926:1151 [7] NCCL INFO x";
  ASSERT_TRUE(LocateNcclMessage(redacted, 0, &span));
  EXPECT_EQ(span.head, 0u);
}

TEST(NcclLocator, HeadlessMessages) {
  NcclSpan span;
  const std::string dev = "[1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
  ASSERT_TRUE(LocateNcclMessage(dev, 0, &span));
  EXPECT_TRUE(span.headless);
  EXPECT_EQ(span.head, 0u);
  const std::string bare = "x NCCL INFO Using network Socket";
  ASSERT_TRUE(LocateNcclMessage(bare, 0, &span));
  EXPECT_TRUE(span.headless);
  EXPECT_EQ(span.head, 2u);
  const std::string warn = "[0] transport/net_ib.cc:115 NCCL WARN Could not find real path";
  ASSERT_TRUE(LocateNcclMessage(warn, 0, &span));
  EXPECT_TRUE(span.headless);
  EXPECT_EQ(span.head, 0u);
  const std::string masked = "host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call failed";
  ASSERT_TRUE(LocateNcclMessage(masked, 0, &span));
  EXPECT_TRUE(span.headless);
}

TEST(NcclLocator, GluedMessagesAreTwoSpans) {
  const std::string a = "vm:10:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>";
  const std::string b = "vm:12:13 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
  const std::string line = a + b;
  NcclSpan first;
  ASSERT_TRUE(LocateNcclMessage(line, 0, &first));
  EXPECT_EQ(first.head, 0u);
  EXPECT_EQ(first.end, a.size());
  NcclSpan second;
  ASSERT_TRUE(LocateNcclMessage(line, first.end, &second));
  EXPECT_EQ(second.head, a.size());
  EXPECT_EQ(second.end, line.size());
  // A head with an empty body right before another message.
  const std::string empty = "learnfair062:40515:40655 [6] NCCL INFO learnfair062:40517:40631 [7] "
                            "NCCL INFO Ring 04 : 7[7] -> 3[3] via P2P/IPC";
  ASSERT_TRUE(LocateNcclMessage(empty, 0, &first));
  EXPECT_EQ(first.end, empty.find("learnfair062:40517"));
}

TEST(NcclLocator, TextThatMentionsNcclInsideABodyIsNotAGlue) {
  const std::string line = std::string(kHead) + "NCCL INFO NCCL_P2P_LEVEL set by environment to NVL";
  EXPECT_EQ(GluedMessageEnd(line, kHead.size() + 10), line.size());
}

}  // namespace
}  // namespace ncclscope
