// The line scanner (SSE2 or AVX2, chosen at run time) over every line length and every position
// of a special byte: line ends and the NUL/ESC/non-ASCII flags must be exact at all offsets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/line_stream.h"

namespace ncclscope {
namespace {

TEST(LineScan, EveryLengthAndSpecialPositionIsFoundExactly) {
  std::string text;
  std::vector<std::string> expected;
  uint64_t expected_nul = 0;
  for (size_t len = 0; len <= 97; ++len) {
    std::string plain(len, 'a');
    for (size_t i = 0; i < len; ++i) plain[i] = static_cast<char>('a' + (i % 26));
    expected.push_back(plain);
    text += plain + "\n";
    for (size_t pos = 0; pos < len; ++pos) {
      std::string with_nul = plain;
      with_nul[pos] = '\0';
      expected.push_back(with_nul);
      ++expected_nul;
      text += with_nul + "\n";
    }
  }
  LineStream stream(MemoryByteSource(text.data(), text.size()), 0);
  Line line;
  size_t k = 0;
  while (stream.Next(&line)) {
    ASSERT_LT(k, expected.size());
    EXPECT_EQ(std::string(line.text), expected[k]) << "line " << k;
    ++k;
  }
  EXPECT_EQ(k, expected.size());
  EXPECT_EQ(stream.diagnostics().nul_lines, expected_nul);
}

TEST(LineScan, NonAsciiAfterTheNewlineDoesNotMarkTheLineBeforeIt) {
  // "abc\n" then a line of invalid UTF-8: only the second line is counted.
  std::string text = "abc\n\xff\xfe\xfd\n";
  text = std::string(40, 'x') + "\n" + text;  // push the bytes across a 32-byte block
  LineStream stream(MemoryByteSource(text.data(), text.size()), 0);
  Line line;
  while (stream.Next(&line)) {
  }
  EXPECT_EQ(stream.diagnostics().invalid_utf8_lines, 1u);
  EXPECT_EQ(stream.diagnostics().lines, 3u);
}

}  // namespace
}  // namespace ncclscope
