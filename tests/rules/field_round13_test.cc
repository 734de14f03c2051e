// The families the thirteenth held-out round of public logs exposed (docs/triage.md): jobs that
// failed in or right after NCCL's init; lines verbatim from the threads named, each with the case
// where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

// NVIDIA/nccl#1247 (vLLM on Ray): the worker's exception goes through vLLM's logger, whose head
// the input layer does not strip, also on PyTorch's "Last error:" line and its detail.
constexpr std::string_view kLoggerHeadLastError =
    "(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] "
    "torch.distributed.DistBackendError: NCCL error in: /root/pytorch/torch/csrc/distributed/"
    "c10d/ProcessGroupNCCL.cpp:1333, internal error - please report this issue to the NCCL "
    "developers, NCCL version 2.18.6\n"
    "(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] ncclInternalError: Internal "
    "check failed.\n"
    "(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] Last error:\n"
    "(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] Attribute busid of node nic "
    "not found\n";

TEST(FieldRound13, LastErrorBehindALoggerHeadGivesItsDetail) {
  const AnalysisResult r = AnalyzeText(kLoggerHeadLastError);
  // The detail is the topology XML's missing attribute: a configuration finding.
  EXPECT_NE(FindingOf(r, "costly-setting"), nullptr);
  EXPECT_NE(r.root_cause.cause.what.find("Last error: Attribute busid of node nic not found"),
            std::string::npos)
      << r.root_cause.cause.what;
}

TEST(FieldRound13, ASentenceEndingInLastErrorIsNoLastErrorLine) {
  // Only a head that ends in "] " counts: prose is not a logger head.
  const AnalysisResult r = AnalyzeText(
      "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1333, internal "
      "error, NCCL version 2.18.6\n"
      "see the message printed after Last error:\n"
      "Attribute busid of node nic not found\n");
  EXPECT_EQ(FindingOf(r, "costly-setting"), nullptr);
}

// NVIDIA/nccl#348: nccl-tests on two nodes whose processes all print one host name; ranks 8-15
// ask for GPUs 8-15 of an 8-GPU node.
constexpr std::string_view kTestCudaFailure =
    "[1,13]<stdout>:192.168.0.138: Test CUDA failure common.cu:732 'invalid device ordinal'\n"
    "[1,15]<stdout>:192.168.0.138: Test CUDA failure common.cu:732 'invalid device ordinal'\n";

TEST(FieldRound13, NcclTestsCudaCheckIsACudaFailureOfItsRanks) {
  const AnalysisResult r = AnalyzeText(kTestCudaFailure);
  EXPECT_NE(FindingOf(r, "cuda-error"), nullptr);
  EXPECT_EQ(FindingOf(r, "nccl-error"), nullptr);  // no NCCL call failed
  const RootCause& c = r.root_cause.cause;
  EXPECT_TRUE(c.job_failed);
  EXPECT_NE(c.what.find("failed a CUDA call in nccl-tests: invalid device ordinal"),
            std::string::npos)
      << c.what;
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits[0].host, "192.168.0.138");
}

// horovod/horovod#110 (TensorFlow, NCCL 2.3.5): one process's connect times out; TensorFlow's
// traceback names no rank or pid.
constexpr std::string_view kTensorflowInitFailure =
    "lf-solar-gpu9-pm:285594:285607 [0] include/socket.h:361 NCCL WARN Call to connect failed : "
    "Connection timed out\n"
    "lf-solar-gpu9-pm:285594:285607 [0] NCCL INFO transport/net_socket.cu:139 -> 2\n"
    "lf-solar-gpu9-pm:285594:285607 [0] NCCL INFO init.cu:557 -> 2\n"
    "Traceback (most recent call last):\n"
    "  File \"session.py\", line 1409, in _call_tf_sessionrun\n"
    "    run_metadata)\n"
    "tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled "
    "system error\n";

TEST(FieldRound13, AnUnnamedTracebackInAOneProcessLogIsThatProcesssAndItsWarnIsTheCause) {
  const AnalysisResult r = AnalyzeText(kTensorflowInitFailure);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(c.cls, CauseClass::kNetwork);
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].pid, 285594);
  EXPECT_EQ(c.culprits[0].host, "lf-solar-gpu9-pm");
}

TEST(FieldRound13, AnUnnamedTracebackInATwoProcessLogStaysUnnamed) {
  std::string log(kTensorflowInitFailure);
  log.insert(0, "lf-solar-gpu13-pm:1234:1240 [0] NCCL INFO NET/Socket : Using [0]br0:10.9.22.13<0>\n");
  const AnalysisResult r = AnalyzeText(log);
  for (const Incident& i : r.job.incidents.incidents) {
    if (i.kind == IncidentKind::kException) {
      EXPECT_LE(i.pid, 0) << i.message;
    }
  }
}

// NVIDIA/nccl#1382 (JAX): XLA's status text of a failed NCCL call, with NCCL's last warning.
TEST(FieldRound13, XlaNcclOperationFailureIsARaisedNcclError) {
  const AnalysisResult r = AnalyzeText(
      "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation "
      "ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run with "
      "NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be unrelated) "
      "'socketTryAccept: Accept failed: Bad file descriptor'.\n");
  EXPECT_EQ(r.job.stats.unrecognized_mentions, 0u);
  ASSERT_FALSE(r.job.framework.empty());
  const FrameworkRecord& f = r.job.framework.front();
  EXPECT_EQ(f.exception, "XLA");
  EXPECT_EQ(f.where, "external/xla/xla/service/gpu/nccl_utils.cc:305");
  EXPECT_EQ(f.reason, "unhandled system error (run with NCCL_DEBUG=INFO for details)");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);  // from NCCL's last warning
}

}  // namespace
}  // namespace ncclscope
