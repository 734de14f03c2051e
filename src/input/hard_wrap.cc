// HardWrapWidth: detects a paste hard-wrapped at a fixed width (see hard_wrap.h).
#include "ncclscope/input/hard_wrap.h"

#include <cstring>
#include <string>
#include <string_view>

#include "prefix_internal.h"

namespace ncclscope {
namespace {

using prefix_internal::IsAlpha;
using prefix_internal::IsDigit;

constexpr size_t kMinWidth = 40;
constexpr size_t kMaxWidth = 400;

/// The line starting at *pos (without its '\n'); moves *pos past it.
std::string_view NextLine(std::string_view text, size_t* pos) {
  const void* nl = std::memchr(text.data() + *pos, '\n', text.size() - *pos);
  const size_t end =
      nl != nullptr ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
  const std::string_view line = text.substr(*pos, end - *pos);
  *pos = end + 1;
  return line;
}

/// `[A-Za-z_.]+(Error|Exception|Warning|Exit|Interrupt):` at the start: a Python exception line.
bool StartsWithExceptionName(std::string_view s) {
  size_t k = 0;
  while (k < s.size() && k < 128 && (IsAlpha(s[k]) || IsDigit(s[k]) || s[k] == '_' || s[k] == '.'))
    ++k;
  if (k == 0 || k >= s.size() || s[k] != ':') return false;
  const std::string_view name = s.substr(0, k);
  for (std::string_view end : {"Error", "Exception", "Warning", "Exit", "Interrupt"}) {
    if (name.size() >= end.size() && name.substr(name.size() - end.size()) == end) return true;
  }
  return false;
}

}  // namespace

size_t LineWidth(std::string_view line) {
  return !line.empty() && line.back() == '\r' ? line.size() - 1 : line.size();
}

size_t PasteLineWidth(std::string_view line, bool first_line) {
  size_t w = LineWidth(line);
  if (!first_line) return w;
  size_t ticks = 0;
  while (ticks < w && ticks < 3 && line[ticks] == '`') ++ticks;
  return w - ticks;
}

bool EndsInPadding(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line.size() >= 2 && line[line.size() - 1] == ' ' && line[line.size() - 2] == ' ';
}

bool LooksLikeLineStart(std::string_view s) {
  if (s.empty() || s == "\r") return true;
  // A NCCL message's anchor is in a line's first piece, never in the rest of a cut line (a head
  // the paste lost, `:22901:22901 [0] NCCL INFO ...`, still starts a line).
  const std::string_view head = s.substr(0, 160);
  if (head.find(" NCCL INFO ") != std::string_view::npos ||
      head.find(" NCCL WARN ") != std::string_view::npos ||
      head.find(" NCCL TRACE ") != std::string_view::npos) {
    return true;
  }
  // NCCL's head, a bracketed or parenthesised prefix (`[rank3]:`, `(pid=12)`), `NCCL version`.
  if (prefix_internal::StartsWithHeadOrPrefix(s)) return true;
  const char c = s[0];
  if (IsDigit(c)) {
    // A date or a clock (`2024-01-01`, `12:00:00`), an srun label or line number (`3: `).
    if (s.size() >= 5 && IsDigit(s[1]) && IsDigit(s[2]) && IsDigit(s[3]) && s[4] == '-')
      return true;
    if (s.size() >= 3 && IsDigit(s[1]) && s[2] == ':') return true;
    size_t k = 0;
    while (k < s.size() && k < 6 && IsDigit(s[k])) ++k;
    return k < s.size() && (s[k] == ':' || s[k] == '\t') && (k + 1 >= s.size() || s[k + 1] == ' ');
  }
  if (c == ' ' || c == '\t') {
    // One blank and a word: the rest of a line cut at a blank. More blanks, or a blank and
    // punctuation (nccl-tests' ` .. host pid N: Test failure`): an indented line of its own
    // (a traceback's frame or source, a table's row, a topology tree).
    return s.size() < 2 || s[1] == ' ' || s[1] == '\t' || !(IsAlpha(s[1]) || IsDigit(s[1]));
  }
  if (!IsAlpha(c)) {
    // A tree's or a list's item (`+ PCI[24.0] - GPU/5000`, `- item`, `* item`, `| cell`).
    if (s.size() >= 2 && s[1] == ' ' && (c == '+' || c == '-' || c == '*' || c == '|' || c == '#'))
      return true;
    // A rule of one repeated character (`-----`, `=====`): a table's or a banner's border.
    const std::string_view t = s.substr(0, s.find_last_not_of(" \r") + 1);
    return t.size() >= 3 && t.find_first_not_of(c) == std::string_view::npos;
  }
  // glog / c10: `E1013 11:12:31.455734 ...`, `W1013 ...`.
  if ((c == 'E' || c == 'W' || c == 'I' || c == 'F') && s.size() > 6 && IsDigit(s[1]) &&
      IsDigit(s[2]) && IsDigit(s[3])) {
    return true;
  }
  for (std::string_view word :
       {"Traceback (most recent call last)", "frame #", "Exception raised from", "terminate called",
        "NCCL ", "DEBUG ", "INFO ", "WARNING", "WARN ", "ERROR", "CRITICAL ", "FATAL "}) {
    if (s.starts_with(word)) return true;
  }
  if (StartsWithExceptionName(s)) return true;
  // A host or tag and a colon before the text (`node7: `, `stderr: `).
  size_t k = 0;
  while (k < s.size() && k < 64 &&
         (IsAlpha(s[k]) || IsDigit(s[k]) || s[k] == '-' || s[k] == '.' || s[k] == '_'))
    ++k;
  return k > 0 && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ';
}

namespace {

/// The line's first blank-separated word.
std::string_view FirstWord(std::string_view s) { return s.substr(0, s.find(' ')); }

/// True if `next` is the rest of a word cut at the wrap width just before its colon: `line`
/// ends inside a word of letters and `next` starts with that word's lower-case rest and ": ",
/// a rest that names no error by itself but the word joined again does (`CUDA e` `rror: an
/// illegal memory access`, `DistBackendErr` `or: NCCL error`). Alone, the rest looks like a
/// tag before a colon (`rror: `) and would start a line of its own. A rest that is a whole
/// error name (`ncclSystemError: ` after PyTorch's `NCCL version 2.28.9`) starts its own line.
bool CutBeforeColon(std::string_view line, std::string_view next) {
  if (line.empty() || !IsAlpha(line.back()) || next.empty() || next[0] < 'a' || next[0] > 'z')
    return false;
  size_t k = 0;
  while (k < next.size() && k < 64 && ascii::IsWordChar(next[k])) ++k;
  if (k + 1 >= next.size() || next[k] != ':' || next[k + 1] != ' ') return false;
  size_t b = line.size();
  while (b > 0 && line.size() - b < 64 && IsAlpha(line[b - 1])) --b;
  const std::string_view rest = next.substr(0, k);
  std::string word(line.substr(b));
  word.append(rest);
  bool joined_names_error = false;
  for (std::string_view end :
       {"error", "Error", "exception", "Exception", "Warning", "failure", "Failure", "failed"}) {
    if (rest.ends_with(end)) return false;
    joined_names_error = joined_names_error || word.ends_with(end);
  }
  return joined_names_error;
}

}  // namespace

bool ContinuesLine(std::string_view line, std::string_view next) {
  if (EndsInPadding(line)) return false;
  if (CutBeforeColon(line, next)) return true;
  if (LooksLikeLineStart(next)) return false;
  // A record of the same kind (`Rank  0 Group  0 Pid ...`, `Loading cached ...`), each as wide
  // as the widest: a line of its own.
  const std::string_view word = FirstWord(next);
  return word.size() < 3 || word != FirstWord(line);
}

size_t HardWrapWidth(std::string_view text) {
  // First pass: the widest line and how many lines have that width.
  size_t widest = 0, at_widest = 0, lines = 0;
  for (size_t pos = 0; pos < text.size();) {
    const bool first = pos == 0;
    const size_t w = PasteLineWidth(NextLine(text, &pos), first);
    if (w > 0) ++lines;
    if (w > widest) {
      widest = w;
      at_widest = 1;
    } else if (w == widest) {
      ++at_widest;
    }
  }
  if (lines < 4 || at_widest < 3 || widest < kMinWidth || widest > kMaxWidth) return 0;
  // Second pass: how many of the widest lines go on in a line that starts no line of its own.
  // A cut inside a word or at a blank goes on in lower case, a digit or punctuation (`quo` `ta:`,
  // `NumelOut=5` `164000`, `before` `timing out.`); at least two pieces must, so that lines of
  // one width that merely precede other sentences (`... .gz` `Extracting ...`) are not taken.
  size_t continued = 0, mid_word = 0;
  std::string_view previous;
  bool previous_widest = false;
  for (size_t pos = 0; pos < text.size();) {
    const bool first = pos == 0;
    const std::string_view line = NextLine(text, &pos);
    if (previous_widest && ContinuesLine(previous, line)) {
      ++continued;
      if (!(line[0] >= 'A' && line[0] <= 'Z')) ++mid_word;
    }
    previous = line;
    previous_widest = PasteLineWidth(line, first) == widest;
  }
  return continued >= 2 && mid_word >= 2 && 2 * continued >= at_widest ? widest : 0;
}

}  // namespace ncclscope
