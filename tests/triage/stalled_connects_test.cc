// A process whose output ends while NCCL retries a connect: the job stalled on that peer (root
// cause network, low confidence, the peer named when the line names it). Retries that end in a
// connection that works, or in NCCL's own error, are not the stall. Lines quoted from public
// threads (Oneflow-Inc/oneflow#3586, pytorch/pytorch#167288).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::Has;

constexpr std::string_view kOldRetries =
    "worker:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0>\n"
    "worker:101542:101934 [0] NCCL INFO Channel 00 : 1[18000] -> 0[18000] [send] via "
    "NET/Socket/1\n"
    "worker:101542:101934 [0] NCCL INFO Call to connect returned Connection timed out, "
    "retrying\n"
    "worker:101542:101934 [0] NCCL INFO Call to connect returned Connection timed out, "
    "retrying\n";

constexpr std::string_view kNamedPeer =
    "bj4-slave1026:5971:6015 [4] NCCL INFO socketPollConnect: connect to 10.29.224.148<52333> "
    "returned Connection refused, retrying (20/34) after sleep for 2000 msec\n"
    "bj4-slave1026:5971:6015 [4] NCCL INFO socketPollConnect: connect to 10.29.224.148<52333> "
    "returned Connection refused, retrying (21/34) after sleep for 2100 msec\n";

TEST(StalledConnects, OutputEndingInRetriesIsANetworkStall) {
  const AnalysisResult r = AnalyzeText(std::string(kOldRetries));
  const RootCause& c = r.root_cause.cause;
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_EQ(ConfidenceName(c.confidence), "low");
  EXPECT_TRUE(c.culprits.empty());  // The line names no peer.
  EXPECT_TRUE(Has(c.reasoning, "worker pid 101542")) << c.reasoning;
  EXPECT_TRUE(Has(c.reasoning, "Connection timed out")) << c.reasoning;
  ASSERT_FALSE(c.evidence.empty());
  EXPECT_EQ(c.evidence.front().line, 4u);
}

TEST(StalledConnects, NamedPeerIsTheCulprit) {
  const AnalysisResult r = AnalyzeText(std::string(kNamedPeer));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "network");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].host, "10.29.224.148");
  EXPECT_TRUE(Has(c.what, "never answered")) << c.what;
}

TEST(StalledConnects, RetriesFollowedByAWorkingConnectionStayQuiet) {
  const std::string text =
      std::string(kNamedPeer) +
      "bj4-slave1026:5971:6015 [4] NCCL INFO Channel 00/0 : 4[4] -> 5[5] via P2P/CUMEM\n";
  const AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "none");
  EXPECT_FALSE(r.root_cause.cause.job_failed);
}

TEST(StalledConnects, NcclsOwnConnectErrorAfterTheRetriesLeads) {
  const std::string text =
      std::string(kNamedPeer) +
      "bj4-slave1026:5971:6015 [4] misc/socket.cc:484 NCCL WARN socketPollConnect: connect to "
      "10.29.224.148<52333> returned Connection refused, exceeded error retry count after 35 "
      "attempts\n";
  const AnalysisResult r = AnalyzeText(text);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "network");
  EXPECT_FALSE(Has(c.what, "never answered")) << c.what;
  EXPECT_EQ(ConfidenceName(c.confidence), "medium");
}

}  // namespace
}  // namespace ncclscope
