#include "ncclscope/base/byte_words.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope::byte_words {
namespace {

uint64_t Word(const std::string& s) {
  std::string padded = s;
  padded.resize(8, '\xff');
  return Load8(padded.data());
}

TEST(ByteWords, LoadPutsTheFirstByteLowest) {
  EXPECT_EQ(Load8("abcdefgh") & 0xff, static_cast<uint64_t>('a'));
  EXPECT_EQ(Load8("abcdefgh") >> 56, static_cast<uint64_t>('h'));
}

TEST(ByteWords, BytesEqualMarksEveryMatchExactly) {
  const uint64_t m = BytesEqual(Load8("a:b::c:d"), ':');
  EXPECT_EQ(FirstMarked(m), 1);
  EXPECT_EQ(m, 0x0080008080008000ull);
  EXPECT_EQ(BytesEqual(Load8("abcdefgh"), ':'), 0u);
}

TEST(ByteWords, ZeroBytesHasNoFalseMarksAboveAZero) {
  // The classic haszero trick marks 0x01 bytes above a zero byte; this one must not.
  const char bytes[8] = {0, 1, 1, 0, 1, 0x7f, static_cast<char>(0x80), 0};
  EXPECT_EQ(ZeroBytes(Load8(bytes)), 0x8000000080000080ull);
}

TEST(ByteWords, FindByteAtEveryPositionAndLength) {
  for (size_t n = 0; n < 40; ++n) {
    for (size_t at = 0; at <= n; ++at) {
      std::string s(n, 'x');
      if (at < n) s[at] = ' ';
      EXPECT_EQ(FindByte(s.data(), n, ' '), at) << "n=" << n << " at=" << at;
    }
  }
}

TEST(ByteWords, LeadingDigitsStopsAtEveryNonDigitByte) {
  for (int k = 0; k < 8; ++k) {
    for (int b = 0; b < 256; ++b) {
      char buf[8];
      for (int i = 0; i < 8; ++i) buf[i] = '5';
      buf[k] = static_cast<char>(b);
      for (int i = k + 1; i < 8; ++i) buf[i] = static_cast<char>(255 - i * 13);  // noise above
      const bool digit = b >= '0' && b <= '9';
      int want = k;
      if (digit) {
        want = k + 1;
        while (want < 8 && buf[want] >= '0' && buf[want] <= '9') ++want;
      }
      ASSERT_EQ(LeadingDigits(Load8(buf)), want) << "k=" << k << " byte=" << b;
    }
  }
}

TEST(ByteWords, DigitsValueOfOneToEightDigits) {
  EXPECT_EQ(DigitsValue(Word("7:"), 1), 7u);
  EXPECT_EQ(DigitsValue(Word("2544:257"), 4), 2544u);
  EXPECT_EQ(DigitsValue(Word("0001234 "), 7), 1234u);
  EXPECT_EQ(DigitsValue(Word("4194304:"), 7), 4194304u);
  EXPECT_EQ(DigitsValue(Word("99999999"), 8), 99999999u);
  EXPECT_EQ(DigitsValue(Word("16777216"), 8), 16777216u);
}

}  // namespace
}  // namespace ncclscope::byte_words

namespace ncclscope::byte_words {
namespace {

TEST(ByteWords, LeadingLettersStopsAtEveryNonLetterByte) {
  for (int k = 0; k < 8; ++k) {
    for (int b = 0; b < 256; ++b) {
      char buf[8];
      for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(i % 2 ? 'q' : 'Q');
      buf[k] = static_cast<char>(b);
      for (int i = k + 1; i < 8; ++i) buf[i] = static_cast<char>(255 - i * 29);  // noise above
      const bool letter = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
      int want = k;
      if (letter) {
        want = k + 1;
        while (want < 8 && ((buf[want] >= 'a' && buf[want] <= 'z') ||
                            (buf[want] >= 'A' && buf[want] <= 'Z')))
          ++want;
      }
      ASSERT_EQ(LeadingLetters(Load8(buf)), want) << "k=" << k << " byte=" << b;
    }
  }
}

}  // namespace
}  // namespace ncclscope::byte_words
