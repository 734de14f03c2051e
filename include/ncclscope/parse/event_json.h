// Event -> JSON Lines serialization for the `events` subcommand.
//
// One event becomes one JSON object on one line: `source`, `line`, `host`, `pid`, `tid`, `dev`,
// `level`, `type`, the optional context fields (`timestamp`, `location`, `function`,
// `torch_rank`), then the typed fields with the snake_case names documented in docs/events.md.
// Strings are escaped by hand; invalid UTF-8 bytes become U+FFFD, so the output is always valid.
#ifndef NCCLSCOPE_PARSE_EVENT_JSON_H_
#define NCCLSCOPE_PARSE_EVENT_JSON_H_

#include <string>
#include <string_view>

#include "ncclscope/parse/events.h"

namespace ncclscope {

/// Appends `event` as one JSON object followed by '\n' to *out. `source_name` is the display
/// name of the input the event came from.
void AppendEventJson(const Event& event, std::string_view source_name, std::string* out);

/// The JSON name of a Level: "none", "version", "info", "warn", "trace", "call", "torch".
std::string_view LevelName(Level level);

/// Appends `s` as a JSON string literal (quotes included) to *out; invalid UTF-8 -> U+FFFD.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_EVENT_JSON_H_
