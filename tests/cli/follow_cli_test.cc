// End-to-end tests of `ncclscope --follow`: Ctrl-C on a FIFO that stays open still prints the
// full report and exits with the documented code; JSON Lines output; end of input.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace ncclscope {
namespace {

using testing::BinaryPath;
using testing::ReadFileOrDie;
using testing::TestData;

/// A temporary directory removed at the end of the test.
struct TempDir {
  TempDir() {
    char tmpl[] = "/tmp/ncclscope-follow-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string path;
};

/// Starts ncclscope with `args` (stdout and stderr to files in `dir`); returns its pid.
pid_t Spawn(const std::vector<std::string>& args, const TempDir& dir) {
  pid_t pid = fork();
  if (pid == 0) {
    int out = open((dir.path + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open((dir.path + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    std::string bin = BinaryPath();
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

/// Waits for the child; its exit code, or -1 if it did not exit normally within ~20 s.
int WaitExit(pid_t pid) {
  for (int i = 0; i < 2000; ++i) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

TEST(FollowCli, CtrlCOnAnOpenFifoPrintsTheFullReport) {
  TempDir dir;
  const std::string fifo = dir.path + "/log";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  pid_t pid = Spawn({"analyze", "--follow", "--format", "json", "--fail-on", "never", fifo}, dir);
  ASSERT_GT(pid, 0);
  // Opening the write end returns once ncclscope opened the FIFO: its handler is installed.
  int w = open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(w, 0);
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  ASSERT_EQ(write(w, log.data(), log.size()), static_cast<ssize_t>(log.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it read, then Ctrl-C
  kill(pid, SIGINT);
  const int code = WaitExit(pid);
  close(w);
  EXPECT_EQ(code, 0);
  std::istringstream out(ReadFileOrDie(dir.path + "/out"));
  std::string line, last;
  while (std::getline(out, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << line.substr(0, 200);
    last = line;
  }
  auto report = nlohmann::json::parse(last, nullptr, false);
  ASSERT_EQ(report["event"], "report");
  EXPECT_EQ(report["report"]["communicators"].size(), 5u);
  EXPECT_FALSE(report["report"]["links"].empty());
}

TEST(FollowCli, EndOfInputPrintsTheTextReport) {
  TempDir dir;
  pid_t pid = Spawn({"--follow", TestData("corpus/h200x4/two_nodes.log")}, dir);
  ASSERT_GT(pid, 0);
  // two_nodes.log talks over TCP between nodes: socket-fallback is an error, so exit 1.
  EXPECT_EQ(WaitExit(pid), 1);
  const std::string out = ReadFileOrDie(dir.path + "/out");
  EXPECT_NE(out.find("Findings"), std::string::npos) << out.substr(0, 500);
  // Not a terminal: no status line on stderr.
  EXPECT_EQ(ReadFileOrDie(dir.path + "/err").find('\r'), std::string::npos);
}

TEST(FollowCli, NoNcclLinesExitsThree) {
  TempDir dir;
  { std::ofstream(dir.path + "/plain.log") << "hello\nworld\n"; }
  pid_t pid = Spawn({"--follow", dir.path + "/plain.log"}, dir);
  EXPECT_EQ(WaitExit(pid), 3);
}

}  // namespace
}  // namespace ncclscope
