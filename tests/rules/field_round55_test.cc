// The families the fifty-fifth to fifty-seventh held-out rounds of public logs exposed
// (docs/triage.md): research codebases' DDP runs, frameworks other than PyTorch, and inference
// servers starting tensor-parallel workers. Lines verbatim from the threads named, each with the
// case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;
using testing::OneCulprit;

// gpustack/gpustack#2680: vLLM V1's executor logs a worker's exception through its own logger
// head; the RuntimeError behind it is the worker's NCCL error.
constexpr std::string_view kVllmWorkerError =
    "(VllmWorker rank=3 pid=4665) ERROR 08-05 14:13:44 [multiproc_executor.py:487]   File "
    "\"/usr/local/lib/python3.11/dist-packages/vllm/distributed/device_communicators/"
    "pynccl_wrapper.py\", line 257, in NCCL_CHECK\n"
    "(VllmWorker rank=3 pid=4665) ERROR 08-05 14:13:44 [multiproc_executor.py:487]     raise "
    "RuntimeError(f\"NCCL error: {error_str}\")\n"
    "(VllmWorker rank=3 pid=4665) ERROR 08-05 14:13:44 [multiproc_executor.py:487] RuntimeError: "
    "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n";

TEST(FieldRound57, VllmLoggerHeadedNcclErrorIsTheWorkersRootCause) {
  const AnalysisResult r = AnalyzeText(kVllmWorkerError);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
  EXPECT_TRUE(OneCulprit(r, 3));
  EXPECT_EQ(r.root_cause.cause.time_text, "08-05 14:13:44");
  ASSERT_NE(FindingOf(r, "nccl-error"), nullptr);
  // The frame's source line is code, not an unread NCCL message.
  EXPECT_EQ(r.job.sources.at(0).unrecognized_mentions, 0u);
}

TEST(FieldRound57, VllmInfoLinesBehindTheHeadStayQuiet) {
  const AnalysisResult r = AnalyzeText(
      "(VllmWorker rank=1 pid=4888) INFO 07-08 10:09:09 [utils.py:1126] Found nccl from library "
      "libnccl.so.2\n"
      "(VllmWorker rank=1 pid=4888) INFO 07-08 10:09:09 [pynccl.py:70] vLLM is using "
      "nccl==2.26.2\n");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNone);
  EXPECT_EQ(r.job.sources.at(0).unrecognized_mentions, 0u);
  EXPECT_EQ(r.job.sources.at(0).unrecognized, 0u);
}

TEST(FieldRound56, RaftCommsInitErrorIsAnNcclError) {
  // NVIDIA/cuml#4741
  const AnalysisResult r = AnalyzeText(
      "  File \"nccl.pyx\", line 151, in raft.dask.common.nccl.nccl.init\n"
      "RuntimeError: NCCL_ERROR: b'unhandled system error'\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
  const Finding* f = FindingOf(r, "nccl-error");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "unhandled system error"));
}

TEST(FieldRound56, PaddleEnforceOfAnNcclCallIsAnNcclError) {
  // PaddlePaddle/Paddle#18576: the C++ abort carries NCCL's result string and NCCL's helper.
  const AnalysisResult r = AnalyzeText(
      "terminate called after throwing an instance of 'paddle::platform::EnforceNotMet'\n"
      "  what():  unhandled cuda error at "
      "[/ssd1/xiege/paddle_wheel/Paddle_2.7/Paddle/paddle/fluid/platform/nccl_helper.h:70]\n");
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "nccl-error");
  EXPECT_NE(FindingOf(r, "nccl-error"), nullptr);
}

TEST(FieldRound57, LxcBridgeInTheSocketListIsAnUnsuitableInterface) {
  // vllm-project/vllm#6370: NET/Socket spreads over eno3, the LXC bridge and a VPN.
  const AnalysisResult r = AnalyzeText(
      "flow-matic:820398:820779 [0] NCCL INFO NET/Socket : Using [0]eno3:169.229.48.108<0> "
      "[1]lxcbr0:10.0.3.1<0> [2]tailscale0:100.72.221.35<0>\n"
      "flow-matic:820398:820779 [0] NCCL INFO Using network Socket\n");
  const Finding* f = FindingOf(r, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(Has(f->message, "lxcbr0 10.0.3.1 (an LXC/LXD bridge)"));
}

TEST(FieldRound57, RoutableInterfacesAloneStayQuiet) {
  const AnalysisResult r = AnalyzeText(
      "flow-matic:820398:820779 [0] NCCL INFO NET/Socket : Using [0]eno3:169.229.48.108<0>\n"
      "flow-matic:820398:820779 [0] NCCL INFO Using network Socket\n");
  EXPECT_EQ(FindingOf(r, "bootstrap-interface"), nullptr);
}

TEST(FieldRound61, DeepSpeedLauncherEnvironmentIsReadAsSettings) {
  // deepspeedai/DeepSpeed#736 (old form, NAME VALUE) and #3710 (NAME=VALUE, the image's labels).
  const AnalysisResult r = AnalyzeText(
      "[2021-02-08 22:59:18,790] [INFO] [launch.py:71:main] 0 NCCL_IB_DISABLE 1\n"
      "[2021-02-08 22:59:18,790] [INFO] [launch.py:71:main] 0 NCCL_SOCKET_IFNAME lo\n"
      "[2023-06-08 04:35:53,337] [INFO] [launch.py:138:main] 0 NCCL_VERSION=2.13.4-1\n"
      "[2023-06-08 04:35:53,337] [INFO] [launch.py:138:main] 0 "
      "NV_LIBNCCL_PACKAGE=libnccl2=2.13.4-1+"
      "cuda11.7\n"
      "NCCL backend in DeepSpeed not yet implemented\n"
      "gpu1:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n");
  EXPECT_EQ(r.job.sources.at(0).unrecognized_mentions, 0u);
  EXPECT_EQ(r.job.sources.at(0).unrecognized, 0u);
  ASSERT_EQ(r.job.processes.size(), 1u);
  const auto& env = r.job.processes[0].env;
  ASSERT_EQ(env.count("NCCL_SOCKET_IFNAME"), 1u);
  EXPECT_EQ(env.at("NCCL_SOCKET_IFNAME").value, "lo");
  EXPECT_EQ(env.count("NCCL_IB_DISABLE"), 1u);
  EXPECT_EQ(env.count("NCCL_VERSION"), 0u);
}

}  // namespace
}  // namespace ncclscope
