// NCCL failures as frameworks other than PyTorch's ProcessGroupNCCL raise them, quoting NCCL's
// result string: the lines are verbatim from the public threads named.
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseOne;

using testing::Parsed;

/// The error a parsed line holds (its views point into `p`, which must outlive it).
const FrameworkNcclError& ErrorIn(const Parsed& p) {
  static const FrameworkNcclError kNone;
  EXPECT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.level, Level::kTorch);
  const auto* e = std::get_if<FrameworkNcclError>(&p.event.data);
  EXPECT_NE(e, nullptr);
  return e != nullptr ? *e : kNone;
}

TEST(NcclResultError, HorovodNamesTheFailedCall) {
  // horovod/horovod#3618
  const Parsed p = ParseOne(
      "horovod.common.exceptions.HorovodInternalError: ncclAllReduce failed: unhandled cuda "
      "error");
  const FrameworkNcclError& e = ErrorIn(p);
  EXPECT_EQ(e.exception, "horovod.common.exceptions.HorovodInternalError");
  EXPECT_EQ(e.where, "ncclAllReduce");
  EXPECT_EQ(e.reason, "unhandled cuda error");
}

TEST(NcclResultError, TensorFlowRepeatsTheCall) {
  // horovod/horovod#1195, #1651 (a double blank after the exception's colon)
  const Parsed p = ParseOne(
      "tensorflow.python.framework.errors_impl.UnknownError:  ncclCommInitRank failed: "
      "ncclCommInitRank failed: unhandled system error");
  const FrameworkNcclError& e = ErrorIn(p);
  EXPECT_EQ(e.where, "ncclCommInitRank");
  EXPECT_EQ(e.reason, "unhandled system error");
}

TEST(NcclResultError, PyncclRuntimeErrorKeepsTheHint) {
  // vllm-project/vllm#7896
  const Parsed p = ParseOne(
      "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)");
  const FrameworkNcclError& e = ErrorIn(p);
  EXPECT_EQ(e.exception, "RuntimeError");
  EXPECT_EQ(e.reason, "unhandled cuda error (run with NCCL_DEBUG=INFO for details)");
}

TEST(NcclResultError, PaddleFormsNameTheirSourceLocation) {
  // PaddlePaddle/PaddleYOLO#121
  const Parsed a = ParseOne(
      "Failed, NCCL error /paddle/paddle/fluid/distributed/collective/NCCLTools.h:227 "
      "'unhandled cuda error'");
  EXPECT_EQ(ErrorIn(a).where, "/paddle/paddle/fluid/distributed/collective/NCCLTools.h:227");
  EXPECT_EQ(ErrorIn(a).reason, "unhandled cuda error");
  const Parsed b = ParseOne(
      "ExternalError: Nccl error, unhandled system error (at "
      "/paddle/paddle/fluid/platform/collective_helper.cc:66)");
  EXPECT_EQ(ErrorIn(b).where, "/paddle/paddle/fluid/platform/collective_helper.cc:66");
  EXPECT_EQ(ErrorIn(b).reason, "unhandled system error");
}

TEST(NcclResultError, CupyAndCaffeForms) {
  const Parsed a = ParseOne(
      "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_UNHANDLED_CUDA_ERROR: unhandled cuda "
      "error");
  EXPECT_EQ(ErrorIn(a).reason, "unhandled cuda error");
  // NVIDIA/caffe#492
  const Parsed b = ParseOne("Check failed: result == ncclSuccess (1 vs. 0)  unhandled cuda error");
  EXPECT_EQ(ErrorIn(b).exception, "");
  EXPECT_EQ(ErrorIn(b).reason, "unhandled cuda error");
  // MXNet's check quotes NCCL's words behind "NCCL error: ".
  const Parsed c = ParseOne(
      "mxnet.base.MXNetError: [12:01:02] src/kvstore/comm.h:123: Check failed: result == "
      "ncclSuccess (2 vs. 0) NCCL error: unhandled system error");
  EXPECT_EQ(ErrorIn(c).reason, "unhandled system error");
}

TEST(NcclResultError, TensorRtLlmAndOldPyTorchForms) {
  // NVIDIA/TensorRT-LLM's NCCLCHECK (the PaddlePaddle form under another path).
  const Parsed a = ParseOne(
      "[TensorRT-LLM][ERROR] Failed, NCCL error "
      "/app/tensorrt_llm/cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:353 'unhandled "
      "cuda error'");
  EXPECT_EQ(ErrorIn(a).exception, "TensorRT-LLM");
  EXPECT_EQ(ErrorIn(a).reason, "unhandled cuda error");
  // NVIDIA/TensorRT-LLM#1039: NCCL's text for a result it does not know.
  const Parsed u = ParseOne(
      "Failed, NCCL error /home/jenkins/agent/workspace/LLM/main/L0_MergeRequest/tensorrt_llm/"
      "cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp:183 'unknown result code'");
  EXPECT_EQ(ErrorIn(u).reason, "unknown result code");
  // PyTorch before 1.5 printed the result's code.
  const Parsed b = ParseOne("RuntimeError: NCCL Error 2: unhandled system error");
  EXPECT_EQ(ErrorIn(b).exception, "RuntimeError");
  EXPECT_EQ(ErrorIn(b).reason, "unhandled system error");
}

TEST(NcclResultError, RaftQuotesTheResultAsPythonBytes) {
  // NVIDIA/cuml#4741 (cuML KMeans on Dask, RAFT's comms init)
  const Parsed p = ParseOne("RuntimeError: NCCL_ERROR: b'unhandled system error'");
  const FrameworkNcclError& e = ErrorIn(p);
  EXPECT_EQ(e.exception, "RuntimeError");
  EXPECT_EQ(e.reason, "unhandled system error");
}

TEST(NcclResultError, PaddleEnforceWhatNamesTheNcclHelper) {
  // PaddlePaddle/Paddle#18576: the what() of paddle::platform::EnforceNotMet; no word "NCCL".
  const Parsed p = ParseOne(
      "  what():  unhandled cuda error at "
      "[/ssd1/xiege/paddle_wheel/Paddle_2.7/Paddle/paddle/fluid/platform/nccl_helper.h:70]");
  const FrameworkNcclError& e = ErrorIn(p);
  EXPECT_EQ(e.exception, "PaddlePaddle");
  EXPECT_EQ(e.reason, "unhandled cuda error");
  EXPECT_EQ(e.where, "/ssd1/xiege/paddle_wheel/Paddle_2.7/Paddle/paddle/fluid/platform/nccl_helper.h:70");
}

TEST(NcclResultError, WhatOfAFileNotNamedForNcclStaysUnread) {
  const Parsed p = ParseOne("  what():  unhandled cuda error at [/paddle/fluid/memory/alloc.h:70]");
  EXPECT_EQ(p.outcome, ParseOutcome::kNotNccl);
}

TEST(NcclResultError, OtherTextAfterTheFramingIsNoNcclError) {
  // The framing alone is not enough: the text must be one of NCCL's result strings.
  for (std::string_view line :
       {"RuntimeError: NCCL error: something the application made up",
        "ValueError: ncclAllReduce failed: because the tensor is empty",
        "horovod.common.exceptions.HorovodInternalError: Broadcast is not supported",
        "Check failed: result == ncclSuccess (1 vs. 0",
        "Failed, NCCL error /paddle/paddle/fluid/x.h:1 unquoted"}) {
    const auto p = ParseOne(line);
    EXPECT_EQ(std::get_if<FrameworkNcclError>(&p.event.data), nullptr) << line;
  }
}

}  // namespace
}  // namespace ncclscope
