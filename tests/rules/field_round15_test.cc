// The families the fifteenth held-out round of public logs exposed (docs/triage.md): training
// frameworks' jobs that failed; lines verbatim from the threads named, each with the case where
// the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

// NVIDIA/nccl#1000 (Lightning Fabric FSDP on two DGX A100, NCCL 2.18): the bootstrap fails on
// every rank of the node with return-code trails only; the excerpt begins in the middle of
// pid 2351's trail. The thread's fix: NCCL_SOCKET_IFNAME set to the Ethernet NIC.
constexpr std::string_view kBootstrapTrailsMidTrail =
    "dso-s1-r1-a100-03:2351:2678 [2] NCCL INFO group.cc:65 -> 2 [Async thread]\n"
    "dso-s1-r1-a100-03:2354:2687 [5] NCCL INFO bootstrap.cc:270 -> 2\n"
    "dso-s1-r1-a100-03:2349:2688 [0] NCCL INFO misc/socket.cc:567 -> 2\n"
    "dso-s1-r1-a100-03:2354:2687 [5] NCCL INFO init.cc:1350 -> 2\n"
    "dso-s1-r1-a100-03:2349:2688 [0] NCCL INFO misc/socket.cc:618 -> 2\n"
    "dso-s1-r1-a100-03:2351:2351 [2] NCCL INFO group.cc:406 -> 2\n"
    "dso-s1-r1-a100-03:2349:2688 [0] NCCL INFO bootstrap.cc:270 -> 2\n";

TEST(FieldRound15, ATrailSeenFromItsMiddleTakesItsClassFromWhereTheOthersStarted) {
  const AnalysisResult r = AnalyzeText(kBootstrapTrailsMidTrail);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(c.cls, CauseClass::kNetwork);
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].pid, 2351);  // still the first failing line's process
  EXPECT_NE(c.what.find("bootstrap.cc:270 -> 2"), std::string::npos) << c.what;
}

TEST(FieldRound15, ATrailOfNcclCodeOnlyStaysAnNcclError) {
  // Only propagation frames in the input: nothing says where the failure started.
  const AnalysisResult r = AnalyzeText(
      "dso-s1-r1-a100-03:2351:2678 [2] NCCL INFO group.cc:65 -> 2 [Async thread]\n"
      "dso-s1-r1-a100-03:2351:2351 [2] NCCL INFO group.cc:406 -> 2\n");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNcclError);
}

TEST(FieldRound15, SilentBootstrapFailureNextToAnIpoibOobNamesIt) {
  // The same node: NET/IB's out-of-band sockets run over the IPoIB interface ibp75s0.
  const AnalysisResult r = AnalyzeText(
      "dso-s1-r1-a100-03:2331:2666 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB/SHARP "
      "[1]mlx5_1:1/IB/SHARP ; OOB ibp75s0:192.168.0.103<0>\n"
      "dso-s1-r1-a100-03:2331:2666 [3] NCCL INFO Using network IBext\n"
      "dso-s1-r1-a100-03:2330:2658 [2] NCCL INFO misc/socket.cc:567 -> 2\n"
      "dso-s1-r1-a100-03:2330:2658 [2] NCCL INFO misc/socket.cc:618 -> 2\n"
      "dso-s1-r1-a100-03:2330:2658 [2] NCCL INFO bootstrap.cc:270 -> 2\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->message.find("IPoIB"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("ibp75s0"), std::string::npos) << f->message;
}

TEST(FieldRound15, AnEthernetOobIsNotCalledIpoib) {
  const AnalysisResult r = AnalyzeText(
      "node1:2331:2666 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:192.168.0.103<0>\n"
      "node1:2330:2658 [2] NCCL INFO misc/socket.cc:567 -> 2\n"
      "node1:2330:2658 [2] NCCL INFO bootstrap.cc:270 -> 2\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);  // the bootstrap failed; the interface is not shown for pid 2330
  EXPECT_EQ(f->message.find("IPoIB"), std::string::npos) << f->message;
}

}  // namespace
}  // namespace ncclscope
