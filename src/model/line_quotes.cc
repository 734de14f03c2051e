#include "line_quotes.h"

namespace ncclscope {

const SharedText& LineQuotes::TextOf(const EventContext& ctx) {
  // Same input and line number and the same bytes: one line may yield several events, and a
  // test or a follow session may number lines of different texts alike.
  if (ctx.source != source_ || ctx.line != line_ || text_.view() != ctx.text) {
    source_ = ctx.source;
    line_ = ctx.line;
    text_ = ctx.text;
  }
  return text_;
}

Evidence LineQuotes::Quote(const EventContext& ctx) {
  return Evidence{ctx.source, ctx.line, TextOf(ctx), {}};
}

Evidence LineQuotes::TimedQuote(const EventContext& ctx) {
  Evidence e{ctx.source, ctx.line, TextOf(ctx), {}};
  const std::string_view t = PrintedTime(ctx);
  if (time_.view() != t) time_ = t;
  e.time = time_;
  return e;
}

}  // namespace ncclscope
