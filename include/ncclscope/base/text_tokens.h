// Small text helpers for table-shaped tool outputs: line splitting, whitespace tokens, ANSI
// escape removal, number parsing, clipping for display.
#ifndef NCCLSCOPE_BASE_TEXT_TOKENS_H_
#define NCCLSCOPE_BASE_TEXT_TOKENS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncclscope {

/// Splits on '\n', dropping a trailing '\r' from each line; a final empty line is dropped.
std::vector<std::string_view> SplitLines(std::string_view text);
/// Tokens separated by spaces and tabs (empty tokens are dropped).
std::vector<std::string_view> SplitWhitespace(std::string_view line);
/// Removes ANSI CSI escape sequences such as "\x1b[4m" and "\x1b[0m".
std::string StripAnsiEscapes(std::string_view text);
/// Trims spaces and tabs at both ends.
std::string_view TrimWhitespace(std::string_view s);
/// Whole-token integer parse; nullopt on anything else.
std::optional<int64_t> ParseInt64(std::string_view s);
/// Whole-token floating-point parse (accepts "1e+00"); nullopt on anything else.
std::optional<double> ParseDouble(std::string_view s);
/// `s` as is when at most `n` bytes long, else its first `n` bytes and "..." (a quoted line in a
/// report; the whole line stays in the evidence).
std::string ClipText(std::string_view s, size_t n);

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_TEXT_TOKENS_H_
