// Ring-order rank lists: a word-at-a-time check and count, and a plain decoder.
#include "ncclscope/parse/ring_ranks.h"

#include <bit>
#include <cstdint>

#include "ncclscope/base/byte_words.h"
#include "ncclscope/base/cpu_features.h"

#if defined(NCCLSCOPE_HAVE_AVX2)
#include <immintrin.h>
#endif

namespace ncclscope {
namespace {

constexpr int kMaxRankDigits = 9;  // A longer number is not a rank.

bool IsRankDigit(char c) { return c >= '0' && c <= '9'; }

/// The byte-by-byte check from `i` on, continuing a number of `run` digits that ends just before
/// `i` (0: the byte before `i` is no digit).
bool ScanBytes(std::string_view text, size_t i, int run, RingRankCount* out) {
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (IsRankDigit(c)) {
      if (run == 0) ++out->count;
      if (++run > kMaxRankDigits) return false;
    } else if (c == ' ') {
      run = 0;
    } else if (c == '.' && text.substr(i, 3) == "...") {
      out->cut = true;
      return true;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

#if defined(NCCLSCOPE_HAVE_AVX2)
/// 32 bytes at a time from *i while they are only digits and blanks; adds the numbers that start
/// there to *count and leaves in *run the digits of the number the last chunk ended in. False:
/// a number of more than nine digits.
__attribute__((target("avx2"))) bool ScanChunks32(const char* p, size_t n, size_t* i, int* run,
                                                  int* count) {
  const __m256i below_zero = _mm256_set1_epi8('0' - 1);
  const __m256i above_nine = _mm256_set1_epi8('9' + 1);
  const __m256i blank = _mm256_set1_epi8(' ');
  // Bit 31 set when the byte before the chunk is a digit, with `run` of them.
  uint64_t prev = *run > 0 ? ((1ull << *run) - 1) << (32 - *run) : 0;
  size_t k = *i;
  for (; k + 32 <= n; k += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + k));
    // Signed compares: bytes >= 0x80 are negative, so never digits.
    const __m256i digit =
        _mm256_and_si256(_mm256_cmpgt_epi8(v, below_zero), _mm256_cmpgt_epi8(above_nine, v));
    const unsigned ok = static_cast<unsigned>(
        _mm256_movemask_epi8(_mm256_or_si256(digit, _mm256_cmpeq_epi8(v, blank))));
    if (ok != 0xffffffffu) break;
    const uint32_t d = static_cast<uint32_t>(_mm256_movemask_epi8(digit));
    const uint32_t starts = d & ~((d << 1) | static_cast<uint32_t>(prev >> 31));
    *count += __builtin_popcount(starts);
    // Ten digits in a row anywhere in (previous chunk, this chunk): not a rank.
    const uint64_t m = (static_cast<uint64_t>(d) << 32) | prev;
    const uint64_t two = m & (m >> 1);
    const uint64_t eight = two & (two >> 2);
    if ((eight & (eight >> 4) & (two >> 8)) != 0) return false;
    prev = d;
  }
  *i = k;
  *run = prev == 0xffffffffu ? 32 : __builtin_clz(~static_cast<uint32_t>(prev));
  return true;
}
#endif

/// 8 bytes at a time from *i, as ScanChunks32.
bool ScanWords8(const char* p, size_t n, size_t* i, int* run, int* count) {
  using byte_words::kHigh;
  uint64_t prev_digit = *run > 0 ? 0x80 : 0;  // the byte before the word is a digit
  size_t k = *i;
  for (; k + 8 <= n; k += 8) {
    const uint64_t w = byte_words::Load8(p + k);
    if ((w & kHigh) != 0) break;  // not ASCII: the byte loop says no
    // ASCII bytes: b + 0x50 sets the high bit from '0' on, b + 0x46 from ':' on; no carries.
    const uint64_t digit =
        ((w + 0x5050505050505050ull) & ~(w + 0x4646464646464646ull)) & kHigh;
    const uint64_t blank = byte_words::BytesEqual(w, ' ');
    if ((digit | blank) != kHigh) break;  // a dot, a letter: the byte loop from this word
    const uint64_t starts = digit & ~((digit << 8) | prev_digit);
    // One bit per byte (bit 7): summed in the top byte (std::popcount is a library call
    // without -mpopcnt).
    *count += static_cast<int>(((starts >> 7) * byte_words::kOnes) >> 56);
    if (digit == kHigh) {
      *run += 8;
      if (*run > kMaxRankDigits) return false;
    } else {
      const int lead = std::countr_zero(~digit & kHigh) >> 3;  // digits at the word's start
      if (*run + lead > kMaxRankDigits) return false;
      *run = 7 - ((63 - std::countl_zero(~digit & kHigh)) >> 3);  // digits at its end
    }
    prev_digit = (digit >> 56) & 0x80;
  }
  *i = k;
  return true;
}

}  // namespace

bool ScanRingRanks(std::string_view text, RingRankCount* out) {
  *out = RingRankCount{};
  size_t i = 0;
  int run = 0;  // digits of the number that runs into what is read next
#if defined(NCCLSCOPE_HAVE_AVX2)
  if (CpuHasAvx2() && !ScanChunks32(text.data(), text.size(), &i, &run, &out->count)) return false;
#endif
  if (!ScanWords8(text.data(), text.size(), &i, &run, &out->count)) return false;
  // The tail, or the word that was not only digits and blanks, byte by byte: a number the last
  // word ended in goes on there (already counted).
  return ScanBytes(text, i, run, out);
}

std::vector<int> DecodeRingRanks(std::string_view text) {
  std::vector<int> ranks;
  ranks.reserve(text.size() / 2 + 1);
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '.') break;  // "..."
    if (!IsRankDigit(text[i])) {
      ++i;
      continue;
    }
    int r = 0;
    for (int k = 0; i < text.size() && IsRankDigit(text[i]) && k < kMaxRankDigits; ++i, ++k)
      r = r * 10 + (text[i] - '0');
    ranks.push_back(r);
  }
  return ranks;
}

}  // namespace ncclscope
