#include "ncclscope/rules/knowledge.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include "ncclscope/base/ascii.h"
#include "knowledge_tables.h"

namespace ncclscope {
namespace {

using ascii::FindNoCase;
using ascii::ToLower;

std::vector<KnownMessage> JoinTables() {
  using namespace knowledge_internal;
  std::vector<KnownMessage> all;
  for (auto table : {ConnectionKnowledge(), RdmaKnowledge(), PluginKnowledge(), GpuKnowledge(),
                     ConfigKnowledge()}) {
    all.insert(all.end(), table.begin(), table.end());
  }
  return all;
}

/// A matching location fragment outweighs a generic pattern of the same text ("Cuda failure" in
/// nvls.cc), not a more specific one ("peer access is not supported" in shm.cc).
constexpr size_t kLocationBonus = 10;

}  // namespace

std::string_view FailureSideName(FailureSide side) {
  switch (side) {
    case FailureSide::kPeerDied:
      return "peer died";
    case FailureSide::kNetworkPath:
      return "network path";
    case FailureSide::kSidesDisagree:
      return "sides disagree";
    case FailureSide::kNone:
      break;
  }
  return "";
}

std::span<const KnownMessage> KnowledgeBase() {
  static const std::vector<KnownMessage>* const kAll = new std::vector<KnownMessage>(JoinTables());
  return *kAll;
}

const KnownMessage* FindKnownMessage(std::string_view id) {
  for (const KnownMessage& m : KnowledgeBase()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

std::vector<const KnownMessage*> KnownMessagesOfRule(std::string_view rule) {
  std::vector<const KnownMessage*> out;
  for (const KnownMessage& m : KnowledgeBase()) {
    if (m.rule == rule) out.push_back(&m);
  }
  return out;
}

size_t PatternScore(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return 0;
  size_t pos = 0, score = 0;
  while (!pattern.empty()) {
    size_t star = pattern.find('*');
    std::string_view frag = pattern.substr(0, star);
    pattern = star == std::string_view::npos ? std::string_view() : pattern.substr(star + 1);
    // Fragments are trimmed: "connect to * failed" reads naturally with spaces around '*'.
    while (!frag.empty() && frag.front() == ' ') frag.remove_prefix(1);
    while (!frag.empty() && frag.back() == ' ') frag.remove_suffix(1);
    if (frag.empty()) continue;
    size_t at = FindNoCase(text, frag, pos);
    if (at == std::string_view::npos) return 0;
    pos = at + frag.size();
    score += frag.size();
  }
  return score;
}

const KnownMessage* MatchMessage(std::string_view text, std::string_view location) {
  const KnownMessage* best = nullptr;
  size_t best_score = 0;
  bool best_fallback = true;
  for (const KnownMessage& m : KnowledgeBase()) {
    size_t bonus = 0;
    if (!m.location.empty()) {
      std::string_view where = location.empty() ? text : location;
      if (FindNoCase(where, m.location) == std::string_view::npos) continue;
      bonus = kLocationBonus;
    }
    size_t score = 0;
    for (std::string_view p : m.patterns) score = std::max(score, PatternScore(p, text));
    if (score == 0) continue;
    score += bonus;
    // Specific entries beat fallbacks; then the longer match wins (table order on ties).
    const bool better = best == nullptr || (best_fallback && !m.fallback) ||
                        (best_fallback == m.fallback && score > best_score);
    if (better) {
      best = &m;
      best_score = score;
      best_fallback = m.fallback;
    }
  }
  return best;
}

std::vector<const KnownMessage*> MatchAllMessages(std::string_view text) {
  std::vector<std::pair<size_t, const KnownMessage*>> best;  // per rule
  for (const KnownMessage& m : KnowledgeBase()) {
    size_t bonus = 0;
    if (!m.location.empty()) {
      if (FindNoCase(text, m.location) == std::string_view::npos) continue;
      bonus = kLocationBonus;
    }
    size_t score = 0;
    for (std::string_view p : m.patterns) score = std::max(score, PatternScore(p, text));
    if (score == 0) continue;
    score += bonus;
    auto it = std::find_if(best.begin(), best.end(),
                           [&](const auto& b) { return b.second->rule == m.rule; });
    if (it == best.end()) {
      best.emplace_back(score, &m);
    } else if ((it->second->fallback && !m.fallback) ||
               (it->second->fallback == m.fallback && score > it->first)) {
      *it = {score, &m};
    }
  }
  std::stable_sort(best.begin(), best.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const KnownMessage*> out;
  for (const auto& [score, m] : best) out.push_back(m);
  return out;
}

namespace {

bool IsAddressChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == ':' || c == '-' ||
         c == '_' || c == '%' || c == '[' || c == ']';
}

/// "10.0.0.5<43651>" / "node-3<59203>" ending at a '>' after `from`; empty if none.
std::string AddressAfter(std::string_view text, size_t from) {
  size_t lt = text.find('<', from);
  if (lt == std::string_view::npos || lt == from) return "";
  size_t gt = text.find('>', lt);
  if (gt == std::string_view::npos) return "";
  for (size_t i = lt + 1; i < gt; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return "";
  }
  size_t start = lt;
  while (start > from && IsAddressChar(text[start - 1])) --start;
  if (start == lt) return "";
  return std::string(text.substr(start, gt + 1 - start));
}

/// The number after `key` (digits, or NAME(digits) as in "status=IBV_WC_RETRY_EXC_ERR(12)").
long NumberAfter(std::string_view text, std::string_view key) {
  size_t at = FindNoCase(text, key);
  if (at == std::string_view::npos) return -1;
  size_t i = at + key.size();
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i]))) {
    // Symbolic form: skip the name to its '('.
    size_t open = text.find('(', i);
    size_t stop = text.find_first_of(" ,", i);
    if (open == std::string_view::npos || (stop != std::string_view::npos && stop < open)) {
      return -1;
    }
    i = open + 1;
  }
  long v = 0;
  bool any = false;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    v = v * 10 + (text[i] - '0');
    any = true;
    ++i;
    if (v > 1'000'000'000) return -1;
  }
  return any ? v : -1;
}

