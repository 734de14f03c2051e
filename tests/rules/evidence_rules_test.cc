// Evidence-first rules on short excerpts: the NCCL messages are those of public issue threads
// (message text verbatim; where the paste had no NCCL head or we kept one line of a long paste, a
// host:pid:tid head is added), plus a few synthetic shapes for the quiet cases. A rule fires on
// the explicit message alone, names the peer or device, and stays quiet where the same words are
// harmless. The whole excerpts are in testdata/real-world/ (RealWorldRecall measures them).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

TEST(EvidenceRules, ClosedByPeerNamesThePeerAsTheSuspect) {
  // nccl-tests#166 (a peer died), two hosts in the excerpt.
  AnalysisResult r = AnalyzeText(
      "node1:41000:41001 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"
      "ubuntu:39964:40044 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
      "remote peer node1<57557>\n"
      "ubuntu:39964:40044 [0] NCCL INFO misc/socket.cc:749 -> 6\n");
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->title, "A peer died")) << f->title;
  EXPECT_TRUE(Has(f->message, "node1<57557>")) << f->message;
  ASSERT_EQ(f->suspect_hosts.size(), 1u);
  EXPECT_EQ(f->suspect_hosts.front(), "node1");
}

TEST(EvidenceRules, RefusedConnectionsTellTheNetworkPathStory) {
  // horovod#584 (NCCL 2.3: lo listed first among the socket interfaces).
  AnalysisResult r = AnalyzeText(
      "paigcr-b-gpu-1012:4152:4206 [0] NCCL INFO NET : Using interface lo:127.0.0.1<0>\n"
      "paigcr-b-gpu-1012:4152:4206 [0] NCCL INFO NET : Using interface eth0:10.151.40.240<0>\n"
      "paigcr-b-gpu-1012:4153:4209 [1] include/socket.h:361 NCCL WARN Call to connect timeout : "
      "Connection refused\n");
  const Finding* conn = FindingOf(r, "connection-error");
  ASSERT_NE(conn, nullptr);
  EXPECT_TRUE(Has(conn->title, "network path")) << conn->title;
  const Finding* iface = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(iface, nullptr);
  EXPECT_EQ(iface->severity, Severity::kWarning);  // connections failed: lo is not harmless
  EXPECT_TRUE(Has(iface->message, "lo 127.0.0.1 (loopback)")) << iface->message;
}

TEST(EvidenceRules, WrongSocketTypeIsReportedAsRanksThatDisagree) {
  // nccl-tests#188.
  AnalysisResult r = AnalyzeText(
      "user:16901:16967 [2] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3\n"
      "user:16901:16967 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute "
      "operation Connect from rank 2, retcode 3\n");
  const Finding* f = FindingOf(r, "ranks-disagree");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "different NCCL versions")) << f->message;
  EXPECT_EQ(FindingOf(r, "nccl-warn"), nullptr);  // every WARN is claimed by a rule
}

TEST(EvidenceRules, IbCompletionErrorIsDecodedAndNamesPeerAndStatus) {
  // nccl#1405.
  AnalysisResult r = AnalyzeText(
      "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from "
      "peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid "
      "fd00:1148:9000:5000:4:200:3:ff21 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f\n");
  const Finding* f = FindingOf(r, "ib-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->message, "10.216.210.236<54862>")) << f->message;
  EXPECT_TRUE(Has(f->message, "IBV_WC_RETRY_EXC_ERR")) << f->message;
  EXPECT_TRUE(Has(f->message, "vendor error 129 (0x81")) << f->message;
}

TEST(EvidenceRules, NoIbDeviceIsAnErrorOnlyWhereInfinibandWasExpected) {
  // LLaMA-Factory#6111: NCCL_IB_HCA names eight HCAs, NCCL finds none, uses sockets.
  const char* expected =
      "gpu-1:100:100 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.\n"
      "gpu-1:100:100 [0] NCCL INFO NCCL_IB_HCA set to "
      "mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1\n"
      "gpu-1:100:100 [0] NCCL INFO NET/IB : No device found.\n"
      "gpu-1:100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.47.14.218<0>\n"
      "gpu-1:100:100 [0] NCCL INFO Using network Socket\n";
  AnalysisResult r = AnalyzeText(expected);
  const Finding* ib = FindingOf(r, "ib-error");
  ASSERT_NE(ib, nullptr);
  EXPECT_TRUE(Has(ib->message, "NCCL_IB_HCA=mlx5_0:1")) << ib->message;
  const Finding* sock = FindingOf(r, "socket-fallback");
  ASSERT_NE(sock, nullptr);
  EXPECT_EQ(sock->severity, Severity::kError);
  EXPECT_TRUE(Has(sock->message, "predicted")) << sock->message;
  // DeepSpeed#2632's plain variant: nothing asked for InfiniBand.
  AnalysisResult plain = AnalyzeText(
      "ddp-0:8381:8381 [0] NCCL INFO NET/IB : No device found.\n"
      "ddp-0:8381:8381 [0] NCCL INFO NET/Socket : Using [0]eth0:10.106.71.59<0>\n"
      "ddp-0:8381:8381 [0] NCCL INFO Using network Socket\n");
  EXPECT_EQ(FindingOf(plain, "ib-error"), nullptr);
  const Finding* info = FindingOf(plain, "socket-fallback");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->severity, Severity::kInfo);  // may be a single node
}

