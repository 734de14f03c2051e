// Launcher prefixes: what torchrun, PyTorch, mpirun, horovod, srun, pdsh / DeepSpeed, Ray and
// SkyPilot put in front of a worker's output, and what they say about who printed the line.
#include <string_view>

#include "prefix_internal.h"

namespace ncclscope::prefix_internal {

size_t EscLessSgrLength(std::string_view s) {
  size_t k = 1;
  while (k < s.size() && k < 16 && (IsDigit(s[k]) || s[k] == ';')) ++k;
  if (k == 1 || k >= s.size() || s[k] != 'm') return 0;
  ++k;
  if (k < s.size() && s[k] == ' ') ++k;
  return k;
}

namespace {

/// The `<stdout>:` / `<stderr>:` / `<stddiag>:` tag of mpirun and horovod at s[k...]: its length
/// with an optional blank (Open MPI 5), or 0.
size_t StreamTagLength(std::string_view s, size_t k) {
  std::string_view rest = s.substr(k);
  for (std::string_view t : {"<stdout>:", "<stderr>:", "<stddiag>:"}) {
    if (rest.substr(0, t.size()) == t) {
      size_t n = t.size();
      if (n < rest.size() && rest[n] == ' ') ++n;
      return n;
    }
  }
  return 0;
}

bool IsHostChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_'; }

bool IsIpv4(std::string_view t) {
  int groups = 0;
  size_t i = 0;
  while (i < t.size()) {
    size_t d = i;
    while (d < t.size() && IsDigit(t[d]) && d - i < 3) ++d;
    if (d == i) return false;
    ++groups;
    if (d == t.size()) break;
    if (t[d] != '.') return false;
    i = d + 1;
    if (i == t.size()) return false;
  }
  return groups == 4;
}

/// A pdsh host label: an IPv4 address, `localhost`, or a host name holding a digit (`node7`,
/// `worker-0`, `ip-10-0-1-23`, `gpu-a100-01.cluster`). Names without a digit are not taken:
/// `srun: `, `error: ` and the like start ordinary lines. Mixed case only with a '-' (`DGX-01`),
/// which keeps Python's `module.ClassError: ` out.
bool IsPdshHost(std::string_view t) {
  if (t.size() < 2 || t.size() > 63) return false;
  if (t == "localhost") return true;
  if (IsIpv4(t)) return true;
  if (!IsAlpha(t[0]) && !IsDigit(t[0])) return false;
  bool digit = false, upper = false, dash = false, letter = false;
  for (char c : t) {
    if (!IsHostChar(c)) return false;
    digit |= IsDigit(c);
    upper |= c >= 'A' && c <= 'Z';
    dash |= c == '-';
    letter |= IsAlpha(c);
  }
  return digit && letter && (!upper || dash);
}

}  // namespace

size_t MatchEscLessSgr(std::string_view s, LineMeta* meta) {
  size_t skip = 0;
  if (s.substr(0, 4) == "ESC[") skip = 3;  // the ESC byte spelled out by a log viewer
  if (s.size() <= skip || s[skip] != '[') return 0;
  const size_t n = EscLessSgrLength(s.substr(skip));
  if (n == 0) return 0;
  meta->had_ansi = true;
  return skip + n;
}

size_t MatchBracket(std::string_view s, LineMeta* meta) {
  if (s.size() < 3) return 0;
  const char c = s[1];
  if (c == 'p' && s.compare(1, 4, "pod/") == 0) {  // kubectl --prefix `[pod/NAME/CONTAINER] `
    size_t k = 5;
    while (k < s.size() && s[k] != ']' && s[k] != ' ') ++k;
    if (k == 5 || k >= s.size() || s[k] != ']') return 0;
    if (k + 1 < s.size() && s[k + 1] != ' ') return 0;
    SetView(&meta->pod, s.substr(5, k - 5));
    return k + 1 < s.size() ? k + 2 : k + 1;
  }
  if (IsDigit(c) || c == ';') {
    if (size_t n = EscLessSgrLength(s); n > 0) {
      meta->had_ansi = true;
      return n;
    }
    if (size_t n = MatchBracketedTimeRanks(s, meta); n > 0) return n;
    if (size_t n = MatchBracketedClock(s, meta); n > 0) return n;
    size_t k = 1;
    const int first = ParseRank(s, &k);
    if (first < 0 || k >= s.size()) return 0;
    if (s[k] == ']') {  // horovod `[3]<stdout>:`
      const size_t tag = StreamTagLength(s, k + 1);
      // A rank tag glued to NCCL's head (`[15]worker-23:83:2526 [0] NCCL WARN ...`, a
      // collector that dropped horovod's `<stdout>:`).
      if (tag == 0 && k + 1 < s.size() && (IsAlpha(s[k + 1]) || IsDigit(s[k + 1])) &&
          StartsWithHeadOrPrefix(s.substr(k + 1))) {
        SetRank(meta, first);
        return k + 1;
      }
      if (tag == 0) {
        // A line number or tag in brackets before another bracketed prefix (`[1784] [rank0]:[E602
        // ...`, `[12] [pod/...] `): dropped; what it counts is not known, so no rank is taken.
        // `[1] NCCL INFO` (a headless message's device) is not followed by a bracket.
        if (k + 2 < s.size() && s[k + 1] == ' ' && s[k + 2] == '[') return k + 2;
        return 0;
      }
      SetRank(meta, first);
      return k + 1 + tag;
    }
    if (s[k] != ',') return 0;  // mpirun --tag-output `[1,3]<stdout>:`
    ++k;
    const int rank = ParseRank(s, &k);
    if (rank < 0 || k >= s.size() || s[k] != ']') return 0;
    const size_t tag = StreamTagLength(s, k + 1);
    if (tag == 0) return 0;
    SetRank(meta, rank);
    return k + 1 + tag;
  }
  if (c == 'm') {  // `[m`: the shortest colour reset
    // Unless it opens a bracketed word: `[mbay-csp2:627483] ` (Open MPI's host:pid), `[main] `.
    size_t k = 2;
    while (k < s.size() && k < 64 && s[k] != ' ' && s[k] != '[' && s[k] != ']') ++k;
    if (k > 2 && k < s.size() && s[k] == ']') return 0;
    meta->had_ansi = true;
    return s.size() > 2 && s[2] == ' ' ? 3 : 2;
  }
  if (IsAlpha(c)) {  // torchrun --tee `[default0]:` (any role name), PyTorch `[rank0]:`
    size_t k = 1;
    while (k < s.size() && k < 40 && (IsAlpha(s[k]) || s[k] == '_' || s[k] == '-')) ++k;
    const int rank = ParseRank(s, &k);
    // TorchX `[trainer0|3]:` (role and replica, then the local rank): the replica names the rank.
    if (rank >= 0 && k < s.size() && s[k] == '|') {
      ++k;
      if (ParseRank(s, &k) < 0) return 0;
    }
    if (rank < 0 || k + 1 >= s.size() || s[k] != ']' || s[k + 1] != ':') return 0;
    if (!meta->launcher_rank_global && s.compare(1, 4, "rank") == 0 && IsDigit(s[5])) {
      // PyTorch's own `[rankN]:` is the global rank of the process that printed: it wins over a
      // launcher's task tag outside it (`3: [rank24]:` from `srun -l torchrun`, node 3's task).
      meta->launcher_rank = rank;
      meta->launcher_rank_global = true;
    } else {
      SetRank(meta, rank);
    }
    return k + 2;
  }
  return 0;
}

size_t MatchSrun(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  const int rank = ParseRank(s, &k);
  if (rank < 0 || k + 1 >= s.size() || s[k] != ':' || s[k + 1] != ' ') return 0;
  SetRank(meta, rank);
  return k + 2;
}

size_t MatchPdsh(std::string_view s, LineMeta* meta) {
  size_t k = 0;
  while (k < s.size() && k < 64 && IsHostChar(s[k])) ++k;
  if (k + 1 >= s.size() || s[k] != ':' || s[k + 1] != ' ') return 0;
  const std::string_view host = s.substr(0, k);
  if (!IsPdshHost(host)) return 0;
  meta->origin_host = host;
  meta->multi_node = MultiNodePrefix::kPdsh;
  return k + 2;
}

size_t MatchStreamName(std::string_view s) {
  constexpr size_t kLength = 8;  // "stderr: "
  if (s.size() <= kLength || s[6] != ':' || s[7] != ' ') return 0;
  const std::string_view name = s.substr(0, 6);
  return name == "stderr" || name == "stdout" ? kLength : 0;
}

size_t MatchParenIdentity(std::string_view s, LineMeta* meta) {
  if (s.size() < 7 || s[0] != '(') return 0;
  const size_t limit = s.size() < 256 ? s.size() : 256;
  size_t close = 1;
  while (close < limit && s[close] != ')' && s[close] != '(') ++close;
  if (close >= limit || s[close] != ')') return 0;
  const std::string_view in = s.substr(1, close - 1);
  std::string_view name, ip;
  uint32_t pid = 0;
  int rank = -1;
  bool any_key = false;
  size_t i = 0;
  bool first = true;
  while (i < in.size()) {
    while (i < in.size() && (in[i] == ' ' || in[i] == ',')) ++i;
    size_t e = i;
    while (e < in.size() && in[e] != ' ' && in[e] != ',') ++e;
    const std::string_view tok = in.substr(i, e - i);
    const size_t eq = tok.find('=');
    if (eq == std::string_view::npos) {
      if (first) name = tok;
    } else {
      const std::string_view key = tok.substr(0, eq);
      const std::string_view value = tok.substr(eq + 1);
      if (key == "pid") {
        size_t p = 0;
        if (!ParsePid(value, &p, &pid) || p != value.size()) return 0;
        any_key = true;
      } else if (key == "ip" || key == "node_ip") {
        if (value.empty()) return 0;
        ip = value;
        any_key = true;
      } else if (key == "rank") {
        size_t p = 0;
        rank = ParseRank(value, &p);
        if (rank < 0 || p != value.size()) return 0;
        any_key = true;
      }
    }
    first = false;
    i = e;
  }
  if (!any_key) return 0;
  // SkyPilot names its nodes `head` and `workerN` and gives their rank only on multi-node
  // clusters.
  if (rank >= 0 && (name == "head" || (name.starts_with("worker") && name.size() > 6 &&
                                       IsDigit(name[6])))) {
    meta->multi_node = MultiNodePrefix::kSkyPilotNode;
  }
  if (pid != 0) meta->origin_pid = pid;
  if (!ip.empty()) meta->origin_host = ip;
  if (!name.empty()) meta->origin_name = name;
  if (rank >= 0) SetRank(meta, rank);
  size_t n = close + 1;
  if (n < s.size() && s[n] == ' ') ++n;
  return n;
}

}  // namespace ncclscope::prefix_internal
