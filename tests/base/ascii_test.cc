// Locale-free case folding (base/ascii.h): the one case-insensitive search and comparison the
// rules, the knowledge base, the transport classes and the signal names share.
#include "ncclscope/base/ascii.h"

#include <gtest/gtest.h>

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