std::string Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '*')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '.' || s.back() == '*' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

MessageDetails ExtractDetails(std::string_view text) {
  MessageDetails d;
  // The other end: the first host<port> after the words that introduce it.
  for (std::string_view key : {"remote peer ", "onnect to ", "from peer ", "Accept from ",
                               "recv from ", "send from ", "peer ", "to "}) {
    size_t at = FindNoCase(text, key);
    if (at == std::string_view::npos) continue;
    std::string addr = AddressAfter(text, at + key.size());
    if (!addr.empty()) {
      d.peer = addr;
      break;
    }
  }
  if (d.peer.empty()) d.peer = AddressAfter(text, 0);
  if (!d.peer.empty()) d.peer_host = d.peer.substr(0, d.peer.find('<'));
  // Device: "hca mlx5_0", "'mlx5_0'", "mlx5_0:1", "on dev mlx5_0:1", "/dev/shm/nccl-XXXX".
  if (size_t at = FindNoCase(text, "/dev/shm/"); at != std::string_view::npos) {
    size_t end = text.find_first_of(" ,)", at);
    d.device = std::string(text.substr(at, end == std::string_view::npos ? end : end - at));
  } else {
    for (std::string_view key : {"mlx5_", "mlx4_", "bnxt_re", "irdma", "hfi1_", "qedr", "efa"}) {
      size_t at = FindNoCase(text, key);
      // A device name starts a word; "efa" only with its number ("efa0", not "default").
      while (at != std::string_view::npos &&
             ((at > 0 && std::isalpha(static_cast<unsigned char>(text[at - 1]))) ||
              (key == "efa" && (at + 3 >= text.size() ||
                                !std::isdigit(static_cast<unsigned char>(text[at + 3])))))) {
        at = FindNoCase(text, key, at + 1);
      }
      if (at == std::string_view::npos) continue;
      size_t end = at;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '_' || text[end] == ':')) {
        ++end;
      }
      d.device = std::string(text.substr(at, end - at));
      while (!d.device.empty() && d.device.back() == ':') d.device.pop_back();
      break;
    }
  }
  // IB completion status, in every version's spelling.
  if (FindNoCase(text, "Got completion") != std::string_view::npos ||
      FindNoCase(text, "wc.status") != std::string_view::npos) {
    long s = NumberAfter(text, "status=");
    if (s < 0) s = NumberAfter(text, "with error ");
    if (s < 0) s = NumberAfter(text, "wc.status=");
    d.ib_status = static_cast<int>(s);
    d.vendor_error = NumberAfter(text, "vendor err ");
    if (d.vendor_error < 0) d.vendor_error = NumberAfter(text, "vendor_err=");
  }
  // OS error text after "failed : " / "failed: " / "returned " / ", error: ".
  for (std::string_view key : {"failed : ", "failed: ", ", error: ", "failed with error ",
                               "returned "}) {
    size_t at = FindNoCase(text, key);
    if (at == std::string_view::npos) continue;
    std::string_view rest = text.substr(at + key.size());
    size_t stop = rest.find_first_of(",;");
    rest = rest.substr(0, stop);
    std::string err = Trimmed(rest);
    if (!err.empty() && std::isalpha(static_cast<unsigned char>(err.front()))) {
      d.os_error = err;
      break;
    }
  }
  if (size_t at = FindNoCase(text, "Cuda failure"); at != std::string_view::npos) {
    size_t q = text.find('\'', at);
    size_t q2 = q == std::string_view::npos ? q : text.find('\'', q + 1);
    if (q2 != std::string_view::npos) d.cuda_error = std::string(text.substr(q + 1, q2 - q - 1));
  }
  if (size_t at = text.find("NCCL_"); at != std::string_view::npos) {
    size_t end = at;
    while (end < text.size() && (std::isupper(static_cast<unsigned char>(text[end])) ||
                                 std::isdigit(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_')) {
      ++end;
    }
    if (end - at > 5) d.setting = std::string(text.substr(at, end - at));
  }
  return d;
}

namespace {

struct IbvStatus {
  std::string_view name;
  std::string_view meaning;
};

// ibv_wc_status (libibverbs verbs.h), in enum order.
constexpr IbvStatus kIbvStatus[] = {
    {"IBV_WC_SUCCESS", "success"},
    {"IBV_WC_LOC_LEN_ERR", "local length error: a posted buffer was too small for the message"},
    {"IBV_WC_LOC_QP_OP_ERR", "local QP operation error: an invalid work request (internal error)"},
    {"IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error"},
    {"IBV_WC_LOC_PROT_ERR",
     "local protection error: a buffer is not (or no longer) registered with the NIC, or GPU "
     "memory cannot be accessed (GPUDirect/peermem problems)"},
    {"IBV_WC_WR_FLUSH_ERR",
     "work request flushed: the queue pair had already failed (look for the first, different "
     "error; often the peer died)"},
    {"IBV_WC_MW_BIND_ERR", "memory window bind error"},
    {"IBV_WC_BAD_RESP_ERR", "bad response: the remote side answered unexpectedly"},
    {"IBV_WC_LOC_ACCESS_ERR", "local access error: a protection violation on a local buffer"},
    {"IBV_WC_REM_INV_REQ_ERR",
     "remote invalid request: the peer rejected the request (different expectations on both "
     "sides, or the peer's buffers are gone)"},
    {"IBV_WC_REM_ACCESS_ERR",
     "remote access error: the peer's memory key or permissions do not allow the access "
     "(registration or GPUDirect problems on the peer)"},
    {"IBV_WC_REM_OP_ERR", "remote operation error: the peer could not complete the operation"},
    {"IBV_WC_RETRY_EXC_ERR",
     "transport retry counter exceeded: the remote never acknowledged (peer process or node "
     "gone, link down, or a RoCE path that drops packets: wrong GID/VLAN, no PFC)"},
    {"IBV_WC_RNR_RETRY_EXC_ERR",
     "receiver-not-ready retry exceeded: the peer posted no receive buffer in time (peer stuck "
     "or dead)"},
    {"IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation"},
    {"IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request"},
    {"IBV_WC_REM_ABORT_ERR", "remote aborted the operation"},
    {"IBV_WC_INV_EECN_ERR", "invalid EE context number"},
    {"IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state"},
    {"IBV_WC_FATAL_ERR", "fatal error of the device"},
    {"IBV_WC_RESP_TIMEOUT_ERR", "response timeout"},
    {"IBV_WC_GENERAL_ERR", "general error (see the vendor error)"},
    {"IBV_WC_TM_ERR", "tag matching error"},
    {"IBV_WC_TM_RNDV_INCOMPLETE", "tag matching rendezvous incomplete"},
};

}  // namespace

std::string_view IbvStatusName(int status) {
  if (status < 0 || static_cast<size_t>(status) >= std::size(kIbvStatus)) return "";
  return kIbvStatus[status].name;
}

std::string_view IbvStatusMeaning(int status) {
  if (status < 0 || static_cast<size_t>(status) >= std::size(kIbvStatus)) return "";
  return kIbvStatus[status].meaning;
}

namespace {

/// Lower-case words of 3+ letters, without the common ones that say nothing.
std::set<std::string> Words(std::string_view text) {
  static const std::set<std::string> kStop = {
      "the", "and", "for", "with", "from", "nccl", "info", "warn", "set", "this", "that", "not",
      "are", "was", "has", "have", "you", "can", "error", "failed", "failure", "use", "using"};
  std::set<std::string> out;
  std::string w;
  auto flush = [&] {
    if (w.size() >= 3 && kStop.count(w) == 0) out.insert(w);
    w.clear();
  };
  for (char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      w.push_back(ToLower(c));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace

std::vector<const KnownMessage*> ClosestKnownMessages(std::string_view text, size_t limit) {
  const std::set<std::string> query = Words(text);
  std::vector<std::pair<double, const KnownMessage*>> scored;
  if (query.empty()) return {};
  for (const KnownMessage& m : KnowledgeBase()) {
    std::string blob(m.title);
    for (std::string_view p : m.patterns) (blob += ' ') += p;
    for (std::string_view e : m.examples) (blob += ' ') += e;
    const std::set<std::string> words = Words(blob);
    size_t shared = 0;
    for (const std::string& w : query) shared += words.count(w);
    if (shared == 0) continue;
    // Share of the query's words found, lightly preferring compact entries.
    double score = static_cast<double>(shared) / static_cast<double>(query.size()) +
                   0.01 * static_cast<double>(shared) / static_cast<double>(words.size());
    scored.emplace_back(score, &m);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const KnownMessage*> out;
  for (const auto& [score, m] : scored) {
    if (out.size() >= limit) break;
    out.push_back(m);
  }
  return out;
}

}  // namespace ncclscope
