// Rules on the excerpt shapes the real-world recall measurement missed (docs/rules.md "Rule
// recall"): multi-node launches told only by the launcher's prefixes, headless messages glued on
// one line, libfabric's own warnings, settings on a pasted command line, a default (cuMem host
// memory) that fails, and the severity of settings and bootstrap failures that are not mistakes.
// Lines are verbatim from the public threads named; each rule also stays quiet where the same
// words are harmless.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// deepspeed#2632: DeepSpeed's pdsh runner, no IB device, sockets on eth0.
constexpr std::string_view kPdshSocket =
    "ddp-0: ddp-0:8381:8381 [0] NCCL INFO Bootstrap : Using eth0:10.106.71.59<0>\n"
    "ddp-0: ddp-0:8381:8381 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using "
    "internal implementation\n"
    "ddp-0: ddp-0:8381:8381 [0] NCCL INFO NET/IB : No device found.\n"
    "ddp-0: ddp-0:8381:8381 [0] NCCL INFO NET/Socket : Using [0]eth0:10.106.71.59<0>\n"
    "ddp-0: ddp-0:8381:8381 [0] NCCL INFO Using network Socket\n";

TEST(ExcerptRules, SocketsBehindAPdshPrefixAreAMultiNodeFallback) {
  AnalysisResult r = AnalyzeText(kPdshSocket);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "pdsh")) << f->message;
  EXPECT_FALSE(Has(f->message, "does not show whether")) << f->message;
}

TEST(ExcerptRules, TheSameLinesWithoutTheLauncherPrefixStayInformational) {
  std::string plain;
  for (size_t at = 0; at < kPdshSocket.size();) {
    const size_t end = kPdshSocket.find('\n', at);
    plain += std::string(kPdshSocket.substr(at + 7, end + 1 - at - 7));  // drop "ddp-0: "
    at = end + 1;
  }
  AnalysisResult r = AnalyzeText(plain);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  // NCCL's own nNodes wins over the launcher: one node, no socket traffic to report.
  AnalysisResult one = AnalyzeText(std::string(kPdshSocket) +
                                   "ddp-0: ddp-0:8381:8400 [0] NCCL INFO comm 0x5603 rank 0 nRanks "
                                   "2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n");
  EXPECT_EQ(FindingOf(one, "socket-fallback"), nullptr);
}

TEST(ExcerptRules, SkyPilotsNodePrefixIsAMultiNodeLaunch) {
  // skypilot#4448 (head node of a 2-node cluster; torchrun's per-rank tee prefix inside).
  const std::string lines =
      "(head, rank=0, pid=5634) [nccl-e9ef-7d4f-0:3]:nccl-e9ef-7d4f-0:11172:11241 [3] NCCL INFO "
      "Failed to open libibverbs.so[.1]\n"
      "(head, rank=0, pid=5634) [nccl-e9ef-7d4f-0:3]:nccl-e9ef-7d4f-0:11172:11241 [3] NCCL INFO "
      "NET/Socket : Using [0]eth0:10.60.0.5<0>\n"
      "(head, rank=0, pid=5634) [nccl-e9ef-7d4f-0:3]:nccl-e9ef-7d4f-0:11172:11241 [3] NCCL INFO "
      "Using network Socket\n";
  const AnalysisResult r = AnalyzeText(lines);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "SkyPilot")) << f->message;
  // A single-node SkyPilot cluster names the task instead.
  std::string single = lines;
  for (size_t at; (at = single.find("(head, rank=0, pid=5634)")) != std::string::npos;) {
    single.replace(at, 24, "(task, pid=5634)");
  }
  const AnalysisResult task = AnalyzeText(single);
  const Finding* quiet = FindingOf(task, "socket-fallback");
  ASSERT_NE(quiet, nullptr);
  EXPECT_EQ(quiet->severity, Severity::kInfo);
}

TEST(ExcerptRules, TwoRayWorkerHostsAreTwoNodes) {
  // awsome-distributed-ai#386 (Ray Train on p5; one NCCL host name in both containers).
  const std::string lines =
      "(RayTrainWorker pid=1419, ip=10.67.132.202) ray-worker:1419:1419 [0] NCCL INFO Using "
      "network Socket\n"
      "(RayTrainWorker pid=1377, ip=10.67.132.117) ray-worker:1377:1377 [0] NCCL INFO Using "
      "network Socket\n";
  const AnalysisResult r = AnalyzeText(lines);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "2 hosts")) << f->message;
  // One worker node: Ray's `ip=` alone says nothing about the job's spread.
  const AnalysisResult single = AnalyzeText(lines.substr(0, lines.find('\n') + 1));
  const Finding* one = FindingOf(single, "socket-fallback");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->severity, Severity::kInfo);
}

