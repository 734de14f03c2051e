// `ncclscope diff` exit codes: 0 without what --fail-on counts, 1 with it, 2 on bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace ncclscope {
namespace {

using testing::BinaryPath;
using testing::TestData;

int RunCli(const std::string& args) {
  int rc = std::system((BinaryPath() + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string Corpus(const char* name) { return "'" + TestData(std::string("corpus/") + name) + "'"; }

TEST(DiffCliTest, IdenticalRunsExitZero) {
  EXPECT_EQ(RunCli("diff " + Corpus("h200x4/default.log") + " " + Corpus("h200x4/default.log")), 0);
}

TEST(DiffCliTest, RegressionExitsOneUnlessFailOnNever) {
  const std::string pair = Corpus("h200x4/default.log") + " " + Corpus("h200x4/p2p_disable.log");
  EXPECT_EQ(RunCli("diff " + pair), 1);
  EXPECT_EQ(RunCli("diff --fail-on never " + pair), 0);
  // The way back is an improvement: no regression, but a change.
  const std::string back = Corpus("h200x4/p2p_disable.log") + " " + Corpus("h200x4/default.log");
  EXPECT_EQ(RunCli("diff " + back), 0);
  EXPECT_EQ(RunCli("diff --fail-on change " + back), 1);
}

TEST(DiffCliTest, HealthyRunThenADeadRankExitsOne) {
  // Same machine and NCCL setup; after: rank 1 was SIGKILLed at step 3 (no link or finding of
  // warning level tells it: only the root cause does).
  const std::string healthy = Corpus("h200x2-extra/subsys_init_net_proxy.log");
  EXPECT_EQ(RunCli("diff " + healthy + " " + Corpus("h200x2-failures/kill_p2p.log")), 1);
  EXPECT_EQ(RunCli("diff " + Corpus("h200x2-failures/kill_p2p.log") + " " + healthy), 0);
  // A restart that completed after rank 1 was killed in attempt 1.
  EXPECT_EQ(RunCli("diff " + healthy + " " + Corpus("h200x2-failures/restart_after_kill.log")), 1);
  // The same failure twice: nothing new.
  EXPECT_EQ(RunCli("diff " + Corpus("h200x2-failures/kill_p2p.log") + " " +
                   Corpus("h200x2-failures/kill_p2p.log")),
            0);
}

TEST(DiffCliTest, DirectoryOfPerProcessFilesIsOneRun) {
  // debug_file/ holds the two_nodes configuration, one file per process.
  EXPECT_EQ(RunCli("diff " + Corpus("h200x4/debug_file") + " " + Corpus("h200x4/debug_file")), 0);
}

TEST(DiffCliTest, BadInputExitsTwo) {
  const std::string log = Corpus("h200x4/default.log");
  EXPECT_EQ(RunCli("diff " + log + " /nonexistent.log"), 2);
  EXPECT_EQ(RunCli("diff - -"), 2);
  EXPECT_EQ(RunCli("diff " + log), 2);                              // One run only.
  EXPECT_EQ(RunCli("diff --fail-on error " + log + " " + log), 2);  // Not a diff level.
  const auto bad = std::filesystem::path(::testing::TempDir()) / "bad_report.json";
  std::ofstream(bad) << R"({"schema_version": 7, "tool": {"name": "ncclscope"}})";
  EXPECT_EQ(RunCli("diff '" + bad.string() + "' " + log), 2);
  const auto empty = std::filesystem::path(::testing::TempDir()) / "no_nccl.log";
  std::ofstream(empty) << "epoch 1 loss 2.3\n";
  EXPECT_EQ(RunCli("diff '" + empty.string() + "' " + log), 2);
}

TEST(DiffCliTest, StdinIsOneSide) {
  EXPECT_EQ(RunCli("diff - " + Corpus("h200x4/default.log") + " < " + Corpus("h200x4/default.log")),
            0);
}

}  // namespace
}  // namespace ncclscope
