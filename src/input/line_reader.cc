// LineReader: one-pass newline search (with the "needs a closer look" check) over one fixed
// buffer.
#include "ncclscope/input/line_reader.h"

#include <algorithm>
#include <cstring>

#include "ncclscope/base/cpu_features.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(NCCLSCOPE_HAVE_AVX2)
#include <immintrin.h>
#endif

namespace ncclscope {
namespace {

/// True for bytes that make a line not plain: NUL, ESC, CR and bytes >= 0x80.
inline bool IsSpecial(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return u == 0 || u == 0x1b || u == '\r' || u >= 0x80;
}

/// Returns the offset of the first '\n' in p[0, n), or n. Sets *special when a byte before that
/// offset is special, and adds to *nc the number of "NC" byte pairs that start before it (an
/// upper bound: a pair whose 'C' lies past p + n may count). May read (but never uses) up to 16
/// bytes after p + n.
size_t ScanLine(const char* p, size_t n, bool* special, unsigned* nc) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i esc = _mm_set1_epi8(0x1b);
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i zero = _mm_setzero_si128();
  const __m128i big_n = _mm_set1_epi8('N');
  const __m128i big_c = _mm_set1_epi8('C');
  while (i < n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
    unsigned m_nl = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
    // movemask of v itself gives the bytes >= 0x80.
    unsigned m_sp = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, esc)),
        _mm_or_si128(_mm_cmpeq_epi8(v, cr), v))));
    unsigned m_nc = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(v, big_n), _mm_cmpeq_epi8(v1, big_c))));
    const size_t valid = n - i;
    if (valid < 16) {
      const unsigned lim = (1u << valid) - 1;
      m_nl &= lim;
      m_sp &= lim;
      m_nc &= lim;
    }
    if (m_nl != 0) {
      const unsigned pos = static_cast<unsigned>(__builtin_ctz(m_nl));
      if ((m_sp & ((1u << pos) - 1)) != 0) *special = true;
      *nc += static_cast<unsigned>(__builtin_popcount(m_nc & ((1u << pos) - 1)));
      return i + pos;
    }
    if (m_sp != 0) *special = true;
    *nc += static_cast<unsigned>(__builtin_popcount(m_nc));
    i += 16;
  }
  return n;
#else
  for (; i < n; ++i) {
    if (p[i] == '\n') return i;
    if (IsSpecial(p[i])) *special = true;
    if (p[i] == 'N' && p[i + 1] == 'C') ++*nc;
  }
  return n;
#endif
}

#if defined(NCCLSCOPE_HAVE_AVX2)
/// ScanLine with 32-byte AVX2 compares; chosen at run time when the CPU has AVX2. A chunk with no
/// byte below 0x20 or above 0x7f (most of a log) takes one compare for both questions; only a
/// chunk that holds one looks for the newline and the special bytes. The last chunk is masked,
/// so it may read (but never uses) up to 33 bytes after p + n.
__attribute__((target("avx2"))) size_t ScanLineAvx2(const char* p, size_t n, bool* special,
                                                     unsigned* nc) {
  const __m256i nl = _mm256_set1_epi8('\n');
  const __m256i esc = _mm256_set1_epi8(0x1b);
  const __m256i cr = _mm256_set1_epi8('\r');
  const __m256i zero = _mm256_setzero_si256();
  const __m256i ctl = _mm256_set1_epi8(0x1f);
  const __m256i big_n = _mm256_set1_epi8('N');
  const __m256i big_c = _mm256_set1_epi8('C');
  unsigned pairs = 0;
  for (size_t i = 0; i < n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 1));
    unsigned m_nc = static_cast<unsigned>(_mm256_movemask_epi8(
        _mm256_and_si256(_mm256_cmpeq_epi8(v, big_n), _mm256_cmpeq_epi8(v1, big_c))));
    // Bytes <= 0x1f (min(v, 0x1f) == v), or >= 0x80 (the sign bit movemask reads).
    unsigned m_any = static_cast<unsigned>(_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(v, ctl), v), v)));
    const size_t valid = n - i;
    const unsigned lim = valid < 32 ? (1u << valid) - 1 : ~0u;
    m_nc &= lim;
    if ((m_any & lim) == 0) {
      pairs += static_cast<unsigned>(__builtin_popcount(m_nc));
      continue;
    }
    const unsigned m_nl =
        static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl))) & lim;
    const unsigned m_sp = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_or_si256(
                              _mm256_or_si256(_mm256_cmpeq_epi8(v, zero), _mm256_cmpeq_epi8(v, esc)),
                              _mm256_or_si256(_mm256_cmpeq_epi8(v, cr), v)))) &
                          lim;
    if (m_nl != 0) {
      const unsigned pos = static_cast<unsigned>(__builtin_ctz(m_nl));
      const unsigned below = (1u << pos) - 1;  // pos <= 31
      if ((m_sp & below) != 0) *special = true;
      *nc += pairs + static_cast<unsigned>(__builtin_popcount(m_nc & below));
      return i + pos;
    }
    if (m_sp != 0) *special = true;
    pairs += static_cast<unsigned>(__builtin_popcount(m_nc));
  }
  *nc += pairs;
  return n;
}

#endif

