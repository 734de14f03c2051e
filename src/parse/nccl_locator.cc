// NcclLocator: the anchor search (memchr for 'N', then a literal compare) and the backward read
// of NCCL's head.
#include "ncclscope/parse/nccl_locator.h"

#include <cstring>

#include "ncclscope/base/ascii.h"
#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope {
namespace {

using parse_internal::IsDigit;
using ascii::IsWordChar;

/// Characters that end a host name read backwards: blanks and the punctuation that launchers
/// put around it (`[1,0]<stdout>:host`, `(pid=1)`, `|`, quotes, a markdown code span's
/// backtick).
bool EndsHost(char c) {
  switch (c) {
    case '`':
    case ' ':
    case '\t':
    case ':':
    case '|':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '"':
    case '\'':
    case '=':
    case ',':
    case '<':
    case '>':
      return true;
    default:
      return static_cast<unsigned char>(c) < 0x20;
  }
}

constexpr size_t kMaxLookBack = 512;  // A WARN location (plugins: a pretty function) fits.

/// With text[j] the blank after `host:pid:tid`: the start of the host, or npos.
size_t HostPidTidEndingAt(std::string_view text, size_t j) {
  size_t k = j;
  while (k > 0 && IsDigit(text[k - 1]) && j - k <= 10) --k;
  if (k == j || j - k > 10 || k == 0 || text[k - 1] != ':') return std::string_view::npos;
  const size_t pid_end = --k;
  while (k > 0 && IsDigit(text[k - 1]) && pid_end - k <= 10) --k;
  if (k == pid_end || pid_end - k > 10 || k == 0 || text[k - 1] != ':')
    return std::string_view::npos;
  const size_t host_end = --k;
  if (k > 1 && text[k - 1] == '>') {  // a redacted `<cluster_name>` stands for the host
    size_t lt = k - 1;
    while (lt > 0 && text[lt - 1] != '<' && !EndsHost(text[lt - 1]) && k - lt < 64) --lt;
    if (lt > 0 && text[lt - 1] == '<') return lt - 1;
    return std::string_view::npos;
  }
  while (k > 0 && !EndsHost(text[k - 1]) && host_end - k < 256) --k;
  if (k == host_end) return std::string_view::npos;
  return k;
}

/// Length of `[digits] ` at text[i...], or 0.
size_t DevLength(std::string_view text, size_t i) {
  if (i >= text.size() || text[i] != '[') return 0;
  size_t k = i + 1;
  while (k < text.size() && IsDigit(text[k]) && k - i <= 4) ++k;
  if (k == i + 1 || k + 1 >= text.size() || text[k] != ']' || text[k + 1] != ' ') return 0;
  return k + 2 - i;
}

/// NCCL's own `[timestamp] ` (2.26+) ending right before text[h]: its start, or h.
size_t WithNcclTimestamp(std::string_view text, size_t h) {
  if (h < 4 || text[h - 1] != ' ' || text[h - 2] != ']') return h;
  const size_t close = h - 2;
  size_t k = close;
  while (k > 0 && text[k - 1] != '[' && close - k < 64) --k;
  if (k == 0 || text[k - 1] != '[') return h;
  const std::string_view inside = text.substr(k, close - k);
  if (inside.empty() || !IsDigit(inside[0])) return h;
  if (inside.find_first_of(":-") == std::string_view::npos) return h;
  return k - 1;
}

/// Length of the level word after "NCCL " at text[anchor + 5], with its blank, for level anchors.
size_t LevelWordLength(std::string_view text, size_t anchor) {
  const std::string_view w = text.substr(anchor + 5);
  for (std::string_view level : {"INFO", "WARN", "TRACE", "CALL", "ABORT", "ATTN"}) {
    if (w.substr(0, level.size()) == level) {
      return w.size() > level.size() ? level.size() + 1 : level.size();
    }
  }
  return 0;
}

}  // namespace

