// ASCII character classes for log text (locale-free, unlike <cctype>, and safe on any char).
#ifndef NCCLSCOPE_BASE_ASCII_H_
#define NCCLSCOPE_BASE_ASCII_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ncclscope/base/byte_words.h"

namespace ncclscope::ascii {

constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsAlpha(char c) { return IsLower(c) || (c >= 'A' && c <= 'Z'); }
constexpr bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/// A character of an identifier (C, Python, environment variable names).
constexpr bool IsWordChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
constexpr char ToLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Position of the first `needle` in `hay` at or after `from`, ASCII letters compared without
/// case; npos when absent (an empty needle is found at `from` when from <= hay.size()).
inline size_t FindNoCase(std::string_view hay, std::string_view needle, size_t from = 0) {
  if (needle.empty()) return from <= hay.size() ? from : std::string_view::npos;
  if (hay.size() < needle.size()) return std::string_view::npos;
  // Candidates are the positions of the needle's first letter in either case, found eight bytes
  // at a time: the knowledge base looks for hundreds of patterns in each message it matches.
  const char lo = ToLower(needle.front());
  const char up = IsLower(lo) ? static_cast<char>(lo - 'a' + 'A') : lo;
  const size_t last = hay.size() - needle.size();  // The last possible start.
  const char* h = hay.data();
  for (size_t i = from; i <= last; ++i) {
    while (i + 8 <= last + 1) {
      const uint64_t w = byte_words::Load8(h + i);
      const uint64_t m = byte_words::BytesEqual(w, lo) | byte_words::BytesEqual(w, up);
      if (m != 0) {
        i += static_cast<size_t>(byte_words::FirstMarked(m));
        break;
      }
      i += 8;
    }
    if (i > last) break;
    if (h[i] != lo && h[i] != up) continue;
    size_t k = 1;
    while (k < needle.size() && ToLower(h[i + k]) == ToLower(needle[k])) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

/// Whether `hay` holds `needle`, ASCII letters compared without case (an empty needle: true).
inline bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  return FindNoCase(hay, needle) != std::string_view::npos;
}

/// Whether `a` and `b` are the same text, ASCII letters compared without case.
inline bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ToLower(x) == ToLower(y);
         });
}

}  // namespace ncclscope::ascii

#endif  // NCCLSCOPE_BASE_ASCII_H_
