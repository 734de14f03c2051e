// The families the twenty-fifth held-out round of public logs exposed (docs/triage.md):
// multi-node jobs that failed in or right after init; lines verbatim from the threads named,
// each with the case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// NVIDIA/nccl#331: a container in Docker's bridge network bootstraps against NCCL_COMM_ID's host
// address; no interface of the container is on that network, and the bind fails.
constexpr std::string_view kBridge =
    "e82c50601d13:213:213 [0] include/socket.h:197 NCCL WARN Net : No interface found in the "
    "same subnet as remote address 192.168.0.91<27030>\n"
    "e82c50601d13:213:213 [0] NCCL INFO Bootstrap : Using [0]eth0:172.17.0.3<0>\n"
    "e82c50601d13:213:213 [0] include/socket.h:333 NCCL WARN Call to bind failed : Cannot "
    "assign requested address\n"
    "e82c50601d13:213:213 [0] NCCL INFO bootstrap.cc:91 -> 2\n";

TEST(FieldRound25, NoInterfaceInTheRootsSubnetIsABootstrapInterfaceProblem) {
  const AnalysisResult r = AnalyzeText(kBridge);
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "192.168.0.91")) << f->message;
  EXPECT_TRUE(Has(f->message, "Docker's default bridge")) << f->message;
  // On another network than Docker's bridge, the fix names the interface setting instead.
  std::string lan(kBridge);
  lan.replace(lan.find("172.17.0.3"), 10, "10.10.0.30");
  const AnalysisResult other = AnalyzeText(lan);
  const Finding* g = FindingOf(other, "bootstrap-interface");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(Has(g->message, "NCCL_SOCKET_IFNAME")) << g->message;
  EXPECT_FALSE(Has(g->message, "Docker")) << g->message;
}

TEST(FieldRound25, BindFailureIsANetworkRootCause) {
  const AnalysisResult r = AnalyzeText(
      "h1:7:7 [0] include/socket.h:333 NCCL WARN Call to bind failed : Cannot assign requested "
      "address\n"
      "h1:7:7 [0] NCCL INFO bootstrap.cc:91 -> 2\n");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
  // A CUDA failure of the same process is no network failure.
  const AnalysisResult cuda = AnalyzeText(
      "h1:7:7 [0] enqueue.cc:1540 NCCL WARN Cuda failure 'an illegal memory access "
      "was encountered'\n");
  EXPECT_NE(cuda.root_cause.cause.cls, CauseClass::kNetwork);
}

TEST(FieldRound25, BootstrapOnItsOwnSubnetSaysNothing) {
  const AnalysisResult r = AnalyzeText(
      "n1:7:7 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>\n"
      "n1:7:7 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>\n");
  EXPECT_EQ(FindingOf(r, "bootstrap-interface"), nullptr);
}

}  // namespace
}  // namespace ncclscope
