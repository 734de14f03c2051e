// PyTorch's multiprocess test harness (MultiProcessTestCase._check_return_codes) says how its
// test processes ended; process i is rank i. A process still running at the test's time limit
// is the root cause as a timeout of unknown cause; a negative exit code is the signal that
// killed it. Lines from testdata/real-world (pytorch-67154, pytorch-48500) and the message forms
// of torch/testing/_internal/common_distributed.py across versions.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"
#include "rules/finding_lookup.h"

namespace ncclscope {
namespace {

using testing::OneCulprit;
using testing::ParseAs;
using testing::ParseOne;

/// Success when the root cause has this class and names this one rank.
::testing::AssertionResult CauseOfRank(const AnalysisResult& r, std::string_view cls, int rank) {
  if (CauseClassName(r.root_cause.cause.cls) != cls) {
    return ::testing::AssertionFailure() << "class " << CauseClassName(r.root_cause.cause.cls)
                                         << ": " << r.root_cause.cause.reasoning;
  }
  return OneCulprit(r, rank);
}

TEST(TestHarness, TimedOutProcessIsItsRank) {
  const auto e = ParseAs<ProcessExit>(
      "RuntimeError: Process 1 terminated or timed out after 100.07976341247559 seconds");
  EXPECT_EQ(e.reporter, ExitReporter::kTestHarness);
  EXPECT_EQ(e.rank, 1);
  EXPECT_TRUE(e.timed_out);
  EXPECT_FALSE(e.exit_code.has_value());
  EXPECT_EQ(e.signal, 0);
}

TEST(TestHarness, RankAndShortTimeoutFormsAreRead) {
  const auto rank =
      ParseAs<ProcessExit>("RuntimeError: Rank 3 terminated or timed out after 60.0 seconds");
  EXPECT_EQ(rank.rank, 3);
  EXPECT_TRUE(rank.timed_out);
  const auto shorter = ParseAs<ProcessExit>("RuntimeError: Process 0 timed out after 300 seconds");
  EXPECT_EQ(shorter.rank, 0);
  EXPECT_TRUE(shorter.timed_out);
}

TEST(TestHarness, ExitCodeMismatchNamesTheProcessThatFailed) {
  const auto got = ParseAs<ProcessExit>(
      "AssertionError: 0 != -6 : Expect process 2 exit code to match Process 0 exit code of 0, "
      "but got -6");
  EXPECT_EQ(got.rank, 2);
  EXPECT_EQ(got.exit_code, -6);
  EXPECT_EQ(got.signal, 6);
  EXPECT_FALSE(got.timed_out);
  // Process 0 failed and process 1 did not: process 0 is the one.
  const auto first = ParseAs<ProcessExit>(
      "AssertionError: -11 != 0 : Expect rank1 exit code to match rank 0 exit code of -11 but "
      "got 0");
  EXPECT_EQ(first.rank, 0);
  EXPECT_EQ(first.signal, 11);
}

TEST(TestHarness, NonZeroExitOfEveryProcessNamesNoRank) {
  const auto e = ParseAs<ProcessExit>(
      "AssertionError: False is not true : Expected zero exit code but got -11");
  EXPECT_EQ(e.rank, -1);
  EXPECT_EQ(e.exit_code, -11);
  EXPECT_EQ(e.signal, 11);
  // A line of PyTorch's multi-line assertion message, with process 0's pid.
  const auto line = ParseAs<ProcessExit>("Expected zero exit code but got 1 for pid: 4312");
  EXPECT_EQ(line.exit_code, 1);
  EXPECT_EQ(line.signal, 0);
  EXPECT_EQ(line.pid, -1);
}

TEST(TestHarness, ExceptionReportNamesTheRaisingProcess) {
  const auto e =
      ParseAs<ProcessExit>("RuntimeError: Process 1 exited with error code 10 and exception:");
  EXPECT_EQ(e.rank, 1);
  EXPECT_EQ(e.exit_code, 10);
  EXPECT_EQ(e.signal, 0);
}

TEST(TestHarness, TracebackAfterTheExceptionReportIsThatRanks) {
  // The harness's RuntimeError lists every process that raised, each with its traceback (the
  // second report starts a line of its own): each exception is its process's.
  const AnalysisResult r = AnalyzeText(
      "RuntimeError: Process 1 exited with error code 10 and exception:\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/testing/_internal/"
      "common_distributed.py\", line 663, in run_test\n"
      "    getattr(self, test_name)()\n"
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
      "NCCLUtils.hpp:219, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL "
      "version 2.19.3\n"
      "\n"
      "Process 2 exited with error code 10 and exception:\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/testing/_internal/"
      "common_distributed.py\", line 663, in run_test\n"
      "    getattr(self, test_name)()\n"
      "ValueError: expected a tensor on cuda:2\n");
  EXPECT_TRUE(CauseOfRank(r, "nccl-error", 1));
  // Rank 2's own exception is its failure, not an unidentified rank's.
  bool rank2_exception = false;
  for (const Incident& i : r.job.incidents.incidents) {
    if (i.kind == IncidentKind::kException && i.type == "ValueError") {
      rank2_exception = i.rank == 2;
    }
  }
  EXPECT_TRUE(rank2_exception);
}

TEST(TestHarness, SourceLinesAndOtherMessagesAreNotVerdicts) {
  // The traceback echoes the harness's source: no numbers, no verdict.
  for (const char* line :
       {"    msg=\"Expected zero exit code but got {}\".format(first_process.exitcode)",
        "RuntimeError: Process group terminated or timed out",
        "RuntimeError: Process 1 terminated or timed out after a while",
        "AssertionError: Expected zero exit code but got 0"}) {
    const testing::Parsed p = ParseOne(line);
    EXPECT_NE(EventTypeName(p.event.data), "process_exit") << line;
  }
}

TEST(TestHarness, TimedOutProcessIsTheRootCause) {
  // pytorch-67154 (Jenkins timestamper's prefix), trimmed to the traceback's last frame.
  const AnalysisResult r = AnalyzeText(
      "ERROR [100.094s]: test_nccl_barrier_timeout_new_group_non_member (__main__.CommTest)\n"
      "02:56:49 Traceback (most recent call last):\n"
      "02:56:49   File \"/opt/conda/lib/python3.6/site-packages/torch/testing/_internal/"
      "common_distributed.py\", line 695, in _check_return_codes\n"
      "02:56:49     i, elapsed_time\n"
      "02:56:49 RuntimeError: Process 1 terminated or timed out after 100.07976341247559 "
      "seconds\n");
  EXPECT_TRUE(CauseOfRank(r, "timeout-unknown", 1));
  EXPECT_NE(r.root_cause.cause.what.find("time limit"), std::string::npos)
      << r.root_cause.cause.what;
}

TEST(TestHarness, NegativeExitCodeIsACrash) {
  // pytorch-48500: every test process died of SIGSEGV.
  const AnalysisResult r = AnalyzeText(
      "Nov 26 23:08:31 AssertionError: False is not true : Expected zero exit code but got "
      "-11\n");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "crash-signal");
  EXPECT_NE(c.what.find("SIGSEGV"), std::string::npos) << c.what;
}

TEST(TestHarness, PositiveExitCodeAloneIsAnExceptionAtMediumConfidence) {
  // A positive code with no traceback in the input: the likeliest reading (an exception), not
  // a fact, as for any other exit code the input gives alone.
  const AnalysisResult r = AnalyzeText(
      "AssertionError: 0 != 1 : Expect process 1 exit code to match Process 0 exit code of 0, "
      "but got 1\n");
  EXPECT_TRUE(CauseOfRank(r, "python-exception", 1));
  EXPECT_EQ(r.root_cause.cause.confidence, Confidence::kMedium);
}

}  // namespace
}  // namespace ncclscope
