// TextCursor::ReadDouble's fast path (Clinger's: few digits, no exponent) must read exactly what
// std::from_chars reads, value and length, on every shape of number the logs print and on the
// shapes that must fall back (exponents, long mantissas, signs, a lone dot).
#include "parse/text_cursor.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace ncclscope::parse_internal {
namespace {

struct Read {
  bool ok = false;
  uint64_t bits = 0;
  size_t used = 0;
};

Read WithCursor(std::string_view s) {
  TextCursor c(s);
  double d = -1;
  Read r;
  r.ok = c.ReadDouble(&d);
  std::memcpy(&r.bits, &d, sizeof d);
  r.used = s.size() - c.rest().size();
  return r;
}

Read WithFromChars(std::string_view s) {
  double d = -1;
  Read r;
  auto res = std::from_chars(s.data(), s.data() + s.size(), d, std::chars_format::general);
  r.ok = res.ec == std::errc();
  std::memcpy(&r.bits, &d, sizeof d);
  r.used = r.ok ? static_cast<size_t>(res.ptr - s.data()) : 0;
  return r;
}

void ExpectSameAsFromChars(std::string_view s) {
  const Read a = WithCursor(s), b = WithFromChars(s);
  EXPECT_EQ(a.ok, b.ok) << "'" << s << "'";
  if (a.ok && b.ok) {
    EXPECT_EQ(a.bits, b.bits) << "'" << s << "'";
    EXPECT_EQ(a.used, b.used) << "'" << s << "'";
  }
}

TEST(TextCursorReadDouble, LogNumbersReadAsFromCharsReadsThem) {
  for (std::string_view s : {"0.52", "0.52,", "12.3)", "0", "7", "1.", "1.)", ".5", "0.1", "0.3",
                             "123456.789012345", "999999999999999", "9007199254740993",
                             "0.000000000000001", "3.14159 rest", "1.5.3", "0x1A", "00012.50"}) {
    ExpectSameAsFromChars(s);
  }
}

TEST(TextCursorReadDouble, ShapesOutsideTheFastPathFallBack) {
  for (std::string_view s :
       {"1e5", "1.5E-3", "5.e3", "2e", "-0.5", "-3", "+1", ".", "", "inf", "nan",
        "1234567890123456.5", "12345678901234567", "0.12345678901234567"}) {
    ExpectSameAsFromChars(s);
  }
}

/// Repeatable random texts of `alphabet` (a fixed linear congruential generator).
class RandomTexts {
 public:
  RandomTexts(uint32_t seed, std::string_view alphabet) : seed_(seed), alphabet_(alphabet) {}
  /// A text of `min` to `min + spread - 1` characters.
  std::string Next(size_t min, size_t spread) {
    std::string s(min + Draw() % spread, ' ');
    for (char& c : s) c = alphabet_[Draw() % alphabet_.size()];
    return s;
  }

 private:
  uint32_t Draw() {
    seed_ = seed_ * 1103515245u + 12345u;
    return (seed_ >> 16) & 0x7fff;
  }
  uint32_t seed_;
  std::string_view alphabet_;
};

TEST(TextCursorReadDouble, RandomDecimalsReadAsFromCharsReadsThem) {
  RandomTexts texts(2026, "0123456789012345678901234567890123456789..eE- ,");
  for (int i = 0; i < 20000; ++i) ExpectSameAsFromChars(texts.Next(1, 22));
}

// Contains: against std::string_view::find on texts of a small alphabet (dense candidates,
// frequent matches), every length up to three words and phrases of 0 to 6 bytes.
TEST(TextCursorContains, MatchesStringViewFind) {
  RandomTexts texts(7, "abab c");
  for (int i = 0; i < 50000; ++i) {
    const std::string hay = texts.Next(0, 28);
    const std::string needle = texts.Next(0, 7);
    ASSERT_EQ(Contains(hay, needle), hay.find(needle) != std::string::npos)
        << "'" << hay << "' '" << needle << "'";
  }
  EXPECT_TRUE(Contains("[Rank 0] Watchdog caught collective operation timeout", "Watchdog caught"));
  EXPECT_FALSE(Contains("Watchdog caugh", "Watchdog caught"));
}

}  // namespace
}  // namespace ncclscope::parse_internal
