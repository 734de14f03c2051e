// Golden diffs: `ncclscope diff` of real corpus pairs in text, JSON and markdown must match
// testdata/golden/diff/, and the exit code must be the one the diff states. Regenerate with
// tests/golden/update_golden.sh after an intended change, and review the diff.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace ncclscope {
namespace {

struct Case {
  std::string name, before, after;
};

std::vector<Case> Cases() {
  std::ifstream in(testing::TestData("golden/diff/cases.txt"));
  std::vector<Case> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ss(line);
    Case c;
    if (ss >> c.name >> c.before >> c.after) out.push_back(c);
  }
  return out;
}

/// Runs the binary in testdata/; returns stdout and sets *exit_code.
std::string RunDiff(const std::string& args, int* exit_code) {
  const std::string cmd = "cd '" + testing::TestData("") + "' && '" + testing::BinaryPath() + "' " +
                          args + " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  const int rc = pclose(p);
  *exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

class GoldenDiff : public ::testing::TestWithParam<Case> {};

TEST_P(GoldenDiff, TextMatchesAndExitCodeIsTheOneItStates) {
  const Case& c = GetParam();
  int rc = -1;
  const std::string got = RunDiff("diff --color never " + c.before + " " + c.after, &rc);
  EXPECT_EQ(got, testing::ReadFileOrDie(testing::TestData("golden/diff/" + c.name + ".txt")))
      << "regenerate with tests/golden/update_golden.sh if intended";
  const bool says_fail = got.find("\nexit 1: ") != std::string::npos;
  EXPECT_EQ(rc, says_fail ? 1 : 0);
}

TEST_P(GoldenDiff, JsonMatches) {
  const Case& c = GetParam();
  int rc = -1;
  EXPECT_EQ(RunDiff("diff -f json " + c.before + " " + c.after, &rc),
            testing::ReadFileOrDie(testing::TestData("golden/diff/" + c.name + ".json")));
}

TEST_P(GoldenDiff, MarkdownMatches) {
  const Case& c = GetParam();
  int rc = -1;
  EXPECT_EQ(RunDiff("diff -f markdown " + c.before + " " + c.after, &rc),
            testing::ReadFileOrDie(testing::TestData("golden/diff/" + c.name + ".md")));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenDiff, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace ncclscope