/// Whether p[0, n) holds a special byte; p[0, n) holds no newline (a cut line, or the last line
/// at EOF), so the line scanners read it whole. May read up to 33 bytes after p + n.
bool HasSpecial(const char* p, size_t n) {
  bool special = false;
  unsigned nc = 0;
#if defined(NCCLSCOPE_HAVE_AVX2)
  if (CpuHasAvx2()) {
    ScanLineAvx2(p, n, &special, &nc);
    return special;
  }
#endif
  ScanLine(p, n, &special, &nc);
  return special;
}

}  // namespace

LineReader::LineReader(ByteSource* source, size_t max_line)
    : source_(source),
      max_line_(std::max<size_t>(max_line, 1)),
      full_capacity_(std::max(kBufferSize, max_line_ + 1)),
      capacity_(full_capacity_) {
  // A file smaller than the buffer gets a buffer of its size (one small file per rank, thousands
  // of them): Grow() takes the full size if it turns out to be longer (a log still written).
  const int64_t hint = source_->SizeHint();
  if (hint >= 0 && static_cast<uint64_t>(hint) + 1 < full_capacity_) {
    capacity_ = std::max<size_t>(static_cast<size_t>(hint) + 1, kSmallBuffer);
  }
  Allocate(capacity_);
}

void LineReader::Allocate(size_t capacity) {
  // Not cleared: reads fill what is used. The scanners may look at bytes past the data they were
  // given (up to the zeroed padding) but never use them.
  const size_t bytes = capacity + kScanPadding;
  std::unique_ptr<char[]> buf =
      recycler_ != nullptr ? recycler_->Take(bytes) : std::unique_ptr<char[]>(new char[bytes]);
  std::memset(buf.get() + capacity, 0, kScanPadding);
  if (buf_ != nullptr) {
    std::memcpy(buf.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    if (recycler_ != nullptr) recycler_->Retire(std::move(buf_), capacity_ + kScanPadding);
  }
  buf_ = std::move(buf);
  capacity_ = capacity;
}

void LineReader::Compact() {
  if (recycler_ != nullptr) {
    Allocate(capacity_);
    return;
  }
  std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
}

bool LineReader::Fill() {
  if (eof_) return false;
  size_t n = 0;
  Status s = source_->Read(buf_.get() + end_, capacity_ - end_, &n);
  end_ += n;
  bytes_read_ += n;
  if (!s.ok()) {
    status_ = s;
    eof_ = true;
  } else if (n == 0) {
    eof_ = true;
  }
  return n > 0;
}

bool LineReader::ReadAhead(std::string_view* rest) {
  if (skipping_) return false;
  while (!eof_ && end_ < capacity_) Fill();
  if (!eof_) return false;
  *rest = std::string_view(buf_.get() + begin_, end_ - begin_);
  return true;
}

bool LineReader::SkipRestOfLine() {
  for (;;) {
    const char* p = buf_.get() + begin_;
    const void* nl = std::memchr(p, '\n', end_ - begin_);
    if (nl != nullptr) {
      begin_ = static_cast<const char*>(nl) - buf_.get() + 1;
      skipping_ = false;
      return true;
    }
    begin_ = end_;
    Compact();
    if (!Fill()) return false;
  }
}

bool LineReader::Next(std::string_view* line, bool* truncated) {
  *truncated = false;
  if (skipping_ && !SkipRestOfLine()) {
    skipping_ = false;
    return false;
  }
  for (;;) {
    const size_t avail = end_ - begin_;
    const size_t window = std::min(avail, max_line_ + 1);
    char* start = buf_.get() + begin_;
    if (window > scanned_) {
      bool special = false;
      unsigned nc = 0;
#if defined(NCCLSCOPE_HAVE_AVX2)
      const size_t off = CpuHasAvx2()
                             ? ScanLineAvx2(start + scanned_, window - scanned_, &special, &nc)
                             : ScanLine(start + scanned_, window - scanned_, &special, &nc);
#else
      const size_t off = ScanLine(start + scanned_, window - scanned_, &special, &nc);
#endif
      scanned_special_ = scanned_special_ || special;
      if (off < window - scanned_) {
        size_t len = scanned_ + off;
        // A line scanned in two steps may have a pair across the cut: not counted, so unknown.
        line_nc_pairs_ = scanned_ == 0 ? nc : kManyPairs;
        begin_ += len + 1;
        scanned_ = 0;
        line_plain_ = !scanned_special_;
        scanned_special_ = false;
        if (len > 0 && start[len - 1] == '\r') --len;
        *line = std::string_view(start, len);
        ++lines_read_;
        return true;
      }
      scanned_ = window;
    }
    if (avail > max_line_) {  // No newline within max_line + 1 bytes: cut the line.
      *line = std::string_view(start, max_line_);
      *truncated = true;
      line_nc_pairs_ = kManyPairs;
      line_plain_ = !HasSpecial(start, max_line_);
      begin_ += max_line_;
      scanned_ = 0;
      scanned_special_ = false;
      skipping_ = true;
      ++lines_read_;
      return true;
    }
    if (eof_) {
      if (avail == 0) return false;
      size_t len = avail;
      begin_ = end_;
      scanned_ = 0;
      scanned_special_ = false;
      if (start[len - 1] == '\r') --len;
      line_plain_ = !HasSpecial(start, len);
      line_nc_pairs_ = kManyPairs;
      *line = std::string_view(start, len);
      ++lines_read_;
      return true;
    }
    if (begin_ > 0) Compact();  // Make room: move the partial line to the front.
    if (end_ == capacity_ && capacity_ < full_capacity_) Allocate(full_capacity_);
    Fill();
  }
}

}  // namespace ncclscope
