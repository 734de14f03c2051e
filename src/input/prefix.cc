// StripPrefixes: hand-written matchers for collector and launcher prefixes. Each matcher looks at
// the start of the text only and gives up at the first byte that does not fit, so a line without
// a prefix costs a few comparisons.
#include "ncclscope/input/prefix.h"

#include <cstdint>
#include <cstring>

#include "ncclscope/base/byte_words.h"

namespace ncclscope {
namespace {

constexpr int kMaxPrefixes = 8;  // Stacked prefixes stripped at most per line.
constexpr size_t kMaxRankDigits = 7;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Characters of a docker compose service name: letters, digits, '_', '.', '-'.
struct ComposeNameTable {
  bool is_name[256] = {};
  constexpr ComposeNameTable() {
    for (int c = 0; c < 256; ++c) {
      is_name[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '.' || c == '-';
    }
  }
};
constexpr ComposeNameTable kComposeName;

bool IsComposeNameChar(char c) { return kComposeName.is_name[static_cast<unsigned char>(c)]; }

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

/// Parses `n` digits at s[i...]. Returns false if any is not a digit or the text is too short.
bool Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return false;
  for (size_t k = i; k < i + n; ++k) {
    if (!IsDigit(s[k])) return false;
  }
  return true;
}

/// Length of an RFC3339 timestamp at s[i...] (`2025-05-16T16:39:55[.frac](Z|+hh:mm|-hh:mm)`),
/// or 0 if there is none.
size_t Rfc3339Length(std::string_view s, size_t i) {
  const size_t b = i;
  if (!Digits(s, i, 4) || i + 19 > s.size() || s[i + 4] != '-' || !Digits(s, i + 5, 2) ||
      s[i + 7] != '-' || !Digits(s, i + 8, 2) || s[i + 10] != 'T' || !Digits(s, i + 11, 2) ||
      s[i + 13] != ':' || !Digits(s, i + 14, 2) || s[i + 16] != ':' || !Digits(s, i + 17, 2)) {
    return 0;
  }
  i += 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    size_t d = i + 1;
    while (d < s.size() && IsDigit(s[d])) ++d;
    if (d == i + 1) return 0;
    i = d;
  }
  if (i < s.size() && s[i] == 'Z') return i + 1 - b;
  if (i + 6 <= s.size() && (s[i] == '+' || s[i] == '-') && Digits(s, i + 1, 2) && s[i + 3] == ':' &&
      Digits(s, i + 4, 2)) {
    return i + 6 - b;
  }
  return 0;
}

/// Parses 1..kMaxRankDigits digits at s[*i]; advances *i. Returns -1 if there are none.
int ParseRank(std::string_view s, size_t* i) {
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

// When the same kind of prefix appears twice, the outermost one (the collector's) wins.
void SetRank(LineMeta* meta, int rank) {
  if (meta->launcher_rank < 0) meta->launcher_rank = rank;
}
void SetView(std::string_view* field, std::string_view value) {
  if (field->empty()) *field = value;
}

/// Prefixes starting with '['. Returns the prefix length, or 0.
size_t MatchBracket(std::string_view s, LineMeta* meta) {
  if (s.size() < 4) return 0;
  const char c = s[1];
  if (c == 'p' && s.compare(1, 4, "pod/") == 0) {  // kubectl --prefix `[pod/NAME/CONTAINER] `
    size_t k = 5;
    while (k < s.size() && s[k] != ']' && s[k] != ' ') ++k;
    if (k == 5 || k >= s.size() || s[k] != ']') return 0;
    if (k + 1 < s.size() && s[k + 1] != ' ') return 0;
    SetView(&meta->pod, s.substr(5, k - 5));
    return k + 1 < s.size() ? k + 2 : k + 1;
  }
  if (IsDigit(c)) {  // mpirun --tag-output `[1,3]<stdout>:`
    size_t k = 1;
    if (ParseRank(s, &k) < 0 || k >= s.size() || s[k] != ',') return 0;
    ++k;
    const int rank = ParseRank(s, &k);
    if (rank < 0 || k >= s.size() || s[k] != ']') return 0;
    ++k;
    std::string_view rest = s.substr(k);
    size_t tag = 0;
    for (std::string_view t : {"<stdout>:", "<stderr>:", "<stddiag>:"}) {
      if (rest.substr(0, t.size()) == t) tag = t.size();
    }
    if (tag == 0) return 0;
    k += tag;
    if (k < s.size() && s[k] == ' ') ++k;  // Open MPI 5 puts a space after the tag.
    SetRank(meta, rank);
    return k;
  }
  if (IsAlpha(c)) {  // torchrun --tee `[default0]:` (any role name), PyTorch `[rank0]:`
    size_t k = 1;
    while (k < s.size() && k < 40 && (IsAlpha(s[k]) || s[k] == '_' || s[k] == '-')) ++k;
    const int rank = ParseRank(s, &k);
    if (rank < 0 || k + 1 >= s.size() || s[k] != ']' || s[k + 1] != ':') return 0;
    SetRank(meta, rank);
    return k + 2;
  }
  return 0;
}

/// True if `name` ends in a compose replica index (`svc-1`, `proj_svc_12`).
bool HasReplicaIndex(std::string_view name) {
  size_t k = name.size();
  while (k > 0 && IsDigit(name[k - 1])) --k;
  return k < name.size() && k >= 2 && (name[k - 1] == '-' || name[k - 1] == '_');
}

/// docker compose `svc-1  | ` (name, spaces, `|`, a space or end of line). Compose pads names to
/// one width, so only the longest has a single space; a single space is accepted only after a
/// replica index, which keeps NCCL's own tables (`ReduceScatter |        0 ...`) intact.
size_t MatchCompose(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && IsComposeNameChar(s[k])) ++k;
  if (k == 0 || k >= s.size() || s[k] != ' ') return 0;
  const size_t name_end = k;
  while (k < s.size() && s[k] == ' ') ++k;
  if (k >= s.size() || s[k] != '|') return 0;
  if (k == name_end + 1 && !HasReplicaIndex(s.substr(0, name_end))) return 0;
  ++k;
  if (k < s.size()) {
    if (s[k] != ' ') return 0;
    ++k;
  }
  SetView(&meta->service, s.substr(0, name_end));
  return k;
}

/// Prefixes starting with a digit: kubectl --timestamps, CloudWatch `TIME | `, srun `3: `.
size_t MatchDigit(std::string_view s, LineMeta* meta) {
  if (size_t t = Rfc3339Length(s, 0); t > 0) {
    if (s.substr(t, 3) == " | ") {  // CloudWatch export
      SetView(&meta->timestamp, s.substr(0, t));
      return t + 3;
    }
    if (t < s.size() && s[t] == ' ') {  // kubectl --timestamps
      SetView(&meta->timestamp, s.substr(0, t));
      return t + 1;
    }
    if (t == s.size()) {  // kubectl --timestamps of an empty line
      SetView(&meta->timestamp, s.substr(0, t));
      return t;
    }
    return 0;
  }
  size_t k = 0;
  const int rank = ParseRank(s, &k);
  if (rank >= 0 && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ') {
    SetRank(meta, rank);
    return k + 2;
  }
  return MatchCompose(s, meta);
}

/// Prefixes starting with a space: CloudWatch `  | TIME | `, padded srun labels `  3: `.
size_t MatchSpace(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && k < 8 && s[k] == ' ') ++k;
  if (k >= s.size()) return 0;
  if (s[k] == '|' && k + 1 < s.size() && s[k + 1] == ' ') {
    const size_t ts = k + 2;
    const size_t t = Rfc3339Length(s, ts);
    if (t == 0 || s.substr(ts + t, 3) != " | ") return 0;
    SetView(&meta->timestamp, s.substr(ts, t));
    return ts + t + 3;
  }
  const int rank = ParseRank(s, &k);
  if (rank >= 0 && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ') {
    SetRank(meta, rank);
    return k + 2;
  }
  return 0;
}

/// Length of the prefix at the start of `s` (recording what it says in *meta), or 0.
size_t MatchOne(std::string_view s, LineMeta* meta) {
  if (s.empty()) return 0;
  const char c = s[0];
  if (c == '[') return MatchBracket(s, meta);
  if (IsDigit(c)) return MatchDigit(s, meta);
  if (IsAlpha(c)) return MatchCompose(s, meta);
  if (c == ' ') return MatchSpace(s, meta);
  return 0;
}

}  // namespace

std::string_view StripStackedPrefixes(std::string_view s, LineMeta* meta) {
  for (int i = 0; i < kMaxPrefixes; ++i) {
    const size_t n = MatchOne(s, meta);
    if (n == 0) break;
    s.remove_prefix(n);
  }
  return s;
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
