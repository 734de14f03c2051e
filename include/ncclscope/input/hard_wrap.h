// HardWrapWidth: the fixed width a paste was hard-wrapped at (an e-mail client's or a ticket
// renderer's 63, 72, 116 columns), so that the pieces of each long line can be joined again.
#ifndef NCCLSCOPE_INPUT_HARD_WRAP_H_
#define NCCLSCOPE_INPUT_HARD_WRAP_H_

#include <cstddef>
#include <string_view>

namespace ncclscope {

/// Width of `line` in bytes, a trailing CR not counted (a paste with non-ASCII text, whose
/// columns and bytes differ, is not recognised as wrapped).
size_t LineWidth(std::string_view line);

/// Width of a paste's line for the wrap: LineWidth, except that the first line of a paste does
/// not count a markdown backtick run glued to its start (`` `The actor is dead... `` or a fence
/// glued to the text): the writer added it to a line the terminal had already cut.
size_t PasteLineWidth(std::string_view line, bool first_line);

/// True if `line` ends in two or more blanks: padded to the wrap width (a table's row, the last
/// piece of a padded paste), so it ended where its text ended and nothing continues it.
bool EndsInPadding(std::string_view line);

/// True if `line` starts like a log line of its own (a NCCL head, a launcher's or logger's
/// prefix, a timestamp, a Python traceback or exception line, a C++ frame) rather than like the
/// rest of a line cut at the wrap width. An empty line counts as a start.
bool LooksLikeLineStart(std::string_view line);

/// True if `next` is the rest of `line` cut at the wrap width: `line` is not padded to it, and
/// `next` neither starts a log line of its own nor a record of the same kind as `line` (the
/// same first word). A word cut just before its colon (`CUDA e` `rror: ...`) continues `line`
/// although its rest looks like a tag (`rror: `) when the word joined again names an error.
bool ContinuesLine(std::string_view line, std::string_view next);

/// The width `text` (a whole small input) was hard-wrapped at, or 0 when it was not: the widest
/// lines (40 to 400 bytes) are all exactly that wide, at least three of them, and most of them
/// go on in a next line that does not start like a log line. A log whose longest lines happen to
/// share a length (channel lines of one format) is not wrapped: its next lines start lines.
size_t HardWrapWidth(std::string_view text);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_HARD_WRAP_H_