TEST(ExcerptRules, GluedHeadlessMessagesAreEachRead) {
  // LlamaFactory#6111: the IB HCAs were asked for, none was found, NCCL used sockets.
  AnalysisResult r = AnalyzeText(
      "> > [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0. [0] NCCL INFO NCCL_IB_HCA set to "
      "mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1 [0] NCCL INFO "
      "NET/IB : No device found. [0] NCCL INFO NET/Socket : Using [0]eth0:10.47.14.218<0> [0] "
      "NCCL INFO Using non-device net plugin version 0 [0] NCCL INFO Using network Socket\n");
  const Finding* socket = FindingOf(r, "socket-fallback");
  ASSERT_NE(socket, nullptr);
  EXPECT_EQ(socket->severity, Severity::kError);
  EXPECT_TRUE(Has(socket->message, "NCCL_IB_HCA=mlx5_0:1")) << socket->message;
  const Finding* ib = FindingOf(r, "ib-error");
  ASSERT_NE(ib, nullptr);
  EXPECT_EQ(ib->severity, Severity::kError);
  // NCCL_IB_HCA named HCAs and NET/IB found none: a warning of its own. NCCL_IB_DISABLE=0 is
  // the default, not a disabled path: listed with the other settings.
  const Finding* hca = nullptr;
  const Finding* listed = nullptr;
  for (const Finding& f : r.findings) {
    if (f.rule != "env-override") continue;
    (f.severity == Severity::kWarning ? hca : listed) = &f;
  }
  ASSERT_NE(hca, nullptr);
  EXPECT_TRUE(Has(hca->message, "NET/IB then found no device")) << hca->message;
  ASSERT_NE(listed, nullptr);
  EXPECT_TRUE(Has(listed->message, "NCCL_IB_DISABLE=0 (the default: not disabled)"))
      << listed->message;
}

TEST(ExcerptRules, LibfabricFindingNoEfaDeviceIsANetPluginFailure) {
  // aws-ofi-nccl#889 (CloudWatch console copy).
  AnalysisResult r = AnalyzeText(
      "  | 2025-05-16T16:39:51.208-07:00 | ip-10-36-29-253:79:79 [0] NCCL INFO NCCL_SOCKET_IFNAME "
      "set by environment to eth0\n"
      "  | 2025-05-16T16:39:51.208-07:00libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn>"
      " fi_getinfo: provider efa output empty list | libfabric:85:1747438790::core:core:"
      "fi_getinfo_():1392<warn> fi_getinfo: provider efa output empty list\n");
  const Finding* f = FindingOf(r, "net-plugin-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(Has(f->message, "provider efa output empty list")) << f->message;
  EXPECT_EQ(r.job.hosts.size(), 1u);  // the glued time is not part of the host name
}

TEST(ExcerptRules, LibfabricWarningsTheTableDoesNotKnowStayQuiet) {
  // aws-ofi-nccl#715: a libfabric warning on a working EFA job.
  AnalysisResult r = AnalyzeText(
      "libfabric:18058:1733290059::efa:ep_ctrl:efa_rdm_ep_set_shared_memory_permitted():1410<warn>"
      " FI_OPT_SHARED_MEMORY_PERMITTED set to false\n"
      "algo-1:18057:18130 [0] NCCL INFO Using network AWS Libfabric\n");
  EXPECT_EQ(FindingOf(r, "net-plugin-failed"), nullptr);
  EXPECT_EQ(FindingOf(r, "nccl-warn"), nullptr);
  EXPECT_EQ(r.job.stats.nccl_lines, 1u);  // libfabric's line is not an NCCL line
}

TEST(ExcerptRules, P2pLevelSysOnAPastedCommandLineIsACostlySetting) {
  // nccl#1773.
  AnalysisResult r = AnalyzeText(
      "root@10-4-3-3:/opt/nccl-tests# NCCL_P2P_DISABLE=0 NCCL_P2P_LEVEL=SYS NCCL_DEBUG=info "
      "./build/all_reduce_perf -g 8 | tail -n 30\n"
      "10-4-3-3:97095:97196 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer\n"
      "10-4-3-3:97095:97191 [5] NCCL INFO Channel 00/0 : 5[5] -> 6[6] via P2P/direct pointer\n");
  const Finding* f = FindingOf(r, "costly-setting");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "NCCL_P2P_LEVEL=SYS")) << f->message;
  ASSERT_FALSE(f->evidence.empty());
  EXPECT_TRUE(Has(f->evidence.front().text, "NCCL_P2P_LEVEL=SYS ./build") ||
              Has(f->evidence.front().text, "NCCL_P2P_LEVEL=SYS NCCL_DEBUG"))
      << f->evidence.front().text;
  EXPECT_EQ(f->evidence.front().line, 1u);
  // A level that only narrows P2P, and the default NCCL_P2P_DISABLE=0, cost nothing.
  AnalysisResult narrow = AnalyzeText(
      "NCCL_P2P_DISABLE=0 NCCL_P2P_LEVEL=PXB ./build/all_reduce_perf -g 8\n"
      "10-4-3-3:97095:97196 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer\n");
  EXPECT_EQ(FindingOf(narrow, "costly-setting"), nullptr);
  // The legacy number 4 is SYS too (the thread's title).
  AnalysisResult legacy =
      AnalyzeText("10-4-3-3:97095:97196 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to 4\n");
  EXPECT_NE(FindingOf(legacy, "costly-setting"), nullptr);
}

