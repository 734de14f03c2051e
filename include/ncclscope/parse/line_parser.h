// LineParser: turns one stripped input line into typed Events: one per NCCL message (two
// processes' output glued on one line gives two), or one framework event.
//
// Recognises NCCL's own prefix (host:pid:tid [dev], optional [timestamp], WARN/TRACE location,
// 2.30 `(function)`) at the start of the line or, through the NcclLocator, anywhere in it (behind
// prefixes the input layer does not know, or without a head at all: `[1] NCCL INFO ...`), the
// version line, and the PyTorch ProcessGroupNCCL / torchelastic lines listed in
// nccl-log-formats.md §7. A line that mentions NCCL and that nothing understood becomes an
// Unrecognized event with `mention` set, so that it is counted, never lost. A message cut before
// its text ended (empty after `NCCL INFO`, or a connection line stopping at `via`) is joined with
// the anchor-less line that continues it a few lines later. The hot messages
// (connection lines, COLL lines) are parsed by hand after a cheap prefilter.
//
// Thread safety: a LineParser keeps a little per-stream state (the "Last error:" continuation);
// use one per input stream. Lifetime: the event's views point into `line.text`.
#ifndef NCCLSCOPE_PARSE_LINE_PARSER_H_
#define NCCLSCOPE_PARSE_LINE_PARSER_H_

#include <memory>
#include <string_view>

#include "ncclscope/input/line.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

enum class ParseOutcome {
  kNotNccl,  ///< Not an NCCL or recognised framework line (application output, tracebacks, ...).
  kEvent,    ///< *event was filled (possibly with Unrecognized for an unknown NCCL message).
};

class LineParser {
 public:
  LineParser();
  ~LineParser();
  LineParser(const LineParser&) = delete;
  LineParser& operator=(const LineParser&) = delete;

  /// Parses the line's first message (or framework event) into *event.
  ParseOutcome Parse(const Line& line, Event* event);
  /// After Parse: the next NCCL message glued onto the same line, if any. `line` must be the one
  /// given to Parse and still alive.
  /// Inline: most lines hold one message, and this is asked after every event.
  bool ParseMore(Event* event) {
    return (!rest_.empty() || !assignments_.empty()) && ParseGlued(event);
  }

 private:
  struct State;
  bool ParseMessage(const Line& line, std::string_view text, Event* event);
  /// ParseMore when something is left on the line.
  bool ParseGlued(Event* event);
  /// Remembers a message cut before its text ended; it becomes KnownNoise "cut".
  void NoteCut(std::string_view message, Event* event);
  /// A line without NCCL anchor that completes the cut message before it.
  bool ParseContinuation(const Line& line, Event* event);
  /// A line that completes the wrapped PyTorch watchdog line before it (its WorkNCCL(...) or
  /// its "last completed NCCL work").
  bool ParseTorchContinuation(const Line& line, Event* event);
  void Dispatch(Event* event);
  /// Dispatch's second chance for a body nothing recognised (markdown links, attention lines).
  void DispatchAgain(Event* event);
  std::unique_ptr<State> state_;
  std::string_view rest_;  ///< NCCL messages glued after the one returned (see ParseMore).
  /// The NCCL_* assignments of a command line after the one returned (see ParseMore).
  std::string_view assignments_;
  const Line* line_ = nullptr;  ///< The line being parsed (for ParseMore).
};

/// Parses the text after ` via ` into its parts. Exposed for the classifier and tests.
TransportSpec ParseTransport(std::string_view raw);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_LINE_PARSER_H_
