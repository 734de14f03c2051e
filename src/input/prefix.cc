// StripPrefixes: ANSI removal, then the stacked collector and launcher prefixes, one matcher per
// family (prefix_internal.h). Each matcher looks at the start of the text only and gives up at the
// first byte that does not fit, so a line without a prefix costs a few comparisons.
#include "ncclscope/input/prefix.h"

#include <cstdint>
#include <cstring>

#include "prefix_internal.h"

namespace ncclscope {
namespace prefix_internal {

bool Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return false;
  for (size_t k = i; k < i + n; ++k) {
    if (!IsDigit(s[k])) return false;
  }
  return true;
}

int ParseRank(std::string_view s, size_t* i) {
  constexpr size_t kMaxRankDigits = 7;
  size_t k = *i;
  int v = 0;
  while (k < s.size() && IsDigit(s[k]) && k - *i < kMaxRankDigits) {
    v = v * 10 + (s[k] - '0');
    ++k;
  }
  if (k == *i || (k < s.size() && IsDigit(s[k]))) return -1;
  *i = k;
  return v;
}

bool ParsePid(std::string_view s, size_t* i, uint32_t* pid) {
  size_t k = *i;
  uint32_t v = 0;
  while (k < s.size() && IsDigit(s[k]) && k - *i < 9) {
    v = v * 10 + static_cast<uint32_t>(s[k] - '0');
    ++k;
  }
  if (k == *i || (k < s.size() && IsDigit(s[k]))) return false;
  *i = k;
  *pid = v;
  return true;
}

void SetRank(LineMeta* meta, int rank) {
  if (meta->launcher_rank < 0) meta->launcher_rank = rank;
}

void SetView(std::string_view* field, std::string_view value) {
  if (field->empty()) *field = value;
}

}  // namespace prefix_internal

namespace {

constexpr int kMaxPrefixes = 12;  // Stacked prefixes stripped at most per line.
/// Copies `raw` into *out without ANSI escape sequences (CSI `ESC [ params final`, OSC
/// `ESC ] ... BEL|ESC \`, and two-byte `ESC X` / charset selections). Unterminated sequences are
/// dropped up to the end of the line.
void RemoveAnsi(std::string_view raw, std::string* out) {
  out->clear();
  size_t i = 0;
  const size_t n = raw.size();
  while (i < n) {
    const void* esc = std::memchr(raw.data() + i, '\x1b', n - i);
    size_t j = esc == nullptr ? n : static_cast<const char*>(esc) - raw.data();
    out->append(raw.data() + i, j - i);
    if (j == n) break;
    i = j + 1;  // past ESC
    if (i == n) break;
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == '[') {  // CSI: parameter and intermediate bytes, then a final byte 0x40-0x7e.
      ++i;
      while (i < n) {
        const unsigned char b = static_cast<unsigned char>(raw[i]);
        if (b < 0x20 || b > 0x3f) break;
        ++i;
      }
      if (i < n && static_cast<unsigned char>(raw[i]) >= 0x40 &&
          static_cast<unsigned char>(raw[i]) <= 0x7e) {
        ++i;
      }
    } else if (c == ']') {  // OSC: up to BEL or ST (ESC \).
      ++i;
      while (i < n) {
        if (raw[i] == '\x07') {
          ++i;
          break;
        }
        if (raw[i] == '\x1b' && i + 1 < n && raw[i + 1] == '\\') {
          i += 2;
          break;
        }
        ++i;
      }
    } else if (c >= 0x20 && c <= 0x2f) {  // nF: intermediates then one final byte.
      while (i < n && static_cast<unsigned char>(raw[i]) >= 0x20 &&
             static_cast<unsigned char>(raw[i]) <= 0x2f) {
        ++i;
      }
      if (i < n) ++i;
    } else if (c >= 0x30 && c <= 0x7e) {  // Fp/Fe/Fs: ESC and one byte.
      ++i;
    }
  }
}