TEST(ExcerptRules, CumemHostFailureInTheShmTransportNamesTheSetting) {
  // nccl#1838 (NCCL 2.27.3 on 4 x L4 without P2P).
  const std::string warn =
      "[2025-09-09 23:51:24] 9b405963aa12:774:854 [0] transport/shm.cc:590 NCCL WARN Cuda failure "
      "217 'peer access is not supported between these two devices'\n";
  AnalysisResult r = AnalyzeText(warn);
  const Finding* f = FindingOf(r, "costly-setting");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->fix, "NCCL_CUMEM_HOST_ENABLE=0")) << f->fix;
  EXPECT_NE(FindingOf(r, "p2p-disabled"), nullptr);  // the P2P story is told too
  // Already off, or an NCCL from before cuMem host memory: another failure.
  AnalysisResult off = AnalyzeText(
      "9b405963aa12:774:774 [0] NCCL INFO NCCL_CUMEM_HOST_ENABLE set by environment to 0.\n" +
      warn);
  EXPECT_EQ(FindingOf(off, "costly-setting"), nullptr);
  AnalysisResult old = AnalyzeText("NCCL version 2.21.5+cuda12.4\n" + warn);
  EXPECT_EQ(FindingOf(old, "costly-setting"), nullptr);
}

TEST(ExcerptRules, ProtoSimpleOnEfaIsAwsOfiNcclsAdvice) {
  // training-on-eks (p4d, aws-ofi-nccl on EFA) vs deep-learning-containers#3746 (no EFA line).
  const std::string proto =
      "node-0:188:585 [0] NCCL INFO NCCL_PROTO set by environment to simple\n";
  AnalysisResult efa = AnalyzeText(
      "node-0:188:585 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa (found 4 "
      "nics)\n" +
      proto);
  const Finding* info = FindingOf(efa, "costly-setting");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->severity, Severity::kInfo);
  EXPECT_TRUE(Has(info->message, "EFA")) << info->message;
  const AnalysisResult plain = AnalyzeText(proto);
  const Finding* warn = FindingOf(plain, "costly-setting");
  ASSERT_NE(warn, nullptr);
  EXPECT_EQ(warn->severity, Severity::kWarning);
}

