// TextCursor: a tiny allocation-free scanner over a std::string_view, used by the hand parsers.
//
// Every Eat*/Read* member either consumes what it matched and returns true, or leaves the cursor
// untouched and returns false. Numbers are parsed with std::from_chars (no locale).
#ifndef NCCLSCOPE_SRC_PARSE_TEXT_CURSOR_H_
#define NCCLSCOPE_SRC_PARSE_TEXT_CURSOR_H_

#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "ncclscope/base/ascii.h"
#include "ncclscope/base/byte_words.h"

namespace ncclscope::parse_internal {

/// True if the N-1 bytes at `p` equal the string literal `lit` (the caller checked the length).
/// Compared in 8- or 4-byte words, the last word overlapping the one before: with a literal the
/// words are constants, so a 9-byte keyword costs two loads and compares, where GCC calls the
/// library's memcmp for most lengths.
template <size_t N>
[[gnu::always_inline]] inline bool LiteralAt(const char* p, const char (&lit)[N]) {
  constexpr size_t n = N - 1;
  if constexpr (n == 0) {
    return true;
  } else if constexpr (n < 4) {
    for (size_t i = 0; i < n; ++i) {
      if (p[i] != lit[i]) return false;
    }
    return true;
  } else if constexpr (n < 8) {
    return byte_words::Load4(p) == byte_words::Load4(lit) &&
           byte_words::Load4(p + n - 4) == byte_words::Load4(lit + n - 4);
  } else {
    for (size_t i = 0; i + 8 <= n; i += 8) {
      if (byte_words::Load8(p + i) != byte_words::Load8(lit + i)) return false;
    }
    if constexpr (n % 8 != 0) {
      return byte_words::Load8(p + n - 8) == byte_words::Load8(lit + n - 8);
    }
    return true;
  }
}

/// True if `s` begins with `prefix`. (memcmp for equality only: the compiler expands it inline
/// for literal prefixes, where string_view::compare would call the library.)
inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::memcmp(s.data(), prefix.data(), prefix.size()) == 0;
}
/// StartsWith for a string literal: a constant length, compared word by word (LiteralAt).
template <size_t N>
[[gnu::always_inline]] inline bool StartsWith(std::string_view s, const char (&prefix)[N]) {
  return s.size() >= N - 1 && LiteralAt(s.data(), prefix);
}
/// True if `s` equals `lit` (see StartsWith).
inline bool Equals(std::string_view s, std::string_view lit) {
  return s.size() == lit.size() && std::memcmp(s.data(), lit.data(), lit.size()) == 0;
}
/// True if `s` ends with `suffix`.
inline bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
/// True if `needle` occurs anywhere in `s`.
inline bool Contains(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

using ascii::IsAlpha;
using ascii::IsDigit;
/// `s` without leading and trailing blanks (space, tab).
inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// Length of the run of ASCII digits at the start of p[0, n).
inline size_t DigitRun(const char* p, size_t n) {
  size_t k = 0;
  while (k < n && IsDigit(p[k])) ++k;
  return k;
}

/// Value of `n` ASCII digits that cannot overflow T (n <= digits10 of T).
template <typename T>
T DigitsValue(const char* p, size_t n) {
  T v = 0;
  for (size_t k = 0; k < n; ++k) v = static_cast<T>(v * 10 + (p[k] - '0'));
  return v;
}

/// Parses all of `s` as an integer of type T; false if `s` is not exactly one number. Same
/// result as std::from_chars; short decimal runs take a loop that cannot overflow.
template <typename T>
bool ParseWhole(std::string_view s, T* out, int base = 10) {
  if (s.empty()) return false;
  if (base == 10 && s.size() <= static_cast<size_t>(std::numeric_limits<T>::digits10) &&
      DigitRun(s.data(), s.size()) == s.size()) {
    *out = DigitsValue<T>(s.data(), s.size());
    return true;
  }
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, *out, base);
  return r.ec == std::errc() && r.ptr == end;
}

/// A forward-only scanner; see file comment.
class TextCursor {
 public:
  /// Scans `s`.
  explicit TextCursor(std::string_view s) : s_(s) {}

  /// The text not yet consumed.
  std::string_view rest() const { return s_; }
  /// True when everything was consumed.
  bool done() const { return s_.empty(); }
  /// Next character or '\0' at the end.
  char Peek() const { return s_.empty() ? '\0' : s_.front(); }
  /// Drops `n` characters (clamped).
  void Skip(size_t n) { s_.remove_prefix(n < s_.size() ? n : s_.size()); }
  /// Drops leading spaces.
  void SkipSpaces() {
    while (!s_.empty() && s_.front() == ' ') s_.remove_prefix(1);
  }

  /// Consumes `lit` if the text starts with it.
  bool Eat(std::string_view lit) {
    if (!StartsWith(s_, lit)) return false;
    s_.remove_prefix(lit.size());
    return true;
  }
  /// Consumes the string literal `lit` if the text starts with it (inline constant memcmp).
  template <size_t N>
  [[gnu::always_inline]] bool Eat(const char (&lit)[N]) {
    if (s_.size() < N - 1 || !LiteralAt(s_.data(), lit)) return false;
    s_.remove_prefix(N - 1);
    return true;
  }
  /// Consumes one character `c` if next.
  bool Eat(char c) {
    if (s_.empty() || s_.front() != c) return false;
    s_.remove_prefix(1);
    return true;
  }

