// Collector prefixes and copy-paste damage: docker compose `svc-1  | `, the `HOST IDENT[PID]: `
// tail of syslog / journald lines, markdown quotes, pasted line numbers, and the blank-led
// CloudWatch and padded srun forms.
#include <string_view>

#include "prefix_internal.h"

namespace ncclscope::prefix_internal {
namespace {

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

/// True if `name` ends in a compose replica index (`svc-1`, `proj_svc_12`).
bool HasReplicaIndex(std::string_view name) {
  size_t k = name.size();
  while (k > 0 && IsDigit(name[k - 1])) --k;
  return k < name.size() && k >= 2 && (name[k - 1] == '-' || name[k - 1] == '_');
}

}  // namespace

bool StartsWithHeadOrPrefix(std::string_view s) {
  if (!s.empty() && (s[0] == '[' || s[0] == '(')) return true;
  if (s.substr(0, 5) == "NCCL ") return true;
  size_t k = 0;
  while (k < s.size() && k < 256 && s[k] != ':' && s[k] != ' ' && s[k] != '\t') ++k;
  if (k == 0 || k >= s.size() || s[k] != ':') return false;
  size_t d = k + 1;
  while (d < s.size() && IsDigit(s[d])) ++d;
  if (d == k + 1 || d >= s.size() || s[d] != ':') return false;
  size_t e = d + 1;
  while (e < s.size() && IsDigit(s[e])) ++e;
  return e > d + 1 && e < s.size() && s[e] == ' ';
}

namespace {

/// Digits of a line number at s[k...] followed by a tab, or by blanks and a NCCL head / a
/// bracketed or parenthesised prefix. Returns the length up to the text, or 0.
size_t LineNumberAt(std::string_view s, size_t k) {
  const size_t start = k;
  while (k < s.size() && IsDigit(s[k]) && k - start < 7) ++k;
  if (k == start || k >= s.size()) return 0;
  if (s[k] == '\t') return k + 1;
  if (s[k] != ' ') return 0;
  size_t t = k;
  while (t < s.size() && t - k < 4 && s[t] == ' ') ++t;
  if (t >= s.size()) return 0;
  return StartsWithHeadOrPrefix(s.substr(t)) ? t : 0;
}

}  // namespace

size_t MatchCompose(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && IsComposeNameChar(s[k])) ++k;
  if (k == 0 || k >= s.size() || s[k] != ' ') return 0;
  const size_t name_end = k;
  while (k < s.size() && s[k] == ' ') ++k;
  if (k >= s.size() || s[k] != '|') return 0;
  // Compose pads names to one width, so only the longest has a single blank; a single blank is
  // accepted only after a replica index, which keeps NCCL's own tables
  // (`ReduceScatter |        0 ...`) intact.
  if (k == name_end + 1 && !HasReplicaIndex(s.substr(0, name_end))) return 0;
  ++k;
  if (k < s.size()) {
    if (s[k] != ' ') return 0;
    ++k;
  }
  SetView(&meta->service, s.substr(0, name_end));
  return k;
}

size_t SyslogTailLength(std::string_view s, bool require_pid, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && k < 64 && s[k] != ' ' && s[k] != ':' && s[k] != '[') ++k;
  if (k == 0 || k >= s.size() || s[k] != ' ') return 0;
  const std::string_view host = s.substr(0, k);
  const size_t ident_start = ++k;
  while (k < s.size() && k - ident_start < 64 && s[k] != ' ' && s[k] != ':' && s[k] != '[') ++k;
  if (k == ident_start || k >= s.size()) return 0;
  const std::string_view ident = s.substr(ident_start, k - ident_start);
  uint32_t pid = 0;
  if (s[k] == '[') {
    ++k;
    if (!ParsePid(s, &k, &pid) || k >= s.size() || s[k] != ']') return 0;
    ++k;
  } else if (require_pid) {
    return 0;
  }
  if (k + 1 > s.size() || s[k] != ':') return 0;
  ++k;
  if (k < s.size()) {
    if (s[k] != ' ') return 0;
    ++k;
  }
  meta->origin_host = host;
  meta->origin_name = ident;
  if (pid != 0) meta->origin_pid = pid;
  return k;
}

size_t MatchSyslogTail(std::string_view s, LineMeta* meta) {
  return SyslogTailLength(s, /*require_pid=*/true, meta);
}

size_t MatchQuote(std::string_view s, LineMeta* /*meta*/) {
  if (s.size() >= 2 && s[0] == '>' && s[1] == ' ') return 2;
  if (s.size() == 1 && s[0] == '>') return 1;
  return 0;
}

size_t MatchLineNumber(std::string_view s, LineMeta* /*meta*/) { return LineNumberAt(s, 0); }

size_t MatchSpace(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && k < 8 && s[k] == ' ') ++k;
  if (k >= s.size()) return 0;
  if (s[k] == '|' && k + 1 < s.size() && s[k + 1] == ' ') {  // CloudWatch `  | TIME | `
    const size_t ts = k + 2;
    const size_t t = Rfc3339Length(s, ts);
    if (t == 0 || s.substr(ts + t, 3) != " | ") return 0;
    SetView(&meta->timestamp, s.substr(ts, t));
    return ts + t + 3;
  }
  if (size_t n = MatchSrun(s.substr(k), meta); n > 0) return k + n;  // padded srun `  3: `
  if (size_t n = LineNumberAt(s, k); n > 0) return n;                // `   459\t`
  return 0;
}

}  // namespace ncclscope::prefix_internal