TEST(ExcerptRules, AConnectionClosedByARoutablePeerInBootstrapIsNoInterfaceProblem) {
  // nccl#1612: a stray connection (a security scan) to the bootstrap port.
  AnalysisResult r = AnalyzeText(
      "[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer "
      "10.10.1.3<36138>\n"
      "[0] NCCL INFO misc/socket.cc:80 -> 6\n"
      "[0] NCCL INFO bootstrap.cc:701 -> 6\n"
      "[0] NCCL INFO init.cc:1402 -> 6\n");
  EXPECT_EQ(FindingOf(r, "bootstrap-interface"), nullptr);
  const Finding* f = FindingOf(r, "connection-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "stray connection")) << f->message;
  // Error trails are INFO lines: NCCL_DEBUG is not below INFO.
  EXPECT_EQ(FindingOf(r, "debug-info-missing"), nullptr);
  // From 2.27.3 on a stray connection no longer fails the bootstrap.
  AnalysisResult fixed = AnalyzeText(
      "NCCL version 2.27.3+cuda12.9\n"
      "[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer "
      "10.10.1.3<36138>\n"
      "[0] NCCL INFO bootstrap.cc:701 -> 6\n");
  const Finding* later = FindingOf(fixed, "connection-error");
  ASSERT_NE(later, nullptr);
  EXPECT_FALSE(Has(later->message, "stray connection")) << later->message;
}

TEST(ExcerptRules, AConnectToALoopbackAddressPointsAtTheBootstrapInterface) {
  // awsome-distributed-ai#192 (a one-line paste; fixed with NCCL_SOCKET_IFNAME=enp).
  const AnalysisResult r = AnalyzeText(testing::ReadFileOrDie(testing::TestData(
      "real-world/awsome-distributed-ai-192-srun-labels-one-line-connection-abort.log")));
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "127.0.0.1<45069> (loopback)")) << f->message;
}

TEST(ExcerptRules, TunnelWithLinkLocalAddressAsBootstrapIsAWarningUnlessNcclSaysOneNode) {
  // NVIDIA/nccl#529 (NCCL 2.5.6, "NCCL timeouts"): no routable interface was found.
  const std::string lines =
      "NvYt-dcf4:97:221 [0] NCCL INFO Bootstrap : Using [0]ip6tnl0:fe80::e866:19ff:fe1e:a688%"
      "ip6tnl0<0> [1]veth0:2a02:6b8:fc1d:3606:0:4457:edef:600a<0>\n"
      "NvYt-dcf4:97:221 [0] NCCL INFO NET/Socket : Using [0]ip6tnl0:fe80::e866:19ff:fe1e:a688%"
      "ip6tnl0<0> [1]veth0:2a02:6b8:fc1d:3606:0:4457:edef:600a<0>\n";
  const AnalysisResult tunnel = AnalyzeText(lines);
  const Finding* f = FindingOf(tunnel, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "a tunnel device")) << f->message;
  EXPECT_TRUE(Has(f->message, "no routable interface")) << f->message;
  // NCCL says the communicator has one node: the address never leaves the host.
  const AnalysisResult one_node = AnalyzeText(
      lines +
      "NvYt-dcf4:97:221 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank "
      "0 MNNVL 0\n");
  const Finding* quiet = FindingOf(one_node, "bootstrap-interface");
  ASSERT_NE(quiet, nullptr);
  EXPECT_EQ(quiet->severity, Severity::kInfo);
  // A Docker bridge on one host stays informational, as before.
  const AnalysisResult docker =
      AnalyzeText("vm:1:1 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.2<0>\n");
  const Finding* bridge = FindingOf(docker, "bootstrap-interface");
  ASSERT_NE(bridge, nullptr);
  EXPECT_EQ(bridge->severity, Severity::kInfo);
}

TEST(ExcerptRules, NoRouteToThePeerPointsAtTheBootstrapInterface) {
  // hkproj/pytorch-transformer-distributed#1 (fixed with NCCL_SOCKET_IFNAME=em4).
  const AnalysisResult r = AnalyzeText(
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
      "ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), "
      "NCCL version 2.18.6\n"
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
      "device error. \n"
      "Last error:\n"
      "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "No route to 192.168.19.14<52822>")) << f->message;
  // A refused connection reached the peer's node: no interface suspicion without more.
  const AnalysisResult refused = AnalyzeText(
      "vm:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> "
      "failed : Connection refused\n");
  EXPECT_EQ(FindingOf(refused, "bootstrap-interface"), nullptr);
  // With the interface in the log, UnsuitableInterfaces judges it: eth0 is fine.
  const AnalysisResult named = AnalyzeText(
      "vm:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"
      "vm:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> "
      "failed : No route to host\n");
  EXPECT_EQ(FindingOf(named, "bootstrap-interface"), nullptr);
}

}  // namespace
}  // namespace ncclscope
