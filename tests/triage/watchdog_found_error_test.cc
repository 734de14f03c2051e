// PyTorch's "Process group watchdog thread terminated with exception: <error>": when the
// exception is an error the watchdog found in an NCCL work (a CUDA error), that is the rank's
// own failure; when it is the watchdog's timeout, it stays the timeout's teardown. Lines quoted
// from a public thread (bytedance/flux#40).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::FindingOf;
using testing::Has;
using testing::OneCulprit;

constexpr std::string_view kIllegalAccess =
    "W0907 22:34:09.000000 22438061766464 torch/distributed/run.py:779] "
    "*****************************************\n"
    "before flux shm initialization\n"
    "[rank1]:[E907 22:34:22.723784108 ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank 1] "
    "Process group watchdog thread terminated with exception: CUDA error: an illegal memory "
    "access was encountered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n";

TEST(WatchdogFoundError, CudaErrorIsTheRanksOwnFailure) {
  const AnalysisResult r = AnalyzeText(std::string(kIllegalAccess));
  const RootCause& c = r.root_cause.cause;
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error");
  EXPECT_TRUE(OneCulprit(r, 1));
  EXPECT_TRUE(Has(c.what, "illegal memory access")) << c.what;
  const Finding* cuda = FindingOf(r, "cuda-error");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->severity, Severity::kError);
}

TEST(WatchdogFoundError, TimeoutExceptionStaysTheTimeoutsTeardown) {
  const AnalysisResult r = AnalyzeText(
      "[rank1]:[E ProcessGroupNCCL.cpp:1182] [Rank 1] NCCL watchdog thread terminated with "
      "exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
      "OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800013 "
      "milliseconds before timing out.\n");
  for (const Incident& i : r.job.incidents.incidents) {
    EXPECT_NE(i.kind, IncidentKind::kNcclError) << i.message;
  }
  EXPECT_EQ(FindingOf(r, "cuda-error"), nullptr);
}

TEST(WatchdogFoundError, PeerGoneErrorStaysTheTeardown) {
  const AnalysisResult r = AnalyzeText(
      "[rank5]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 5] Process group watchdog thread "
      "terminated with exception: NCCL error: remote process exited or there was a network "
      "error, NCCL version 2.21.5\n");
  bool teardown = false;
  for (const Incident& i : r.job.incidents.incidents) {
    EXPECT_NE(i.kind, IncidentKind::kNcclError) << i.message;
    teardown = teardown || i.kind == IncidentKind::kTeardown;
  }
  EXPECT_TRUE(teardown);
}

TEST(WatchdogFoundError, NcclErrorKeepsItsWordsOnce) {
  const AnalysisResult r = AnalyzeText(
      "[rank3]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 3] Process group watchdog thread "
      "terminated with exception: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO "
      "for details), NCCL version 2.21.5\n");
  int errors = 0;
  for (const Incident& i : r.job.incidents.incidents) {
    if (i.kind != IncidentKind::kNcclError) continue;
    ++errors;
    EXPECT_TRUE(i.message.view().starts_with("unhandled cuda error")) << i.message;
  }
  EXPECT_EQ(errors, 1);
  EXPECT_TRUE(OneCulprit(r, 3));
}

// kohya-ss/sd-scripts#1434: the CUDA error is raised in Python without a rank, then the same
// process's watchdog reports it with the rank. One failure: rank 1's.
constexpr std::string_view kEccTwice =
    "    exponent = exponent / (half_dim - downscale_freq_shift)\n"
    "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
    "\n"
    "[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: CUDA "
    "error: uncorrectable ECC error encountered\n";

TEST(WatchdogFoundError, RanklessExceptionOfTheSameErrorIsThatRanks) {
  const AnalysisResult r = AnalyzeText(std::string(kEccTwice));
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "nccl-error") << c.reasoning;
  EXPECT_TRUE(OneCulprit(r, 1));
  EXPECT_TRUE(Has(c.what, "uncorrectable ECC error")) << c.what;
}

TEST(WatchdogFoundError, RanklessExceptionOfAnotherErrorStaysApart) {
  std::string other(kEccTwice);
  other.replace(other.find("CUDA error: uncorrectable"), 11, "ValueError:");
  const AnalysisResult r = AnalyzeText(other);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "python-exception") << c.reasoning;
  ASSERT_EQ(c.culprits.size(), 1u) << c.reasoning;
  EXPECT_EQ(c.culprits[0].rank, -1) << c.reasoning;
}

TEST(WatchdogFoundError, RanklessExceptionFarAboveStaysApart) {
  std::string far(kEccTwice);
  const size_t at = far.find("\n\n[E ProcessGroupNCCL");
  far.insert(at + 1, "step 1\nstep 2\nstep 3\nstep 4\nstep 5\n");  // now 10 lines apart
  const AnalysisResult r = AnalyzeText(far);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "python-exception")
      << r.root_cause.cause.reasoning;
}

}  // namespace
}  // namespace ncclscope