size_t FindNcclAnchor(std::string_view text, size_t from, AnchorKind* kind) {
  const size_t n = text.size();
  size_t i = from;
  while (i + 9 <= n) {
    const void* p = std::memchr(text.data() + i, 'N', n - i);
    if (p == nullptr) return std::string_view::npos;
    const size_t pos = static_cast<size_t>(static_cast<const char*>(p) - text.data());
    if (pos + 9 > n) return std::string_view::npos;
    if (std::memcmp(text.data() + pos + 1, "CCL ", 4) == 0 &&
        (pos == 0 || !IsWordChar(text[pos - 1]))) {
      const std::string_view w = text.substr(pos + 5);
      for (std::string_view level : {"INFO", "WARN", "TRACE", "CALL", "ABORT", "ATTN"}) {
        if (w.substr(0, level.size()) == level &&
            (w.size() == level.size() || w[level.size()] == ' ')) {
          *kind = AnchorKind::kLevel;
          return pos;
        }
      }
      // The version line: at the start of the text, or anywhere with its `+cuda` suffix (a
      // framework's "..., NCCL version 2.19.3" closing an error message has none).
      if (w.size() > 8 && w.substr(0, 8) == "version " && IsDigit(w[8]) &&
          (pos == 0 || w.substr(8, 24).find("+cuda") != std::string_view::npos)) {
        *kind = AnchorKind::kVersion;
        return pos;
      }
    }
    i = pos + 1;
  }
  return std::string_view::npos;
}

size_t FindHeadBefore(std::string_view text, size_t anchor) {
  if (anchor < 2) return std::string_view::npos;
  const size_t stop = anchor > kMaxLookBack ? anchor - kMaxLookBack : 0;
  for (size_t j = anchor - 1; j > stop; --j) {
    if (text[j] != ' ' || !IsDigit(text[j - 1])) continue;
    const size_t h = HostPidTidEndingAt(text, j);
    if (h == std::string_view::npos) continue;
    // Between the head and the anchor: nothing (CALL, dev-less), or `[dev] ` and, for WARN and
    // TRACE, a location.
    const size_t after = j + 1;
    if (after != anchor && DevLength(text, after) == 0) continue;
    return WithNcclTimestamp(text, h);
  }
  return std::string_view::npos;
}

size_t HeadlessStart(std::string_view text, size_t anchor) {
  // `[dev] NCCL INFO`, `[dev] file.cc:12 NCCL WARN`, `file.cc:12 NCCL WARN` (an excerpt that lost
  // the heads), or a bare `NCCL INFO`.
  const size_t stop = anchor > 256 ? anchor - 256 : 0;
  for (size_t k = anchor; k > stop; --k) {
    const size_t d = DevLength(text, k - 1);
    if (d == 0) continue;
    const std::string_view between = text.substr(k - 1 + d, anchor - (k - 1 + d));
    if (between.empty() || between.find(' ') == between.size() - 1 ||
        between.find(" (") != std::string_view::npos) {
      return k - 1;
    }
    break;
  }
  if (anchor >= 2 && text[anchor - 1] == ' ') {
    const size_t blank = text.rfind(' ', anchor - 2);
    const size_t start = blank == std::string_view::npos ? 0 : blank + 1;
    if (parse_internal::IsSourceLocation(text.substr(start, anchor - 1 - start))) return start;
  }
  return anchor;
}

size_t GluedMessageEnd(std::string_view text, size_t body) {
  AnchorKind kind;
  size_t i = body;
  for (;;) {
    const size_t a = FindNcclAnchor(text, i, &kind);
    if (a == std::string_view::npos) return text.size();
    if (kind == AnchorKind::kLevel) {
      const size_t h = FindHeadBefore(text, a);
      if (h != std::string_view::npos && h >= body) return h;
      // A headless message glued after another (`... No device found. [0] NCCL INFO NET/Socket
      // ...`): its `[dev] ` (and WARN location) after a blank.
      if (h == std::string_view::npos) {
        const size_t d = HeadlessStart(text, a);
        if (d < a && d > body && text[d - 1] == ' ') return d;
      }
    } else if (a > body && text[a - 1] == ' ') {
      // A version line glued after a message (`cudaDriverVersion 12060 NCCL version 2.20.5`);
      // 2.22+'s own INFO version line starts its body, so it is never split.
      return a;
    }
    i = a + 1;
  }
}

bool LocateNcclMessage(std::string_view text, size_t from, NcclSpan* span) {
  AnchorKind kind;
  const size_t a = FindNcclAnchor(text, from, &kind);
  if (a == std::string_view::npos) return false;
  span->anchor = a;
  span->kind = kind;
  size_t body;
  if (kind == AnchorKind::kVersion) {
    span->head = a;
    span->headless = true;
    body = a + 13;
  } else {
    const size_t h = FindHeadBefore(text, a);
    span->headless = h == std::string_view::npos;
    if (!span->headless) {
      span->head = h;
    } else {
      span->head = HeadlessStart(text, a);
    }
    body = a + 5 + LevelWordLength(text, a);
  }
  span->end = GluedMessageEnd(text, body < text.size() ? body : text.size());
  return true;
}

}  // namespace ncclscope
