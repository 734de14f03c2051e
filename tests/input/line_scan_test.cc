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

TEST(LineScan, NcPairsAreCountedAtEveryOffsetSoGluedMessagesAreNeverSkipped) {
  // One or two "NC" at every offset of lines of every length up to 97 bytes (both scanners, the
  // 32-byte blocks and the 16-byte tail, a pair across block edges): nc_at_most_once must be
  // false whenever the line holds two.
  for (size_t len = 2; len <= 97; ++len) {
    for (size_t a = 0; a + 2 <= len; ++a) {
      for (size_t b : {std::string::npos, a + 2, len - 2, (a + 17) % (len - 1)}) {
        std::string line(len, 'x');
        line.replace(a, 2, "NC");
        bool two = false;
        if (b != std::string::npos && b + 2 <= len && (b >= a + 2 || b + 2 <= a)) {
          line.replace(b, 2, "NC");
          two = true;
        }
        const std::string text = "pad\n" + line + "\n";
        LineStream stream(MemoryByteSource(text.data(), text.size()), 0);
        Line got;
        ASSERT_TRUE(stream.Next(&got));
        ASSERT_TRUE(stream.Next(&got));
        ASSERT_EQ(got.text, line);
        EXPECT_EQ(got.nc_at_most_once, !two) << line;
      }
    }
  }
}

TEST(LineScan, LinesThatAreNotPlainOrWholeAreNeverMarkedSingle) {
  // A CRI record's text, a line split at an inner CR, and a line with an ESC byte: not counted.
  const std::string text =
      "2024-05-01T10:00:00.000000000Z stderr F h:1:1 [0] NCCL INFO a\n"
      "h:1:1 [0] NCCL INFO b\rh:1:1 [0] NCCL INFO c\n"
      "\x1b[32mh:1:1 [0] NCCL INFO d\x1b[0m\n"
      "h:1:1 [0] NCCL INFO e\n";
  LineStream stream(MemoryByteSource(text.data(), text.size()), 0);
  Line line;
  std::vector<bool> single;
  while (stream.Next(&line)) single.push_back(line.nc_at_most_once);
  EXPECT_EQ(single, (std::vector<bool>{false, false, false, false, true}));
}

TEST(LineScan, ControlBytesThatAreNotSpecialKeepALinePlainAtEveryOffset) {
  // A tab or another control byte below 0x20 (not NUL, ESC or CR) sends its 32-byte block to the
  // scanner's slow path; the line must still end at its newline and stay plain (single "NC").
  for (size_t len = 3; len <= 97; ++len) {
    for (size_t pos = 2; pos < len; ++pos) {
      for (char c : {'\t', '\x01', '\x1f'}) {
        std::string line(len, 'y');
        line.replace(0, 2, "NC");
        line[pos] = c;
        const std::string text = line + "\nNC tail\n";
        LineStream stream(MemoryByteSource(text.data(), text.size()), 0);
        Line got;
        ASSERT_TRUE(stream.Next(&got));
        ASSERT_EQ(got.text, line);
        EXPECT_TRUE(got.nc_at_most_once) << "len " << len << " pos " << pos;
        ASSERT_TRUE(stream.Next(&got));
        EXPECT_EQ(got.text, "NC tail");
      }
    }
  }
}

}  // namespace
}  // namespace ncclscope