/// Length of the prefix at the start of `s` (recording what it says in *meta), or 0.
size_t MatchOne(std::string_view s, LineMeta* meta) {
  using namespace prefix_internal;  // NOLINT(build/namespaces): the matchers of this family
  if (s.empty()) return 0;
  const char c = s[0];
  if (c == '[') {
    if (size_t n = MatchLoggerHead(s, meta)) return n;
    return MatchBracket(s, meta);
  }
  if (c == '(') return MatchParenIdentity(s, meta);
  if (IsDigit(c)) {
    if (size_t n = MatchTimestamp(s, meta)) return n;
    if (size_t n = MatchLoggerHead(s, meta)) return n;
    if (size_t n = MatchDateTimeBeforePrefix(s, meta)) return n;
    if (size_t n = MatchClock(s, meta)) return n;
    if (size_t n = MatchSrun(s, meta)) return n;
    if (size_t n = MatchLineNumber(s, meta)) return n;
    if (size_t n = MatchPdsh(s, meta)) return n;
    return MatchCompose(s, meta);
  }
  if (IsAlpha(c)) {
    if (c == 'E' && s.substr(0, 4) == "ESC[") return MatchEscLessSgr(s, meta);
    if (size_t n = MatchSyslog(s, meta)) return n;
    if (size_t n = MatchLoggerHead(s, meta)) return n;
    if (size_t n = MatchSyslogTail(s, meta)) return n;
    if (c == 's') {
      if (size_t n = MatchStreamName(s)) return n;
    }
    if (size_t n = MatchPdsh(s, meta)) return n;
    return MatchCompose(s, meta);
  }
  if (c == ' ' || c == '\t') return MatchSpace(s, meta);
  if (c == '>') return MatchQuote(s, meta);
  return 0;
}

/// Removes trailing blanks and colour codes whose ESC a paste lost (`[32m`, `[0m`,
/// prefix_internal::EscLessSgrLength).
std::string_view TrimColourTail(std::string_view s) {
  for (;;) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (s.size() < 3 || s.back() != 'm') return s;
    const size_t open = s.rfind('[');
    if (open == std::string_view::npos ||
        prefix_internal::EscLessSgrLength(s.substr(open)) != s.size() - open) {
      return s;
    }
    s.remove_suffix(s.size() - open);
  }
}

/// Ray folds repeated lines into one with a trailing ` [repeated 3x across cluster]`, coloured
/// (`[32m [repeated 6x across cluster] [0m` once the colour codes lost their ESC) and, the first
/// time, followed by its notice `(Ray deduplicates logs by default. Set RAY_DEDUP_LOGS=0 ...)`.
std::string_view StripRaySuffix(std::string_view s) {
  constexpr std::string_view kTail = "x across cluster]";
  if (s.size() < 30) return s;
  std::string_view t = TrimColourTail(s);
  if (t.ends_with(')')) {
    const size_t note = t.rfind(" (Ray deduplicates logs");
    if (note == std::string_view::npos) return s;
    t = TrimColourTail(t.substr(0, note));
  }
  if (!t.ends_with(kTail)) return s;
  const size_t open = t.rfind(" [repeated ");
  if (open == std::string_view::npos) return s;
  return TrimColourTail(t.substr(0, open));
}

}  // namespace

std::string_view StripStackedPrefixes(std::string_view s, LineMeta* meta) {
  for (int i = 0; i < kMaxPrefixes; ++i) {
    const size_t n = MatchOne(s, meta);
    if (n == 0) break;
    s.remove_prefix(n);
  }
  return StripRaySuffix(s);
}

std::string_view StripPrefixes(std::string_view raw, LineMeta* meta, std::string* scratch) {
  meta->Clear();
  std::string_view s = raw;
  if (!raw.empty() && std::memchr(raw.data(), '\x1b', raw.size()) != nullptr) {
    RemoveAnsi(raw, scratch);
    s = *scratch;
    meta->had_ansi = true;
  }
  return StripStackedPrefixes(s, meta);
}

}  // namespace ncclscope
