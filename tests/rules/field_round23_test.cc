// The families the twenty-third held-out round of public logs exposed (docs/triage.md): network
// plugins and cloud fabrics; lines verbatim from the threads named, each with the case where the
// tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// NVIDIA/nccl#811: a KVM VM whose NCCL_IB_HCA names an HCA it does not have.
constexpr std::string_view kWrongHca =
    "ZP-GPU-2:56226:56265 [0] NCCL INFO NCCL_IB_HCA set to mlx5_1\n"
    "ZP-GPU-2:56226:56265 [0] NCCL INFO NET/IB : No device found.\n"
    "ZP-GPU-2:56226:56265 [0] NCCL INFO NET/Socket : Using [0]ib0:10.103.133.94<0>\n"
    "ZP-GPU-2:56226:56265 [0] NCCL INFO Using network Socket\n";

TEST(FieldRound23, HcaSettingThatLeftNetIbWithoutADeviceIsAWarning) {
  const AnalysisResult r = AnalyzeText(kWrongHca);
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "NCCL_IB_HCA=mlx5_1")) << f->message;
  EXPECT_TRUE(Has(f->message, "found no device")) << f->message;
}

TEST(FieldRound23, HcaSettingWithDevicesFoundIsOnlyListed) {
  const AnalysisResult r = AnalyzeText(
      "n1:7:7 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0\n"
      "n1:7:7 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n"
      "n1:7:7 [0] NCCL INFO Using network IB\n");
  const Finding* f = FindingOf(r, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
}

// NVIDIA/nccl#1267: a libnccl-net.so too old for NCCL 2.19 is ignored; the job runs on sockets.
constexpr std::string_view kIgnoredPlugin =
    "instance-8g-96c-2:525781:525781 [0] NCCL INFO NET/Plugin: Failed to find ncclNetPlugin_v7 "
    "symbol.\n"
    "instance-8g-96c-2:525781:525781 [0] NCCL INFO NET/Plugin: Failed to find ncclNetPlugin "
    "symbol (>= v5). ncclNetPlugin symbols v4 and lower are not supported.\n"
    "NCCL version 2.19.3+cuda12.3\n"
    "instance-8g-96c-2:525781:525957 [0] NCCL INFO NET/IB : No device found.\n"
    "instance-8g-96c-2:525781:525957 [0] NCCL INFO NET/Socket : Using [0]ens7:10.128.0.31<0>\n"
    "instance-8g-96c-2:525781:525957 [0] NCCL INFO Using network Socket\n";

TEST(FieldRound23, PluginWithoutASupportedApiBeforeSocketsIsANetPluginFailure) {
  const AnalysisResult r = AnalyzeText(kIgnoredPlugin);
  const Finding* plugin = FindingOf(r, "net-plugin-failed");
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->severity, Severity::kWarning);
  const Finding* socket = FindingOf(r, "socket-fallback");
  ASSERT_NE(socket, nullptr);
  EXPECT_TRUE(Has(socket->message, "NCCL ignored it")) << socket->message;
}

TEST(FieldRound23, PluginSymbolProbeAloneIsNotAFailure) {
  // nccl#1292: "The above messages are not indicative of a failure" (a CollNet-only library).
  std::string text(kIgnoredPlugin);
  text.resize(text.find("instance-8g-96c-2:525781:525957 [0] NCCL INFO NET/IB"));
  const AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(FindingOf(r, "net-plugin-failed"), nullptr);
  EXPECT_EQ(FindingOf(r, "socket-fallback"), nullptr);
}

TEST(FieldRound23, RdmaPluginLinksWithoutGdrdmaAreNamed) {
  // uccl-project/uccl#172: the UCCL plugin's network is "RDMA_Plugin".
  const std::string lines =
      "n232-194-226:1127072:1127689 [0] NCCL INFO Channel 06/0 : 0[0] -> 8[0] [receive] via "
      "NET/RDMA_Plugin/2\n"
      "n232-194-226:1127072:1127689 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [send] via "
      "NET/RDMA_Plugin/1\n";
  const AnalysisResult r = AnalyzeText(lines);
  const Finding* f = FindingOf(r, "no-gdrdma");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "NET/RDMA_Plugin links lack /GDRDMA")) << f->message;
  // A plugin whose name does not say RDMA (UCX may run over TCP) is not judged.
  std::string ucx = lines;
  for (size_t at; (at = ucx.find("RDMA_Plugin")) != std::string::npos;) ucx.replace(at, 11, "UCX");
  EXPECT_EQ(FindingOf(AnalyzeText(ucx), "no-gdrdma"), nullptr);
  // With GPUDirect RDMA on both links: nothing to say.
  std::string gdr = lines;
  for (size_t at = 0; (at = gdr.find("Plugin/", at)) != std::string::npos; at += 9) {
    gdr.insert(gdr.find('\n', at), "/GDRDMA");
  }
  EXPECT_EQ(FindingOf(AnalyzeText(gdr), "no-gdrdma"), nullptr);
}

// NVIDIA/nccl#947: the connect that failed ran in the HPC-X UCX plugin.
TEST(FieldRound23, TrailThroughAPluginsOwnFileIsANetError) {
  const std::string head =
      "aragab-ib32:87529:87613 [4] socket.c:540 NCCL WARN Net : Connection closed by remote peer "
      "172.27.20.148<33806>\n"
      "aragab-ib32:87529:87613 [4] NCCL INFO socket.c:548 -> 6\n";
  const AnalysisResult r =
      AnalyzeText(head +
                  "aragab-ib32:87529:87613 [4] NCCL INFO ucx_plugin.c:485 -> 6\n"
                  "aragab-ib32:87529:87613 [4] NCCL INFO transport/net.cc:701 "
                  "-> 6\n");
  const Finding* f = FindingOf(r, "net-error");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "UCX net plugin")) << f->message;
  // The same trail through NCCL's own files names no plugin.
  const AnalysisResult own =
      AnalyzeText(head + "aragab-ib32:87529:87613 [4] NCCL INFO transport/net.cc:701 -> 6\n");
  EXPECT_EQ(FindingOf(own, "net-error"), nullptr);
}

// aws-ofi-nccl#801: libfabric's CXI provider on HPE Slingshot without a VNI.
TEST(FieldRound23, CxiProviderWithoutAVniIsANetPluginFailure) {
  const AnalysisResult r = AnalyzeText(
      " libfabric:507357:1741146011::cxi:fabric:cxip_nic_get_rgroup_vni():253<warn> : Failed to "
      "find valid default rgroup and vni for cxi0 \n"
      "[0] NCCL INFO NET/OFI Selected Provider is cxi (found 8 nics)\n");
  const Finding* f = FindingOf(r, "net-plugin-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "CXI provider")) << f->message;
}

}  // namespace
}  // namespace ncclscope
