// Locale-free case folding (base/ascii.h): the one case-insensitive search and comparison the
// rules, the knowledge base, the transport classes and the signal names share.
#include "ncclscope/base/ascii.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace ncclscope {
namespace {

constexpr size_t kNpos = std::string_view::npos;

TEST(Ascii, FindNoCaseFindsTheFirstFromAPosition) {
  const std::string_view text = "NET/OFI Selected provider is efa; net/ofi again";
  EXPECT_EQ(ascii::FindNoCase(text, "net/ofi"), 0u);
  EXPECT_EQ(ascii::FindNoCase(text, "NET/OFI", 1), 34u);
  EXPECT_EQ(ascii::FindNoCase(text, "EFA"), 29u);
  EXPECT_EQ(ascii::FindNoCase(text, "socket"), kNpos);
  EXPECT_EQ(ascii::FindNoCase("ab", "abc"), kNpos);
}

// FindNoCase looks for its first letter eight bytes at a time: against the plain byte-by-byte
// definition on texts of a small alphabet (so candidates are dense and matches frequent), every
// length up to three words, every start position and needles of 1 to 4 bytes.
TEST(Ascii, FindNoCaseMatchesTheByteByByteDefinition) {
  auto reference = [](std::string_view hay, std::string_view needle, size_t from) {
    if (needle.empty()) return from <= hay.size() ? from : kNpos;
    for (size_t i = from; i + needle.size() <= hay.size(); ++i) {
      size_t k = 0;
      while (k < needle.size() && ascii::ToLower(hay[i + k]) == ascii::ToLower(needle[k])) ++k;
      if (k == needle.size()) return i;
    }
    return kNpos;
  };
  const std::string_view alphabet = "aAbB[\xc3";
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string hay(next() % 26, ' ');
    for (char& c : hay) c = alphabet[next() % alphabet.size()];
    std::string needle(1 + next() % 4, ' ');
    for (char& c : needle) c = alphabet[next() % alphabet.size()];
    for (size_t from = 0; from <= hay.size() + 1; ++from) {
      ASSERT_EQ(ascii::FindNoCase(hay, needle, from), reference(hay, needle, from))
          << "'" << hay << "' '" << needle << "' from " << from;
    }
  }
}

TEST(Ascii, FindNoCaseOfAnEmptyNeedleIsItsStartWithinTheText) {
  EXPECT_EQ(ascii::FindNoCase("abc", "", 2), 2u);
  EXPECT_EQ(ascii::FindNoCase("abc", "", 3), 3u);
  EXPECT_EQ(ascii::FindNoCase("abc", "", 4), kNpos);
  EXPECT_TRUE(ascii::ContainsNoCase("", ""));
}

TEST(Ascii, OnlyAsciiLettersFoldAndOtherBytesMustMatch) {
  EXPECT_TRUE(ascii::ContainsNoCase("Transport: NVLS", "nvls"));
  EXPECT_FALSE(ascii::ContainsNoCase("NCCL_P2P_LEVEL", "p2p-level"));
  EXPECT_FALSE(ascii::ContainsNoCase("\xc3\x89T\xc3\x89", "\xc3\xa9t\xc3\xa9"));  // not Unicode
  EXPECT_TRUE(ascii::ContainsNoCase("\xc3\x89T\xc3\x89", "\xc3\x89t\xc3\x89"));
}

TEST(Ascii, EqualsNoCaseNeedsTheSameLength) {
  EXPECT_TRUE(ascii::EqualsNoCase("Socket", "SOCKET"));
  EXPECT_TRUE(ascii::EqualsNoCase("", ""));
  EXPECT_FALSE(ascii::EqualsNoCase("Socket", "Sockets"));
  EXPECT_FALSE(ascii::EqualsNoCase("IB", "IBext"));
  EXPECT_FALSE(ascii::EqualsNoCase("SIGTERM", "SIGTERN"));
}

}  // namespace
}  // namespace ncclscope