TEST(EvidenceRules, SocketsOverIpoibMeanTheNodesHaveInfiniband) {
  // mesh-transformer-jax#38: libibverbs missing in the container, sockets over ib0.
  AnalysisResult r = AnalyzeText(
      "[1,0]<stdout>:az-scus-v100-2-worker-mgfopa:993:993 [3] "
      "misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
      "[1,0]<stdout>:az-scus-v100-2-worker-mgfopa:993:993 [3] NCCL INFO "
      "NET/Socket : Using [0]ib0:172.16.1.10<0>\n");
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->message, "IPoIB interface ib0")) << f->message;
}

TEST(EvidenceRules, SingleNodeJobStaysQuietAboutSockets) {
  AnalysisResult r = AnalyzeText(
      "vm:1:1 [0] NCCL INFO NET/IB : No device found.\n"
      "vm:1:1 [0] NCCL INFO Using network Socket\n"
      "vm:1:1 [0] NCCL INFO comm 0x5 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0\n");
  EXPECT_EQ(FindingOf(r, "socket-fallback"), nullptr);
}

TEST(EvidenceRules, NvlsCudaFailureIsAnNvlsFindingAndACudaErrorNamingIt) {
  // nccl#1672.
  AnalysisResult r = AnalyzeText(
      "[2025-04-06 22:31:56] ccw-gpu-128:3485254:3487188 [0] transport/nvls.cc:598 NCCL WARN "
      "Cuda failure 1 'invalid argument'\n");
  const Finding* f = FindingOf(r, "nvls-failure");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->message, "'invalid argument'")) << f->message;
  // The CUDA error is named too, pointing at the transport's finding for causes and fix.
  const Finding* cuda = FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_TRUE(Has(cuda->message, "NVLS transport's setup")) << cuda->message;
  EXPECT_TRUE(Has(cuda->fix, "nvls-failure")) << cuda->fix;
}

TEST(EvidenceRules, P2pTransportCudaFailureIsAP2pFindingAndACudaError) {
  // sglang#6246 (held-out round 22): the WARN's location is the P2P transport.
  AnalysisResult r = AnalyzeText(
      "6f747114300646eb-5af0524bda8e4aee:4167:5269 [0] transport/p2p.cc:275 NCCL WARN Cuda "
      "failure 'invalid argument'\n");
  const Finding* p2p = FindingOf(r, "p2p-disabled");
  ASSERT_NE(p2p, nullptr);
  EXPECT_EQ(p2p->severity, Severity::kError);
  EXPECT_EQ(p2p->title, "The P2P transport's CUDA setup failed");
  const Finding* cuda = FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_TRUE(Has(cuda->message, "P2P transport's setup")) << cuda->message;
  EXPECT_EQ(FindingOf(r, "nccl-warn"), nullptr);
}

