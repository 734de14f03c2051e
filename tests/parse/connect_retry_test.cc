// ParseConnectRetry: the INFO lines NCCL prints while it retries a socket connect, in the three
// shapes of the catalog (<= 2.8, 2.24.3-2.26, 2.27.3+), and lines that only look alike.
#include "ncclscope/parse/connect_retry.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

TEST(ConnectRetry, OldShapeGivesTheErrorAndNoPeer) {
  ConnectRetry r;
  ASSERT_TRUE(ParseConnectRetry("Call to connect returned Connection timed out, retrying", &r));
  EXPECT_EQ(r.error, "Connection timed out");
  EXPECT_TRUE(r.peer.empty());
}

TEST(ConnectRetry, NewShapeNamesThePeer) {
  ConnectRetry r;
  ASSERT_TRUE(ParseConnectRetry(
      "socketPollConnect: connect to 10.29.224.148<52333> returned Connection refused, retrying "
      "(18/34) after sleep for 1800 msec",
      &r));
  EXPECT_EQ(r.peer, "10.29.224.148<52333>");
  EXPECT_EQ(r.error, "Connection refused");
}

TEST(ConnectRetry, ShapeWithoutPeerGivesTheError) {
  ConnectRetry r;
  ASSERT_TRUE(ParseConnectRetry(
      "socketStartConnect: connect returned Connection refused, retrying (3/34) after sleep for "
      "300 msec",
      &r));
  EXPECT_TRUE(r.peer.empty());
  EXPECT_EQ(r.error, "Connection refused");
  EXPECT_TRUE(ParseConnectRetry(
      "ncclOsSocketPollConnect: connect to [fe80::1%eth0]<4242> returned No route to host, "
      "retrying (1/34) after sleep for 100 msec",
      nullptr));
}

TEST(ConnectRetry, GivingUpAndOtherLinesAreNoRetry) {
  EXPECT_FALSE(ParseConnectRetry(
      "socketPollConnect: connect to 10.0.0.2<4242> returned Connection refused, exceeded error "
      "retry count after 35 attempts",
      nullptr));
  EXPECT_FALSE(ParseConnectRetry("socketStartConnect: exceeded timeouts (20)", nullptr));
  EXPECT_FALSE(ParseConnectRetry("Call to connect returned Connection refused", nullptr));
  EXPECT_FALSE(ParseConnectRetry("Call to ibv_modify_qp failed with 110, retrying 1/5", nullptr));
  EXPECT_FALSE(ParseConnectRetry("Connected all rings, retrying", nullptr));
}

}  // namespace
}  // namespace ncclscope
