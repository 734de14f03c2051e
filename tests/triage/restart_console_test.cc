// Restarts seen from torchrun's console alone and from per-process files. At its default log
// level the console prints no "will restart worker group" line: a restarted worker group shows as
// the agent signalling worker pids it never named before, well after the first failure
// (testdata/corpus/h200x1-failures/restart_*_logdir.console.log, real). A file of one process
// (NCCL_DEBUG_FILE's) counts no restart of its own: the launcher's lines say its attempt.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

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

TEST(RestartFiles, ProcessFilesTakeTheAttemptTheLauncherNamesThemIn) {
  // h200x2-failures/elastic_restart.log (attempt 1: rank 1 raises; attempt 2: rank 1's connect
  // refused) as NCCL_DEBUG_FILE would have written it: each process's NCCL lines in a file of
  // its own, the rest (the launcher's and the workers' Python output) in one console.
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("ncclscope_restart_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::map<std::string, std::vector<std::string>> files;
  for (const std::string& l : testing::SplitLines(testing::ReadFileOrDie(
           testing::TestData("corpus/h200x2-failures/elastic_restart.log")))) {
    // NCCL's head, after its optional `[time] `: `vm:951:951 [1] ...`.
    std::string_view head = l;
    if (head.starts_with("[20") && head.find("] ") != std::string_view::npos)
      head.remove_prefix(head.find("] ") + 2);
    const bool nccl = head.starts_with("vm:") && head.find(" NCCL ") != std::string_view::npos;
    const std::string name =
        nccl ? "nccl.vm." + std::string(head.substr(3, head.find(':', 3) - 3)) + ".log"
             : "console.log";
    files[name].push_back(l);
  }
  ASSERT_EQ(files.size(), 5u) << "four processes and the console";
  for (const auto& [name, lines] : files) {
    std::ofstream out(dir / name);
    for (const std::string& l : lines) out << l << '\n';
  }
  AnalyzeOptions o;
  o.inputs.push_back(dir.string());
  o.jobs = 1;
  AnalysisResult r;
  ASSERT_TRUE(Analyze(o, &r).ok());
  fs::remove_all(dir);
  ASSERT_EQ(r.root_cause.attempts.size(), 2u);
  EXPECT_EQ(CauseClassName(r.root_cause.attempts[0].cause.cls), "python-exception");
  const RootCause& second = r.root_cause.attempts[1].cause;
  EXPECT_EQ(CauseClassName(second.cls), "network") << second.reasoning;
  ASSERT_EQ(second.culprits.size(), 1u);
  EXPECT_EQ(second.culprits[0].rank, 1);
}

}  // namespace
}  // namespace ncclscope
