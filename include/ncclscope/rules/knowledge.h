// Knowledge: what each NCCL (and aws-ofi-nccl, PyTorch) message means, in one table that both
// the rules and `ncclscope explain` read. An entry names the message family, the rule that
// reports it, a calibrated severity, the meaning in plain words, the likely causes in order, the
// fix and the NCCL versions that print it, with real example lines.
//
// Patterns are case-insensitive fragments separated by '*' ("any text"), matched anywhere in the
// text in order: "connect to * failed * Connection refused". They match the message families
// across NCCL versions (docs: ../shared/docs/nccl-log-formats.md), not one line.
#ifndef NCCLSCOPE_RULES_KNOWLEDGE_H_
#define NCCLSCOPE_RULES_KNOWLEDGE_H_

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/rules/finding.h"

namespace ncclscope {

/// For connection failures: which of the three stories the message tells.
enum class FailureSide : uint8_t {
  kNone,           ///< Not a connection failure, or the message alone does not say.
  kPeerDied,       ///< The process at the other end exited, crashed or was killed.
  kNetworkPath,    ///< The address or route is wrong: interface, firewall, routing.
  kSidesDisagree,  ///< Both ends run, but speak differently: versions, settings, stale ids.
};

/// "peer died", "network path", "sides disagree", "" for kNone.
std::string_view FailureSideName(FailureSide side);

/// Rule id of messages that are known and harmless: explained, never reported.
inline constexpr std::string_view kBenignRule = "";

struct KnownMessage {
  std::string_view id;      ///< Stable key: "conn-closed-by-peer".
  std::string_view family;  ///< testdata/real-world family: "connection", "ib", "gdr", ...
  std::string_view rule;    ///< Rule that reports it; kBenignRule for known-harmless messages.
  Severity severity = Severity::kWarning;  ///< When the message appears; rules may refine.
  FailureSide side = FailureSide::kNone;
  std::array<std::string_view, 6> patterns{};  ///< Any one matching is enough; empty = unused.
  /// When set, the WARN location (or, for a pasted line, the text) must contain it
  /// ("nvls.cc": the same CUDA error means something else there).
  std::string_view location;
  std::string_view title;    ///< One line, the finding's title.
  std::string_view meaning;  ///< Plain words: what happened.
  std::array<std::string_view, 4> causes{};  ///< Likely causes, most likely first.
  std::string_view fix;
  std::string_view versions;                   ///< "2.16.2+", "aws-ofi-nccl 1.14.1+", ...
  std::array<std::string_view, 3> examples{};  ///< Real lines, or NCCL's format string.
  /// A generic wrapper ("Call to recv failed", "Cuda failure"): it explains a text only when no
  /// specific entry does, whatever the pattern lengths.
  bool fallback = false;
};

/// Every entry, grouped by family.
std::span<const KnownMessage> KnowledgeBase();
/// The entry with this id, or nullptr.
const KnownMessage* FindKnownMessage(std::string_view id);
/// The entries a rule reports, in table order.
std::vector<const KnownMessage*> KnownMessagesOfRule(std::string_view rule);

/// How well `pattern` matches `text`: the number of literal characters matched, 0 if not.
size_t PatternScore(std::string_view pattern, std::string_view text);

/// The entry that best explains `text` (the longest matching pattern; table order on ties), or
/// nullptr. `location` is the WARN's file:line when known; empty means: look in `text`.
const KnownMessage* MatchMessage(std::string_view text, std::string_view location = {});

/// Every entry matching `text`, the best one per rule, best first: for lines that hold several
/// messages (a framework error line that quotes NCCL's last WARN, a paste with lost newlines).
std::vector<const KnownMessage*> MatchAllMessages(std::string_view text);

/// Details a message states itself, pulled out for findings and `explain`.
struct MessageDetails {
  std::string peer;         ///< "10.0.0.5<43651>" / "node-3<59203>": the other end, as printed.
  std::string peer_host;    ///< The peer without its port ("10.0.0.5", "node-3").
  std::string device;       ///< "mlx5_0", "mlx5_0:1", "efa0", "/dev/shm/nccl-XXXX".
  int ib_status = -1;       ///< ibv_wc_status code of an IB completion error.
  long vendor_error = -1;   ///< The NIC's vendor syndrome ("vendor err 129").
  std::string os_error;     ///< "Connection refused", "No space left on device (28)".
  std::string cuda_error;   ///< Text inside "Cuda failure '...'".
  std::string setting;      ///< An NCCL_* name the message names.
};
MessageDetails ExtractDetails(std::string_view text);

/// ibv_wc_status name ("IBV_WC_RETRY_EXC_ERR") and meaning in plain words; empty when unknown.
std::string_view IbvStatusName(int status);
std::string_view IbvStatusMeaning(int status);

/// The known messages closest to an unknown text (token overlap with patterns, titles and
/// examples), best first, at most `limit`; entries sharing no meaningful word are left out.
std::vector<const KnownMessage*> ClosestKnownMessages(std::string_view text, size_t limit);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_KNOWLEDGE_H_
