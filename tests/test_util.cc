#include "test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string BinaryPath() { return NCCLSCOPE_BINARY; }

}  // namespace ncclscope::testing
