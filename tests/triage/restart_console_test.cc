// torchrun's console alone, at its default log level, prints no "will restart worker group" line:
// a restarted worker group shows as the agent signalling worker pids it never named before, well
// after the first failure (testdata/corpus/h200x1-failures/restart_*_logdir.console.log, real).
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

AnalysisResult AnalyzeCorpusFile(const std::string& relative) {
  return AnalyzeText(testing::ReadFileOrDie(testing::TestData(relative)), relative);
}

TEST(RestartConsole, NewWorkerPidsAfterAFailureStartTheNextAttempt) {
  const AnalysisResult r =
      AnalyzeCorpusFile("corpus/h200x1-failures/restart_kill_logdir.console.log");
  ASSERT_EQ(r.root_cause.attempts.size(), 2u);
  const RootCause& first = r.root_cause.attempts[0].cause;
  EXPECT_EQ(CauseClassName(first.cls), "process-killed");
  ASSERT_EQ(first.culprits.size(), 1u);
  EXPECT_EQ(first.culprits[0].rank, 1);
  const RootCause& second = r.root_cause.attempts[1].cause;
  ASSERT_EQ(second.culprits.size(), 1u);
  EXPECT_EQ(second.culprits[0].rank, 1);
  EXPECT_EQ(second.culprits[0].pid, 626) << "the restarted worker";
}

TEST(RestartConsole, OneFailureSlowToStopIsOneAttempt) {
  // The agent's SIGTERM to a worker that does not stop, its SIGKILL 30 s later, and the failed
  // worker's report after it: pids of one failure, however far apart.
  const AnalysisResult r = AnalyzeText(
      "W1127 12:30:01.000000 574 torch/distributed/elastic/multiprocessing/api.py:1012] Sending "
      "process 582 closing signal SIGTERM\n"
      "W1127 12:30:31.000000 574 torch/distributed/elastic/multiprocessing/api.py:1012] Sending "
      "process 582 closing signal SIGKILL\n"
      "E1127 12:30:31.114000 574 torch/distributed/elastic/multiprocessing/api.py:986] failed "
      "(exitcode: 1) local_rank: 1 (pid: 583) of binary: /usr/bin/python\n");
  EXPECT_EQ(r.root_cause.attempts.size(), 1u);
}

}  // namespace
}  // namespace ncclscope
