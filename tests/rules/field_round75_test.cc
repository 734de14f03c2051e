// The families the seventy-second to seventy-fifth held-out rounds of public logs exposed
// (docs/triage.md): NCCL 2.2's P2P and SHM setup failures, a network plugin on part of the
// nodes. Lines verbatim from the threads named, each with the case where the tool must conclude
// otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;

// NVIDIA/nccl#1634: HPC-X's net plugin on one node, NCCL's internal one on another.
constexpr std::string_view kPluginHere =
    "HGX-H100-04:589474:589541 [0] NCCL INFO Plugin Path : "
    "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n";
constexpr std::string_view kPluginMissingThere =
    "HGX-H100-11:18226:18274 [5] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using "
    "internal network plugin.\n";

TEST(FieldRound75, NetPluginOnSomeHostsOnlyIsNamed) {
  const AnalysisResult r = AnalyzeText(std::string(kPluginMissingThere) + std::string(kPluginHere));
  const Finding* f = FindingOf(r, "net-plugin-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_TRUE(Has(f->message, "loaded on HGX-H100-04 but not found on HGX-H100-11")) << f->message;
}

TEST(FieldRound75, SameNetPluginEverywhereOrNowhereStaysQuiet) {
  std::string everywhere(kPluginHere);
  everywhere +=
      "HGX-H100-11:18226:18274 [5] NCCL INFO Plugin Path : "
      "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n";
  EXPECT_EQ(FindingOf(AnalyzeText(everywhere), "net-plugin-failed"), nullptr);
  std::string nowhere(kPluginMissingThere);
  nowhere +=
      "HGX-H100-04:589474:589541 [0] NCCL INFO NET/Plugin: Could not find: "
      "libnccl-net.so. Using internal network plugin.\n";
  EXPECT_EQ(FindingOf(AnalyzeText(nowhere), "net-plugin-failed"), nullptr);
  // One host that printed both (a plugin found on a second search path) is not two hosts.
  EXPECT_EQ(FindingOf(AnalyzeText(std::string(kPluginMissingThere) +
                                  "HGX-H100-11:18226:18274 [5] NCCL INFO Plugin Path : "
                                  "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so\n"),
                      "net-plugin-failed"),
            nullptr);
}

// mlflow/mlflow#8444: an Azure ML image ships HPC-X's plugin; IB is disabled and the node uses
// sockets on purpose. The plugin's path is no sign that the job expected RDMA.
TEST(FieldRound75, PluginPathOfTheImageRaisesNoSocketFallbackWarning) {
  const std::string text = testing::ReadFileOrDie(
      testing::TestData("real-world/mlflow-8444-azureml-node-healthy-socket-ib-disabled.log"));
  const AnalysisResult r = AnalyzeText(text);
  const Finding* f = FindingOf(r, "socket-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(FindingOf(r, "net-plugin-failed"), nullptr);
}

// horovod/horovod#610: NCCL 2.2 on two machines that both call themselves "localhost".
TEST(FieldRound75, Nccl22IpcAndHostBufferFailuresAreNamedByTheirTransports) {
  const AnalysisResult r = AnalyzeText(
      "localhost:95772:95782 [0] transport/p2p.cu:526 WARN failed to open CUDA IPC handle : 11 "
      "invalid argument\n"
      "localhost:95772:95782 [0] INFO init.cu:475 -> 1\n"
      "localhost:27895:27932 [0] include/shm.h:46 WARN failed to register host buffer "
      "0x7f685140d000 : invalid argument\n"
      "localhost:27895:27932 [0] INFO transport/shm.cu:212 -> 1\n");
  const Finding* p2p = FindingOf(r, "p2p-disabled");
  ASSERT_NE(p2p, nullptr);
  EXPECT_TRUE(Has(p2p->title, "P2P transport"));
  const Finding* shm = FindingOf(r, "shm-failure");
  ASSERT_NE(shm, nullptr);
  EXPECT_TRUE(Has(shm->title, "shared memory"));
}

}  // namespace
}  // namespace ncclscope
