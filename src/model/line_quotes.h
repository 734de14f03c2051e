// LineQuotes: the line of the event being folded, as Evidence whose text is made once. One line
// is often quoted by several records of the model: a process's first line and its instance's
// first line, an Init line as a communicator rank's start and as the world communicator's init of
// the process, a watchdog timeout as the rank's PyTorch state and as an incident. Each quote of
// the same line shares one text (SharedText) instead of copying it. Part of JobBuilder's state.
#ifndef NCCLSCOPE_SRC_MODEL_LINE_QUOTES_H_
#define NCCLSCOPE_SRC_MODEL_LINE_QUOTES_H_

#include <cstdint>
#include <string_view>

#include "ncclscope/base/shared_text.h"
#include "ncclscope/model/evidence.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// The line's timestamp as printed: a kubectl --timestamps (or collector) prefix first, else
/// NCCL's or c10's own; empty when the line has none.
inline std::string_view PrintedTime(const EventContext& ctx) {
  return ctx.meta != nullptr && !ctx.meta->timestamp.empty() ? ctx.meta->timestamp : ctx.timestamp;
}

class LineQuotes {
 public:
  /// The line (source, line number, text), without a time.
  Evidence Quote(const EventContext& ctx);
  /// The line with its timestamp as printed (PrintedTime).
  Evidence TimedQuote(const EventContext& ctx);

 private:
  /// The text of the last line quoted; another line replaces it.
  const SharedText& TextOf(const EventContext& ctx);
  uint32_t source_ = 0;
  uint64_t line_ = 0;
  SharedText text_;
  SharedText time_;  ///< The last time quoted (lines of one second share it too).
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_LINE_QUOTES_H_
