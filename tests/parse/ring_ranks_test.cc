// Ring-order rank lists: the word-at-a-time check and count against a byte-by-byte reference,
// at every offset and length, and the decoder.
#include "ncclscope/parse/ring_ranks.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace ncclscope {
namespace {

/// The reference: one byte at a time, as the parser read rank lists before the word scan.
bool ReferenceScan(const std::string& text, RingRankCount* out) {
  *out = RingRankCount{};
  int run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (run == 0) ++out->count;
      if (++run > 9) return false;
    } else if (c == ' ') {
      run = 0;
    } else if (text.compare(i, 3, "...") == 0) {
      out->cut = true;
      return true;
    } else {
      return false;
    }
  }
  return true;
}

TEST(RingRanks, RandomListsAgreeWithTheByteByByteReference) {
  std::mt19937 rng(12345);
  const std::string alphabet = "0123456789          .x\xc3";
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text;
    const int len = static_cast<int>(rng() % 200);
    // Mostly numbers and blanks; now and then a foreign byte, dots or a long number.
    for (int k = 0; k < len; ++k) {
      const unsigned pick = rng() % 100;
      if (pick < 60) {
        text += static_cast<char>('0' + rng() % 10);
      } else if (pick < 95) {
        text += ' ';
      } else {
        text += alphabet[rng() % alphabet.size()];
      }
    }
    RingRankCount want, got;
    const bool want_ok = ReferenceScan(text, &want);
    ASSERT_EQ(ScanRingRanks(text, &got), want_ok) << '"' << text << '"';
    if (!want_ok) continue;
    EXPECT_EQ(got.count, want.count) << '"' << text << '"';
    EXPECT_EQ(got.cut, want.cut) << '"' << text << '"';
    EXPECT_EQ(static_cast<int>(DecodeRingRanks(text).size()), want.count) << '"' << text << '"';
  }
}

TEST(RingRanks, NineDigitsAreARankAndTenAreNotAtEveryOffset) {
  for (size_t lead = 0; lead < 24; ++lead) {
    const std::string pad(lead, ' ');
    RingRankCount c;
    EXPECT_TRUE(ScanRingRanks(pad + "123456789 1", &c)) << lead;
    EXPECT_EQ(c.count, 2);
    EXPECT_FALSE(ScanRingRanks(pad + "1234567890 1", &c)) << lead;
    EXPECT_FALSE(ScanRingRanks(pad + "1 2 12345678901234567", &c)) << lead;
  }
}

TEST(RingRanks, LongRingIsCountedAndDecodedInOrder) {
  std::string text = " ";
  std::vector<int> want;
  for (int r = 0; r < 16384; ++r) {
    const int rank = (r * 7919) % 16384;
    text += std::to_string(rank) + " ";
    want.push_back(rank);
  }
  RingRankCount c;
  ASSERT_TRUE(ScanRingRanks(text, &c));
  EXPECT_EQ(c.count, 16384);
  EXPECT_FALSE(c.cut);
  EXPECT_EQ(DecodeRingRanks(text), want);
}

TEST(RingRanks, DotsEndTheListAndWhatFollowsThemIsIgnored) {
  RingRankCount c;
  ASSERT_TRUE(ScanRingRanks("0 1 2 3 4 5 6 7 8 9 10 11 ... (truncated)", &c));
  EXPECT_TRUE(c.cut);
  EXPECT_EQ(c.count, 12);
  EXPECT_EQ(DecodeRingRanks("0 1 2 ... 9").size(), 3u);
}

TEST(RingRanks, TextThatIsNotARankListIsRejected) {
  RingRankCount c;
  EXPECT_FALSE(ScanRingRanks(" 0[0] -> 1[1] via P2P/CUMEM", &c));
  EXPECT_FALSE(ScanRingRanks(" 0 1 2 3 4 5 6 7 8 9 -1", &c));
  EXPECT_FALSE(ScanRingRanks(" 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 \xc3\xa9", &c));
  EXPECT_TRUE(ScanRingRanks("", &c));
  EXPECT_EQ(c.count, 0);
}

}  // namespace
}  // namespace ncclscope
