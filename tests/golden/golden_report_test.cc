// Golden reports: the text and JSON reports of every corpus log must match testdata/golden/.
// Regenerate with tests/golden/update_golden.sh after an intended change, and review the diff.
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

std::vector<std::string> GoldenInputs() {
  std::ifstream in(testing::TestData("golden/inputs.txt"));
  std::vector<std::string> v;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) v.push_back(line);
  }
  return v;
}

std::string GoldenName(std::string input) {
  if (input.rfind("corpus/", 0) == 0) input = input.substr(7);
  for (char& c : input) {
    if (c == '/') c = '#';
  }
  std::string out;
  for (char c : input) out += c == '#' ? std::string("__") : std::string(1, c);
  if (out.size() > 4 && out.compare(out.size() - 4, 4, ".log") == 0) out.resize(out.size() - 4);
  return out;
}

std::string RunInTestdata(const std::string& args) {
  std::string cmd = "cd '" + testing::TestData("") + "' && '" + testing::BinaryPath() + "' " +
                    args + " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

class GoldenReport : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenReport, JsonMatches) {
  std::string want =
      testing::ReadFileOrDie(testing::TestData("golden/" + GoldenName(GetParam()) + ".json"));
  std::string got = RunInTestdata("analyze --format json --fail-on never " + GetParam());
  EXPECT_EQ(got, want) << "regenerate with tests/golden/update_golden.sh if intended";
}

TEST_P(GoldenReport, TextMatches) {
  std::string want =
      testing::ReadFileOrDie(testing::TestData("golden/" + GoldenName(GetParam()) + ".txt"));
  std::string got =
      RunInTestdata("analyze --format text --color never --fail-on never " + GetParam());
  EXPECT_EQ(got, want) << "regenerate with tests/golden/update_golden.sh if intended";
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenReport, ::testing::ValuesIn(GoldenInputs()),
                         [](const auto& info) {
                           std::string n = GoldenName(info.param);
                           for (char& c : n) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace ncclscope