TEST(EvidenceRules, CudaFailureOutsideATransportStaysOneCudaFinding) {
  AnalysisResult r = AnalyzeText(
      "node1:7:7 [0] enqueue.cc:1540 NCCL WARN Cuda failure 'an illegal memory access was "
      "encountered'\n");
  const Finding* cuda = FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_FALSE(Has(cuda->message, "transport's setup")) << cuda->message;
  EXPECT_EQ(FindingOf(r, "p2p-disabled"), nullptr);
  EXPECT_EQ(FindingOf(r, "shm-failure"), nullptr);
}

TEST(EvidenceRules, P2pCheckLineCountsOnlyWhereRanksShareANode) {
  // NCCL prints 0 both when a pair of local GPUs cannot use P2P and when a node has one rank.
  AnalysisResult hw = AnalyzeText(
      "host:7:7 [0] NCCL INFO Check P2P Type isAllDirectP2p 0 directMode 0 isAllCudaP2p 0\n");
  const Finding* f = FindingOf(hw, "p2p-disabled");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  AnalysisResult alone = AnalyzeText(
      "host:7:7 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 0\n");
  EXPECT_EQ(FindingOf(alone, "p2p-disabled"), nullptr);
  AnalysisResult shared = AnalyzeText(
      "host:7:7 [0] NCCL INFO comm 0x5 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n"
      "host:7:7 [0] NCCL INFO Check P2P Type intraNodeP2pSupport 0 directMode 0\n");
  EXPECT_NE(FindingOf(shared, "p2p-disabled"), nullptr);
  AnalysisResult on = AnalyzeText(
      "host:7:7 [0] NCCL INFO Check P2P Type isAllDirectP2p 1 directMode 0 isAllCudaP2p 1\n");
  EXPECT_EQ(FindingOf(on, "p2p-disabled"), nullptr);
}

TEST(EvidenceRules, ForcedAlgorithmIsACostUnlessAwsOfiNcclSetTheProtocol) {
  AnalysisResult forced = AnalyzeText("h:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n");
  const Finding* f = FindingOf(forced, "costly-setting");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  // seeds/seed002: aws-ofi-nccl adds NCCL_PROTO=simple for the platform.
  AnalysisResult ofi = AnalyzeText(
      "h:1:1 [0] NCCL INFO NET/OFI Adding NCCL_PROTO=simple to environment\n"
      "h:1:1 [0] NCCL INFO NCCL_PROTO set by environment to simple\n");
  EXPECT_EQ(FindingOf(ofi, "costly-setting"), nullptr);
  // An exclusion is a workaround, not a forced choice.
  AnalysisResult excl = AnalyzeText("h:1:1 [0] NCCL INFO NCCL_PROTO set by environment to ^LL128\n");
  EXPECT_EQ(FindingOf(excl, "costly-setting"), nullptr);
}

TEST(EvidenceRules, ForcedAlgorithmWithoutAnAvailableOneIsAnError) {
  // pytorch#163063.
  AnalysisResult r = AnalyzeText(
      "h:2:2 [0] enqueue.cc:1700 NCCL WARN Error : no algorithm/protocol available for function "
      "Broadcast with datatype ncclInt8. NCCL_ALGO was set to NVLS.\n");
  const Finding* f = FindingOf(r, "costly-setting");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
}

TEST(EvidenceRules, RemoteErrorInAFrameworkLineNamesTheConnectionStory) {
  AnalysisResult r = AnalyzeText(
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
      "NCCLUtils.hpp:275, remote process exited or there was a network error, NCCL version "
      "2.20.5\n");
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->title, "A peer died")) << f->title;
  EXPECT_NE(FindingOf(r, "nccl-error"), nullptr);
}

TEST(EvidenceRules, ExcerptEndingDuringInitIsAWarningWithoutAFailure) {
  AnalysisResult r = AnalyzeText(
      "h:9:9 [0] NCCL INFO comm 0x55 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1e0 commId 0xea - "
      "Init START\n"
      "h:9:9 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n");
  const Finding* f = FindingOf(r, "init-incomplete");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
}

