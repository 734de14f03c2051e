#include "test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ncclscope/base/text_tokens.h"

namespace ncclscope::testing {

std::string TestData(std::string_view relative) {
  return std::string(NCCLSCOPE_TESTDATA) + "/" + std::string(relative);
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::string_view line : ncclscope::SplitLines(text)) lines.emplace_back(line);
  return lines;
}

std::string BinaryPath() { return NCCLSCOPE_BINARY; }

}  // namespace ncclscope::testing