  /// Reads a (possibly negative) decimal integer (as std::from_chars would). Up to digits10
  /// digits are read by one fused loop (no overflow possible); longer or signed numbers go
  /// through std::from_chars.
  template <typename T>
  [[gnu::always_inline]] bool ReadInt(T* out) {
    constexpr size_t kMax = static_cast<size_t>(std::numeric_limits<T>::digits10);
    const char* p = s_.data();
    // One digit and something else: datatype, op, root, device and rank numbers mostly.
    if (s_.size() >= 2 && IsDigit(p[0]) && !IsDigit(p[1])) {
      *out = static_cast<T>(p[0] - '0');
      s_.remove_prefix(1);
      return true;
    }
    const size_t n = s_.size() < kMax ? s_.size() : kMax;
    size_t k = 0;
    T v = 0;
    while (k < n && IsDigit(p[k])) {
      v = static_cast<T>(v * 10 + (p[k] - '0'));
      ++k;
    }
    if (k > 0 && (k == s_.size() || !IsDigit(p[k]))) {
      *out = v;
      s_.remove_prefix(k);
      return true;
    }
    auto r = std::from_chars(s_.data(), s_.data() + s_.size(), *out, 10);
    if (r.ec != std::errc()) return false;
    s_.remove_prefix(static_cast<size_t>(r.ptr - s_.data()));
    return true;
  }
  /// Reads hex digits (an optional "0x" first).
  bool ReadHex(uint64_t* out) {
    TextCursor save = *this;
    Eat("0x");
    // Up to 15 hex digits cannot overflow: one loop; longer runs go through std::from_chars.
    {
      const size_t n = s_.size() < 16 ? s_.size() : 16;
      uint64_t v = 0;
      size_t k = 0;
      for (; k < n; ++k) {
        const char ch = s_[k];
        unsigned d;
        if (ch >= '0' && ch <= '9') {
          d = static_cast<unsigned>(ch - '0');
        } else if (ch >= 'a' && ch <= 'f') {
          d = static_cast<unsigned>(ch - 'a' + 10);
        } else if (ch >= 'A' && ch <= 'F') {
          d = static_cast<unsigned>(ch - 'A' + 10);
        } else {
          break;
        }
        v = v << 4 | d;
      }
      if (k > 0 && k < 16) {
        *out = v;
        s_.remove_prefix(k);
        return true;
      }
    }
    auto r = std::from_chars(s_.data(), s_.data() + s_.size(), *out, 16);
    if (r.ec != std::errc()) {
      *this = save;
      return false;
    }
    s_.remove_prefix(static_cast<size_t>(r.ptr - s_.data()));
    return true;
  }
  /// Reads a decimal floating-point number (as std::from_chars would). The numbers of the logs
  /// ("0.52", "12.3": init timings, ten a line) take Clinger's fast path: at most 15 digits and
  /// no exponent, so the digits are an exact integer and the power of ten an exact double, and
  /// one correctly rounded division gives the correctly rounded value from_chars gives.
  bool ReadDouble(double* out) {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = s_.data();
    const size_t n = s_.size();
    size_t i = 0;
    uint64_t digits = 0;
    int count = 0, frac = 0;
    for (; i < n && IsDigit(p[i]) && count < 16; ++i, ++count) digits = digits * 10 + (p[i] - '0');
    if (i < n && p[i] == '.') {
      for (++i; i < n && IsDigit(p[i]) && count < 16; ++i, ++count, ++frac)
        digits = digits * 10 + (p[i] - '0');
    }
    if (count > 0 && count <= 15 && (i == n || (!IsDigit(p[i]) && p[i] != 'e' && p[i] != 'E'))) {
      *out = static_cast<double>(digits) / kPow10[frac];
      s_.remove_prefix(i);
      return true;
    }
    auto r = std::from_chars(s_.data(), s_.data() + s_.size(), *out, std::chars_format::general);
    if (r.ec != std::errc()) return false;
    s_.remove_prefix(static_cast<size_t>(r.ptr - s_.data()));
    return true;
  }
  /// Reads up to (not including) the next space or the end; empty if at a space. Tokens are
  /// short, so a word-at-a-time scan beats a memchr call.
  std::string_view ReadToken() {
    const size_t p = byte_words::FindByte(s_.data(), s_.size(), ' ');
    std::string_view t = s_.substr(0, p);
    s_.remove_prefix(p);
    return t;
  }
  /// Reads up to (not including) the first `c`, or everything if there is none.
  std::string_view ReadUntil(char c) {
    size_t p = s_.find(c);
    if (p == std::string_view::npos) p = s_.size();
    std::string_view t = s_.substr(0, p);
    s_.remove_prefix(p);
    return t;
  }
  /// Reads up to the first `lit` and consumes `lit` too; false (nothing consumed) if absent.
  bool ReadUntilAndEat(std::string_view lit, std::string_view* before) {
    size_t p = s_.find(lit);
    if (p == std::string_view::npos) return false;
    *before = s_.substr(0, p);
    s_.remove_prefix(p + lit.size());
    return true;
  }
  /// Reads a run of ASCII digits.
  std::string_view ReadDigits() {
    size_t n = 0;
    while (n < s_.size() && IsDigit(s_[n])) ++n;
    std::string_view t = s_.substr(0, n);
    s_.remove_prefix(n);
    return t;
  }

 private:
  std::string_view s_;
};

}  // namespace ncclscope::parse_internal

#endif  // NCCLSCOPE_SRC_PARSE_TEXT_CURSOR_H_