TEST(EvidenceRules, NcclNodeCountDecidesInterNodeWhenHostsAreUnknown) {
  // One process of a 4-node job (nNodes 4, localRanks 1): its links go to other nodes.
  AnalysisResult r = AnalyzeText(
      "n0:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 9e000 commId "
      "0x7d - Init START\n"
      "n0:1:1 [0] NCCL INFO comm 0xa rank 0 nRanks 4 nNodes 4 localRanks 1 localRank 0 MNNVL 0\n"
      "n0:1:1 [0] NCCL INFO Channel 00/0 : 3[0] -> 0[0] [receive] via NET/Socket/0\n"
      "n0:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n");
  int inter = 0, unknown = 0;
  for (const Link& l : r.job.links) {
    if (!l.intra_node.has_value()) {
      ++unknown;
    } else if (!*l.intra_node) {
      ++inter;
    }
  }
  EXPECT_EQ(inter, 2);
  EXPECT_EQ(unknown, 0);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "2 of 2 inter-node links")) << f->message;
}

TEST(EvidenceRules, BootstrapConnectionFailureWithoutAnInterfaceLinePointsAtIt) {
  // horovod#666 (NCCL 2.3.5, NCCL_SOCKET_IFNAME=^docker0 let NCCL bootstrap on lo).
  AnalysisResult r = AnalyzeText(
      "seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by remote peer\n"
      "seyun:17283:17549 [3] INFO bootstrap.cu:45 -> 2 [Net]\n"
      "seyun:17283:17549 [3] INFO init.cu:413 -> 2\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->title, "during bootstrap")) << f->title;
  // With the interface in the log, the generic suspicion stays out.
  AnalysisResult named = AnalyzeText(
      "seyun:17283:17549 [3] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"
      "seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by remote peer\n"
      "seyun:17283:17549 [3] INFO bootstrap.cu:45 -> 2 [Net]\n");
  EXPECT_EQ(FindingOf(named, "bootstrap-interface"), nullptr);
}

TEST(EvidenceRules, LinkLocalSocketInterfaceOfTheSocketTransportIsAWarning) {
  // skypilot#4448: the Azure accelerated-networking VF with an IPv6 link-local address.
  AnalysisResult r = AnalyzeText(
      "nccl-e9ef-7d4f-0:11171:11240 [2] NCCL INFO NET/Socket : Using [0]eth0:10.60.0.5<0> "
      "[1]enP7906s1:fe80::20d:3aff:fef9:4aef%enP7906s1<0>\n"
      "nccl-e9ef-7d4f-0:11171:11240 [2] NCCL INFO Using network Socket\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "IPv6 link-local")) << f->message;
}

TEST(EvidenceRules, AvahiAliasInterfaceIsLinkLocalEvenWithItsAddressMasked) {
  // nccl-tests#162: avahi-autoipd's alias is a 169.254 address; the paste masked it.
  AnalysisResult r = AnalyzeText(
      "beijing:47853:47853 [0] NCCL INFO Bootstrap : Using eno1:avahi:xxx.xxx.xxx.xxx<0>\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "eno1:avahi")) << f->message;
  EXPECT_TRUE(Has(f->message, "link-local")) << f->message;
  AnalysisResult alias = AnalyzeText(
      "beijing:47853:47853 [0] NCCL INFO Bootstrap : Using eno1:1:10.2.0.7<0>\n");
  EXPECT_EQ(FindingOf(alias, "bootstrap-interface"), nullptr);
}

TEST(EvidenceRules, TorchxPrefixedLastErrorNamesTheMissingInterface) {
  // nccl#1837: TorchX `[role|replica]:` prefixes, NCCL_SOCKET_IFNAME=eth2 matching nothing.
  AnalysisResult r = AnalyzeText(
      "[trainer3]:twshared1016:1958:1958 [3] NCCL INFO NCCL_SOCKET_IFNAME set by environment to "
      "eth2\n"
      "[trainer0|0]:ncclInternalError: Internal check failed.\n"
      "[trainer0|0]:Last error:\n"
      "[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither "
      "AF_INET(2) nor AF_INET6(10)\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
}

TEST(EvidenceRules, SocketTrailsAfterAnotherFailureAreItsFallout) {
  // pytorch/ci-infra#490: /dev/shm full on one rank, the others' socket calls fail after it.
  const std::string shm =
      "runner:202016:202235 [0] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory "
      "segment /dev/shm/nccl-WU88OE (size 9637888), error: No space left on device (28)\n";
  const std::string trail =
      "runner:202016:202240 [0] NCCL INFO misc/socket.cc:28 -> 3\n"
      "runner:202016:202238 [2] NCCL INFO misc/socket.cc:561 -> 3\n";
  AnalysisResult after = AnalyzeText(shm + trail);
  const Finding* f = FindingOf(after, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->title, "fallout")) << f->title;
  ASSERT_NE(FindingOf(after, "shm-failure"), nullptr);
  // Alone (NCCL 2.18's silent socketPollConnect), the same trail is the failure itself.
  AnalysisResult alone = AnalyzeText(trail);
  const Finding* g = FindingOf(alone, "connection-error");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->severity, Severity::kError);
}

TEST(EvidenceRules, NetTransportTrailWithoutAWarnIsAConnectionErrorNamingItsFirstLine) {
  // NVIDIA/nccl#697: a NET/Socket connect failed; only the return-code trail is in the excerpt.
  AnalysisResult r = AnalyzeText(
      "dgxa100:1050:1315 [0] NCCL INFO Channel 15/0 : 0[90000] -> 1[1000] [send] via NET/Socket/7\n"
      "dgxa100:1050:1316 [0] NCCL INFO include/net.h:25 -> 2\n"
      "dgxa100:1050:1316 [0] NCCL INFO transport/net.cc:515 -> 2\n");
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->message, "\"include/net.h:25 -> 2\"")) << f->message;
  EXPECT_TRUE(Has(f->message, "ncclSystemError")) << f->message;
  EXPECT_TRUE(Has(f->message, "dgxa100:1050")) << f->message;
  EXPECT_TRUE(Has(f->message, "not in the input")) << f->message;
}

