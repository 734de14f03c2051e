// The families the sixteenth held-out round of public logs exposed (docs/triage.md): jobs seen
// through schedulers' log collectors; lines verbatim from the threads named, each with the case
// where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

// vllm-project/vllm#2734: Ray's deduplicated line, its colour codes without their ESC, and Ray's
// one-time notice after it.
TEST(FieldRound16, RaysColouredDedupSuffixAndItsNoticeAreNotPartOfTheMessage) {
  const AnalysisResult r = AnalyzeText(
      " [36m(RayWorkerVllm pid=5310) [0m [pod-name]:5310:5310 [7] NCCL INFO cudaDriverVersion "
      "12010 [32m [repeated 6x across cluster] (Ray deduplicates logs by default. Set "
      "RAY_DEDUP_LOGS=0 to disable log deduplication, or see https://docs.ray.io/en/master/"
      "ray-observability/ray-logging.html#log-deduplication for more options.) [0m\n"
      "(RayWorkerVllm pid=5311) node:5311:5311 [1] NCCL INFO cudaDriverVersion 12010 [repeated 2x "
      "across cluster]\n");
  EXPECT_EQ(r.job.stats.unrecognized, 0u);
  EXPECT_EQ(r.job.stats.nccl_lines, 2u);
}

TEST(FieldRound16, AMessageThatEndsInABracketIsKept) {
  // Not Ray's suffix: nothing is cut.
  const AnalysisResult r = AnalyzeText(
      "node:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0> [1]eth1:10.0.1.1<0>\n");
  EXPECT_EQ(r.job.stats.unrecognized, 0u);
  ASSERT_EQ(r.job.processes.size(), 1u);
  EXPECT_EQ(r.job.processes[0].socket_devices.size(), 2u);
}

// kubeflow/pytorch-operator#202: the master pod of a PyTorchJob lists loopback first among its
// socket interfaces; the workers run in other pods, which cannot reach it.
constexpr std::string_view kReplicaPodOnLoopback =
    "kubeflow-pytorch-gpu-dist-job-master-0:1:1 [0] NCCL INFO NET/Socket : Using "
    "[0]lo:127.0.0.1<0> [1]eth0:192.168.4.230<0>\n";

TEST(FieldRound16, LoopbackInAKubeflowReplicaPodIsAWarning) {
  const AnalysisResult r = AnalyzeText(kReplicaPodOnLoopback);
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
}

TEST(FieldRound16, LoopbackOnAPlainHostStaysInfo) {
  std::string log(kReplicaPodOnLoopback);
  log.replace(0, std::string_view("kubeflow-pytorch-gpu-dist-job-master-0").size(), "gpu-box");
  const AnalysisResult r = AnalyzeText(log);
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
}

}  // namespace
}  // namespace ncclscope
