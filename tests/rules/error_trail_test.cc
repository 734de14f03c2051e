// NCCL's return-code trail: code names, and the part of NCCL a trail line starts in, for the
// paths NCCL's releases and foreign builds (bazel, .cu sources before 2.9) print.
#include "ncclscope/rules/error_trail.h"

#include <gtest/gtest.h>

namespace ncclscope {
namespace {

TEST(ErrorTrail, NamesEveryNcclResultAndOnlyThose) {
  EXPECT_EQ(NcclResultName(1), "ncclUnhandledCudaError");
  EXPECT_EQ(NcclResultName(2), "ncclSystemError");
  EXPECT_EQ(NcclResultName(6), "ncclRemoteError");
  EXPECT_EQ(NcclResultName(7), "ncclInProgress");
  EXPECT_EQ(NcclResultName(8), "");
  EXPECT_EQ(NcclResultName(-1), "");
  EXPECT_FALSE(NcclResultMeaning(3).empty());
}

TEST(ErrorTrail, SuccessAndInProgressAreNoFailures) {
  EXPECT_FALSE(IsFailureCode(0));
  EXPECT_FALSE(IsFailureCode(7));
  for (int code = 1; code <= 6; ++code) EXPECT_TRUE(IsFailureCode(code)) << code;
}

TEST(ErrorTrail, LocationsOfTheNetworkCodeAreNetworkInEveryBuildsPaths) {
  // Real trail lines: nccl#697, nccl#562 (bazel), xgboost#7982, nccl-tests#204, awsome#386.
  for (const char* loc :
       {"include/net.h:25", "transport/net.cc:515", "misc/socket.cc:520",
        "transport/net_socket.cc:368", "bootstrap.cc:312", "proxy.cc:942", "net.cc:56",
        "bazel-out/k8-opt/bin/external/nccl_archive/_virtual_includes/include_hdrs/net.h:51",
        "transport/net.cu:397"}) {
    EXPECT_EQ(AreaOfTrail(loc, 2), TrailArea::kNetwork) << loc;
  }
}

TEST(ErrorTrail, LocationsOfOtherTransportsNameTheirFamily) {
  EXPECT_EQ(AreaOfTrail("transport/net_ib.cc:852", 3), TrailArea::kInfiniBand);
  EXPECT_EQ(AreaOfTrail("transport/net_ib/gdr.cc:56", 3), TrailArea::kInfiniBand);
  EXPECT_EQ(AreaOfTrail("ib_plugin.c:196", 2), TrailArea::kInfiniBand);
  EXPECT_EQ(AreaOfTrail("misc/ibvwrap.cc:106", 2), TrailArea::kInfiniBand);
  EXPECT_EQ(AreaOfTrail("transport/shm.cc:101", 2), TrailArea::kShm);
  EXPECT_EQ(AreaOfTrail("include/shm.h:20", 2), TrailArea::kShm);
  EXPECT_EQ(AreaOfTrail("transport/p2p.cc:204", 1), TrailArea::kCuda);  // code 1 is CUDA
  EXPECT_EQ(AreaOfTrail("init.cc:1493", 3), TrailArea::kNccl);
  EXPECT_EQ(AreaOfTrail("external/nccl_archive/src/init.cc:310", 5), TrailArea::kNccl);
  EXPECT_EQ(AreaOfTrail("group.cc:64", 6), TrailArea::kNetwork);  // a remote error
}

}  // namespace
}  // namespace ncclscope
