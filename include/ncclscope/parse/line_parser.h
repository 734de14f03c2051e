// LineParser: turns one stripped input line into at most one typed Event.
//
// Recognises NCCL's own prefix (host:pid:tid [dev], optional [timestamp], WARN/TRACE location,
// 2.30 `(function)`), the bare version line, and the PyTorch ProcessGroupNCCL / torchelastic lines
// listed in nccl-log-formats.md §7. The hot messages (connection lines, COLL lines) are parsed by
// hand after a cheap prefilter; rarer bodies use re2.
//
// Thread safety: a LineParser keeps a little per-stream state (the "Last error:" continuation);
// use one per input stream. Lifetime: the event's views point into `line.text`.
#ifndef NCCLSCOPE_PARSE_LINE_PARSER_H_
#define NCCLSCOPE_PARSE_LINE_PARSER_H_

#include <memory>

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

  ParseOutcome Parse(const Line& line, Event* event);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Parses the text after ` via ` into its parts. Exposed for the classifier and tests.
TransportSpec ParseTransport(std::string_view raw);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_LINE_PARSER_H_
