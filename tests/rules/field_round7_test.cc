// The families the seventh held-out round of public logs exposed (docs/triage.md): lines verbatim
// from the threads named, each with the case where the tool must conclude otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::OneCulprit;

TEST(FieldRound7, TheProxyServiceThreadsReportIsNotTheCause) {
  // deepseek-ai/DeepEP#143: two processes fail to create an IB completion queue; a third one's
  // proxy service thread then reports its failed Connect. The verbs failure is the cause.
  AnalysisResult r = AnalyzeText(
      "msm-h200-2:4016:4653 [7] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_create_cq failed with "
      "error Cannot allocate memory\n"
      "msm-h200-2:4016:4653 [7] NCCL INFO transport/net_ib.cc:659 -> 2\n"
      "msm-h200-2:4011:4581 [2] NCCL INFO transport/net.cc:304 -> 2\n"
      "msm-h200-2:4011:4650 [2] proxy.cc:1533 NCCL WARN [Service thread] Error encountered "
      "progressing operation=Connect, res=3, closing connection\n"
      "msm-h200-2:4011:4650 [2] proxy.cc:1567 NCCL WARN [Proxy Service 10] Failed to execute "
      "operation Connect from rank 10, retcode 3\n");
  const RootCause& rc = r.root_cause.cause;
  ASSERT_EQ(rc.culprits.size(), 1u);
  EXPECT_EQ(rc.culprits[0].pid, 4016);
  EXPECT_EQ(rc.cls, CauseClass::kNetwork);
  EXPECT_NE(rc.reasoning.find("ibv_create_cq"), std::string::npos) << rc.reasoning;
}

constexpr std::string_view kProxyConnectOverIb =
    // NVIDIA/nccl-tests#111: the proxy's report, then the trail out of the IB transport.
    "us1-ai-worker-67:406794:406838 [0] proxy.cc:1040 NCCL WARN [Proxy Service 8] Failed to "
    "execute operation Connect from rank 8, retcode 2\n"
    "us1-ai-worker-67:406794:406838 [0] NCCL INFO transport/net_ib.cc:664 -> 2\n"
    "us1-ai-worker-67:406794:406838 [0] NCCL INFO include/net.h:26 -> 2\n"
    "us1-ai-worker-67:406794:406838 [0] NCCL INFO transport/net.cc:631 -> 2\n"
    "us1-ai-worker-67:406794:406838 [0] NCCL INFO proxy.cc:914 -> 2\n"
    "us1-ai-worker-66:405399:405430 [0] NCCL INFO Connected all trees\n";

TEST(FieldRound7, AProxysFailedConnectOutOfTheIbTransportIsANetworkFailure) {
  AnalysisResult r = AnalyzeText(kProxyConnectOverIb);
  const RootCause& rc = r.root_cause.cause;
  EXPECT_TRUE(OneCulprit(r, 8));
  EXPECT_EQ(rc.cls, CauseClass::kNetwork);
  EXPECT_NE(rc.reasoning.find("net_ib.cc:664"), std::string::npos) << rc.reasoning;
  // The proxy's report says that the connect failed, not why: the trail's IB finding stays.
  const Finding* ib = FindingOf(r, "ib-error");
  ASSERT_NE(ib, nullptr);
  EXPECT_NE(FindingOf(r, "connection-error"), nullptr);
}

TEST(FieldRound7, AProxysFailedConnectWithItsReasonIsClassedByTheReason) {
  // The same report with the WARN that says why (a CUDA failure in the same process).
  std::string text(kProxyConnectOverIb);
  text =
      "us1-ai-worker-67:406794:406838 [0] misc/cudawrap.cc:188 NCCL WARN Cuda failure 'out of "
      "memory'\n" +
      text;
  AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kCudaOom);
  EXPECT_EQ(FindingOf(r, "ib-error"), nullptr);
}

TEST(FieldRound7, AnInitializationErrorInTheNvlsTransportIsAnNvlsFailure) {
  // vllm-project/vllm#9369, pytorch/pytorch#130113.
  AnalysisResult r = AnalyzeText(
      "kmaker-54:44712:44746 [2] transport/nvls.cc:246 NCCL WARN Cuda failure 3 'initialization "
      "error'\n"
      "kmaker-54:44712:44746 [2] NCCL INFO init.cc:1010 -> 1\n");
  EXPECT_NE(FindingOf(r, "nvls-failure"), nullptr);
  // Elsewhere the same CUDA error is a GPU this process cannot use.
  AnalysisResult other = AnalyzeText(
      "kmaker-54:44712:44746 [2] misc/cudawrap.cc:33 NCCL WARN Cuda failure 'initialization "
      "error'\n");
  EXPECT_EQ(FindingOf(other, "nvls-failure"), nullptr);
  EXPECT_NE(FindingOf(other, "cuda-error"), nullptr);
}

}  // namespace
}  // namespace ncclscope
