// Timestamps as the printers of a distributed job write them (all from the corpora's logs or the
// formats' documentation), normalised to one comparable key.
#include "ncclscope/model/log_time.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

int64_t Key(std::string_view s) {
  auto t = ParseLogTime(s);
  EXPECT_TRUE(t.has_value()) << s;
  return t ? t->Key() : 0;
}

TEST(LogTime, EveryFormatOfOneMomentHasOneKey) {
  const int64_t k = Key("2026-11-23 09:26:08");  // NCCL [%F %T]
  EXPECT_EQ(Key("2026-11-23T09:26:08Z"), k);    // kubectl --timestamps
  EXPECT_EQ(Key("2026-11-23_09:26:08"), k);     // torchelastic table
  EXPECT_EQ(Key("1123 09:26:08"), k);           // glog / c10 without the letter
  EXPECT_EQ(Key("E1123 09:26:08"), k);          // with it
  EXPECT_EQ(Key("[W1123 09:26:08"), k);         // c10 bracket
  EXPECT_EQ(Key("Nov 23 09:26:08"), k);         // syslog
  EXPECT_EQ(Key("Mon Nov 23 09:26:08 2026"), k);  // dmesg -T
  EXPECT_EQ(Key("1795425968"), k);              // epoch seconds (UTC)
}

TEST(LogTime, C10MonthWithoutPaddingIsTheSameMoment) {
  // mila-iqia/milabench#269 `[E909 09:55:29.340428860 ...`, verl#597 `[E314 14:33:45...`.
  EXPECT_EQ(Key("E909 09:55:29.340428860"), Key("E0909 09:55:29.340428860"));
  EXPECT_EQ(Key("[E314 14:33:45.172185860"), Key("0314 14:33:45.172185860"));
  EXPECT_FALSE(ParseLogTime("E999 09:55:29").has_value());  // month 9, day 99
}

TEST(LogTime, FractionsOrderWithinASecond) {
  EXPECT_LT(Key("E1123 09:26:08.661000"), Key("E1123 09:26:08.776000"));
  EXPECT_LT(Key("2024-05-01 10:00:00,123"), Key("2024-05-01 10:00:00,124"));  // Python logging
  EXPECT_EQ(Key("1123 09:26:08.727410739") % 1000000000, 727410739);
}

TEST(LogTime, YearAndFormatting) {
  auto t = ParseLogTime("2026-11-23 09:26:08.776");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->year, 2026);
  EXPECT_EQ(t->Format(), "2026-11-23 09:26:08.776");
  auto g = ParseLogTime("I1122 13:41:12.380");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->year, 0);
  EXPECT_EQ(g->Format(), "11-22 13:41:12.380");
  auto c = ParseLogTime("Mon Nov 23 11:39:07 2026");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->year, 2026);
}

// Format is written by hand (it runs for every incident the triage keeps); it prints what the
// fmt formatting it replaced printed, for dates with and without a year, time-only stamps,
// every number of fraction digits, and fields no parsed stamp has (negative: fmt's sign).
TEST(LogTime, FormatMatchesTheFmtSpelling) {
  auto reference = [](const LogTime& t) {
    constexpr int64_t kNanos = 1000000000;
    const int64_t secs = t.nanos / kNanos;
    std::string clock = fmt::format("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if (t.fraction_digits > 0) {
      const int digits = t.fraction_digits < 3 ? t.fraction_digits : 3;
      int64_t frac = t.nanos % kNanos;
      for (int i = digits; i < 9; ++i) frac /= 10;
      clock += fmt::format(".{:0{}}", frac, digits);
    }
    if (!t.has_date()) return clock;
    if (t.year > 0) return fmt::format("{:04}-{:02}-{:02} {}", t.year, t.month, t.day, clock);
    return fmt::format("{:02}-{:02} {}", t.month, t.day, clock);
  };
  const int64_t nanos[] = {0,
                           1,
                           999999999,
                           1000000000,
                           59999999999,
                           3600000000000,
                           36610123456789,
                           86399999999999,
                           7 * 3600000000000 + 5,
                           -5,
                           -123456789,
                           -36610123456789};
  for (int year : {-3, 0, 7, 2026}) {
    for (int month : {0, 1, 12}) {
      for (int day : {-4, 1, 9, 31}) {
        for (int64_t n : nanos) {
          for (int digits = 0; digits <= 9; ++digits) {
            LogTime t;
            t.year = year;
            t.month = month;
            t.day = month > 0 ? day : 0;
            t.nanos = n;
            t.fraction_digits = digits;
            EXPECT_EQ(t.Format(), reference(t))
                << year << "-" << month << "-" << day << " " << n << " ." << digits;
          }
        }
      }
    }
  }
}

TEST(LogTime, NcclLiteralFormatSpecifierHasNoFraction) {
  // NCCL 2.28 prints "%Lf" literally (kill_timestamps_all.log).
  auto t = ParseLogTime("2026-11-23 11:39:13.%Lf");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->fraction_digits, 0);
}

TEST(LogTime, TimeOnlyTakesADateFromElsewhere) {
  auto t = ParseLogTime("09:26:08.5");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->has_date());
  auto d = ParseLogTime("2026-11-23 00:00:00");
  EXPECT_EQ(KeyWithDate(*t, *d), Key("2026-11-23 09:26:08.5"));
}

TEST(LogTime, NotTimestamps) {
  EXPECT_FALSE(ParseLogTime("vm:631:631 [1] NCCL INFO"));
  EXPECT_FALSE(ParseLogTime("2026-13-40 09:26:08"));
  EXPECT_FALSE(ParseLogTime("Nov 99 10:00:00"));
  EXPECT_FALSE(ParseLogTime(""));
}

TEST(LogTime, Delta) {
  EXPECT_EQ(FormatDelta(Key("2026-11-23 09:26:08.5"), Key("2026-11-23 09:26:12.999")),
            "+4.499 s");
  EXPECT_EQ(FormatDelta(Key("2026-11-23 09:26:12"), Key("2026-11-23 09:26:08")), "-4.000 s");
}

}  // namespace
}  // namespace ncclscope