TEST(EvidenceRules, InfiniBandTrailWithoutAWarnIsAnIbError) {
  // NVIDIA/nccl#562's trail through its IB plugin (a bazel build's paths), WARN cut off.
  AnalysisResult r = AnalyzeText(
      "hai-a100-3:3778851:3779883 [4] NCCL INFO ib_plugin.c:196 -> 2\n"
      "hai-a100-3:3778851:3779883 [4] NCCL INFO bazel-out/k8-opt/bin/external/nccl_archive/"
      "_virtual_includes/include_hdrs/net.h:21 -> 2\n"
      "hai-a100-3:3778851:3779883 [4] NCCL INFO external/nccl_archive/src/init.cc:310 -> 2\n");
  const Finding* f = FindingOf(r, "ib-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "ib_plugin.c:196 -> 2")) << f->message;
  EXPECT_EQ(FindingOf(r, "connection-error"), nullptr);
}

TEST(EvidenceRules, TrailAfterTheWarnThatExplainsItMakesNoSilentFinding) {
  // dmlc/xgboost#7982: the socket WARN says what failed; its trail adds no second story.
  AnalysisResult r = AnalyzeText(
      "ip-172-31-12-104:28056:39685 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from "
      "172.18.0.1<34483> failed : Broken pipe\n"
      "ip-172-31-12-104:28056:39685 [0] NCCL INFO misc/socket.cc:520 -> 2\n"
      "ip-172-31-12-104:28056:39685 [0] NCCL INFO transport/net_socket.cc:368 -> 2\n"
      "ip-172-31-12-104:28056:39685 [0] NCCL INFO include/net.h:25 -> 2\n");
  for (const Finding& f : r.findings) {
    EXPECT_FALSE(Has(f.title, "only NCCL's return codes")) << f.rule << ": " << f.title;
  }
}

TEST(EvidenceRules, TrailOfAProbeNcclRecoveredFromStaysQuiet) {
  // testdata/corpus/h200x4/socket_only.log: IB disabled on purpose, NCCL moves on to sockets.
  AnalysisResult r = AnalyzeText(
      "vm:2185:2185 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
      "vm:2185:2185 [0] NCCL INFO transport/net_ib.cc:852 -> 3\n"
      "vm:2185:2185 [0] NCCL INFO Failed to initialize NET plugin IB\n");
  EXPECT_EQ(FindingOf(r, "ib-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
