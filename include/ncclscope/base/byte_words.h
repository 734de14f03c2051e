// Byte searches eight bytes at a time in a 64-bit word ("SWAR"), for the short scans of the hot
// parsing path (a host name up to ':', a token up to ' ') where a library call costs more than the
// scan itself. Portable C++: no intrinsics, byte order handled in Load8.
#ifndef NCCLSCOPE_BASE_BYTE_WORDS_H_
#define NCCLSCOPE_BASE_BYTE_WORDS_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ncclscope::byte_words {

inline constexpr uint64_t kOnes = 0x0101010101010101ull;
inline constexpr uint64_t kHigh = 0x8080808080808080ull;
inline constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;

/// The 8 bytes at `p` (any alignment), the byte at p[0] in the lowest bits on every host.
[[gnu::always_inline]] inline uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

/// The 4 bytes at `p` (any alignment), the byte at p[0] in the lowest bits on every host.
[[gnu::always_inline]] inline uint32_t Load4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap32(w);
  return w;
}

/// True if the `n` bytes at `a` and `b` are equal: words, the last one overlapping the one before,
/// so short strings (host names) cost a few compares and no library call.
[[gnu::always_inline]] inline bool EqualBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (Load8(a + i) != Load8(b + i)) return false;
    }
    return Load8(a + n - 8) == Load8(b + n - 8);
  }
  if (n >= 4) return Load4(a) == Load4(b) && Load4(a + n - 4) == Load4(b + n - 4);
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

/// 0x80 in every byte of `w` that is zero, 0 elsewhere. Exact (no carries between bytes).
[[gnu::always_inline]] inline uint64_t ZeroBytes(uint64_t w) {
  return ~(((w & kLow7) + kLow7) | w) & kHigh;
}

/// 0x80 in every byte of `w` equal to `c`.
[[gnu::always_inline]] inline uint64_t BytesEqual(uint64_t w, char c) {
  return ZeroBytes(w ^ (kOnes * static_cast<uint8_t>(c)));
}

/// Index (0-7) of the first byte marked in `mask` (a result of the functions above, not 0).
[[gnu::always_inline]] inline int FirstMarked(uint64_t mask) { return std::countr_zero(mask) >> 3; }

/// Offset of the first `c` in p[0, n), or n when there is none.
[[gnu::always_inline]] inline size_t FindByte(const char* p, size_t n, char c) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t m = BytesEqual(Load8(p + i), c);
    if (m != 0) return i + static_cast<size_t>(FirstMarked(m));
  }
  for (; i < n; ++i) {
    if (p[i] == c) return i;
  }
  return n;
}

/// Number of leading ASCII letters (A-Z, a-z) among the 8 bytes of `w` (0-8).
[[gnu::always_inline]] inline int LeadingLetters(uint64_t w) {
  const uint64_t lower = (w | 0x2020202020202020ull) & kLow7;  // 'A'-'Z' -> 'a'-'z'; 7 bits
  // High bit of each byte: lower >= 'a', then lower > 'z' (no carries: bytes are < 0x80).
  const uint64_t ge_a = lower + kOnes * (0x80 - 'a');
  const uint64_t gt_z = lower + kOnes * (0x80 - 'z' - 1);
  const uint64_t letter = ge_a & ~gt_z & ~w & kHigh;  // ~w: bytes >= 0x80 are not letters
  const uint64_t other = ~letter & kHigh;
  return other == 0 ? 8 : FirstMarked(other);
}

/// Number of leading ASCII digits among the 8 bytes of `w` (0-8).
[[gnu::always_inline]] inline int LeadingDigits(uint64_t w) {
  constexpr uint64_t kHighNibbles = 0xF0F0F0F0F0F0F0F0ull;
  constexpr uint64_t kThirties = 0x3030303030303030ull;
  // A byte is a digit when it is 0x3_ and still 0x3_ after adding 6. A carry out of a byte (only
  // from bytes >= 0xFA, not digits) can only disturb the bytes above the first non-digit.
  const uint64_t t = ((w & kHighNibbles) ^ kThirties) |
                     (((w + 0x0606060606060606ull) & kHighNibbles) ^ kThirties);
  const uint64_t non_digit = ~ZeroBytes(t) & kHigh;
  return non_digit == 0 ? 8 : FirstMarked(non_digit);
}

/// The value of the first `n` (1-8) bytes of `w`, which are ASCII digits (LeadingDigits(w) >= n).
[[gnu::always_inline]] inline uint32_t DigitsValue(uint64_t w, int n) {
  w -= 0x3030303030303030ull;        // digit values; digits never borrow, bytes above are dropped
  w <<= 8 * (8 - n);                 // the n digits last, zeros (leading zeros) before them
  w = w * 10 + (w >> 8);             // pairs: every other byte holds a 2-digit value
  w = (((w & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((w >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
      32;
  return static_cast<uint32_t>(w);
}

}  // namespace ncclscope::byte_words

#endif  // NCCLSCOPE_BASE_BYTE_WORDS_H_
