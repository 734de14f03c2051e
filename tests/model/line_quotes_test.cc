// LineQuotes (src/model/line_quotes.h): the records that quote one line share its text; another
// line, or another text under the same number, gets its own.
#include "model/line_quotes.h"

#include <gtest/gtest.h>

#include <string>

#include "ncclscope/input/line.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {
namespace {

EventContext Line(uint32_t source, uint64_t line, std::string_view text) {
  EventContext ctx;
  ctx.source = source;
  ctx.line = line;
  ctx.text = text;
  return ctx;
}

TEST(LineQuotes, QuotesOfOneLineShareItsText) {
  const std::string text =
      "[rank3]:[E1123 09:26:08.661] Watchdog caught collective operation timeout: WorkNCCL(...)";
  EventContext ctx = Line(2, 40, text);
  ctx.timestamp = "E1123 09:26:08.661";
  LineQuotes quotes;
  const Evidence state = quotes.TimedQuote(ctx);     // the rank's PyTorch state
  const Evidence incident = quotes.TimedQuote(ctx);  // the watchdog incident
  const Evidence plain = quotes.Quote(ctx);          // a process's last framework line
  EXPECT_EQ(state.source, 2u);
  EXPECT_EQ(state.line, 40u);
  EXPECT_EQ(state.text, text);
  EXPECT_EQ(state.time, "E1123 09:26:08.661");
  EXPECT_TRUE(incident.text.SharesBufferWith(state.text));
  EXPECT_TRUE(incident.time.SharesBufferWith(state.time));
  EXPECT_TRUE(plain.text.SharesBufferWith(state.text));
  EXPECT_TRUE(plain.time.empty());
}

TEST(LineQuotes, AnotherLineGetsItsOwnTextAndKeepsTheFirstQuoteIntact) {
  LineQuotes quotes;
  std::string buffer = "node1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 - Init START";
  const Evidence first = quotes.Quote(Line(0, 1, buffer));
  buffer = "node1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 - Init COMPLETE";  // reader reuse
  const Evidence second = quotes.Quote(Line(0, 2, buffer));
  EXPECT_EQ(first.text, "node1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 - Init START");
  EXPECT_EQ(second.text, buffer);
  EXPECT_FALSE(first.text.SharesBufferWith(second.text));
  // The same line number in another input, and a different text under the same number (a test
  // or a follow session numbering lines alike), are other lines.
  const Evidence other_input = quotes.Quote(Line(1, 2, buffer));
  EXPECT_EQ(other_input.source, 1u);
  const Evidence same_number = quotes.Quote(Line(1, 2, "another text"));
  EXPECT_EQ(same_number.text, "another text");
}

TEST(LineQuotes, TimeFollowsTheKubectlPrefixFirstThenTheLinesOwnStamp) {
  LineQuotes quotes;
  LineMeta meta;
  meta.timestamp = "2026-11-23T09:26:08.661Z";
  EventContext ctx = Line(0, 7, "node1:11:11 [0] NCCL WARN Call to connect returned");
  ctx.timestamp = "09:26:08";
  ctx.meta = &meta;
  EXPECT_EQ(quotes.TimedQuote(ctx).time, "2026-11-23T09:26:08.661Z");
  ctx.meta = nullptr;  // the same line read without the prefix
  EXPECT_EQ(quotes.TimedQuote(ctx).time, "09:26:08");
  ctx.timestamp = {};
  EXPECT_TRUE(quotes.TimedQuote(ctx).time.empty());
}

}  // namespace
}  // namespace ncclscope
