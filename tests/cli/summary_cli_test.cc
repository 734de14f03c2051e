// `ncclscope summarize` and `ncclscope merge` end to end: per-file summaries merged give the
// analyze report of the directory, byte for byte.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "input/input_test_helpers.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::BinaryPath;
using testing::ReadFileOrDie;
using testing::TestData;

int RunCli(const std::string& args) {
  int rc = std::system((BinaryPath() + " " + args + " 2>/dev/null").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(SummaryCliTest, MergedSummariesEqualAnalyzeOfTheDirectory) {
  const ncclscope::testing::ScratchDir scratch;
  const std::filesystem::path dir = scratch.path();
  const std::string logs = TestData("corpus/h200x4/debug_file");
  for (const auto& e : std::filesystem::directory_iterator(logs)) {
    const std::string out = (dir / (e.path().filename().string() + ".json")).string();
    ASSERT_EQ(RunCli("summarize '" + e.path().string() + "' -o '" + out + "'"), 0);
  }
  // Sorted like the directory expansion of analyze.
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string summaries;
  for (const auto& f : files) summaries += " '" + f + "'";
  const std::string merged = (dir / "merged.out").string();
  const std::string direct = (dir / "direct.out").string();
  const int merge_rc = RunCli("merge" + summaries + " -f json -o '" + merged + "'");
  const int analyze_rc = RunCli("analyze '" + logs + "' -f json -o '" + direct + "'");
  EXPECT_EQ(merge_rc, analyze_rc);
  EXPECT_EQ(ReadFileOrDie(merged), ReadFileOrDie(direct));
  // Not a summary: usage error.
  EXPECT_EQ(RunCli("merge '" + TestData("corpus/h200x4/default.log") + "'"), 2);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncclscope
