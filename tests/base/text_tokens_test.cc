#include "ncclscope/base/text_tokens.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

TEST(ClipText, TextUpToTheLimitIsKeptWhole) {
  EXPECT_EQ(ClipText("", 3), "");
  EXPECT_EQ(ClipText("abc", 3), "abc");
  EXPECT_EQ(ClipText("ab", 3), "ab");
}

TEST(ClipText, LongerTextKeepsItsFirstBytesAndSaysItWasCut) {
  EXPECT_EQ(ClipText("abcd", 3), "abc...");
  const std::string line(250, 'x');
  EXPECT_EQ(ClipText(line, 200), std::string(200, 'x') + "...");
  EXPECT_EQ(ClipText("abc", 0), "...");
}

}  // namespace
}  // namespace ncclscope
