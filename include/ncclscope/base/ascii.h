// ASCII character classes for log text (locale-free, unlike <cctype>, and safe on any char).
#ifndef NCCLSCOPE_BASE_ASCII_H_
#define NCCLSCOPE_BASE_ASCII_H_

#include <algorithm>
#include <string_view>

namespace ncclscope::ascii {

constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsAlpha(char c) { return IsLower(c) || (c >= 'A' && c <= 'Z'); }
constexpr bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
/// A character of an identifier (C, Python, environment variable names).
constexpr bool IsWordChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
constexpr char ToLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `hay` holds `needle`, ASCII letters compared without case (an empty needle: true).
inline bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return ToLower(a) == ToLower(b); }) != hay.end();
}

}  // namespace ncclscope::ascii

#endif  // NCCLSCOPE_BASE_ASCII_H_
