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

std::string BinaryPath() { return NCCLSCOPE_BINARY; }

}  // namespace ncclscope::testing
