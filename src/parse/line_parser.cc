// LineParser: prefix recognition and body dispatch. The hot bodies (connections, COLL lines) are
// tried first after a one-byte prefilter; every other family parser rejects a foreign body within
// its first few bytes, so a line costs a handful of memcmp calls before it is classified.
#include "ncclscope/parse/line_parser.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "body_parsers.h"
#include "horovod_stall_parser.h"
#include "ncclscope/base/ascii.h"
#include "ncclscope/base/byte_words.h"
#include "ncclscope/parse/nccl_locator.h"
#include "prefix_cache.h"
#include "text_cursor.h"

namespace ncclscope {

using parse_internal::CppWhatText;
using parse_internal::IsLastErrorLine;
using parse_internal::IsSanityCheckOutput;
using parse_internal::IsTestRunnerLine;
using parse_internal::IsTorchLogLine;
using parse_internal::IsTorchOptionLine;
using parse_internal::StartsWith;

struct LineParser::State {
  /// PyTorch's "Last error:" was read: its detail is the next line of the same process.
  bool last_error_pending = false;
  /// Only implied: the line before was PyTorch's `ncclRemoteError: ...` without the
  /// "Last error:" that always follows it (Ray's dedup drops that line when several workers
  /// print it): the detail is taken only if it starts like NCCL's warning text
  /// (LooksLikeLastErrorText).
  bool last_error_implied = false;
  /// What preceded "Last error:" on that line (a logger's head: vLLM's `ERROR 04-07 00:57:46
  /// ray_utils.py:45] `); the detail line starts with the same head.
  std::string last_error_head;
  /// Who printed "Last error:", as the launcher's and collector's prefixes say. Where several
  /// workers' output is interleaved (`(VllmWorkerProcess pid=3985) ...`), lines of the others
  /// may come between it and its detail.
  struct Origin {
    uint32_t source = 0;
    int launcher_rank = -1;
    uint32_t pid = 0;
    std::string host;
    std::string pod;

    void Set(const Line& line) {
      source = line.source;
      launcher_rank = line.meta.launcher_rank;
      pid = line.meta.origin_pid;
      host.assign(line.meta.origin_host);
      pod.assign(line.meta.pod);
    }
    /// True when the prefixes show that `line` came from another process (a prefix missing on
    /// either line proves nothing).
    bool Other(const Line& line) const {
      const LineMeta& m = line.meta;
      return line.source != source ||
             (launcher_rank >= 0 && m.launcher_rank >= 0 && m.launcher_rank != launcher_rank) ||
             (pid != 0 && m.origin_pid != 0 && m.origin_pid != pid) ||
             (!host.empty() && !m.origin_host.empty() && m.origin_host != host) ||
             (!pod.empty() && !m.pod.empty() && m.pod != pod);
    }
  };
  Origin last_error_origin;
  /// Lines of other processes still allowed before the detail; then "Last error:" is dropped.
  static constexpr int kLastErrorWait = 16;
  int last_error_wait = 0;
  /// Horovod's "Stalled ranks:" was read: its rank lines follow (blank lines of a collector
  /// that double-spaces may come between them); 0 when not in such a report.
  static constexpr int kStallReportWait = 4;
  int stall_report_wait = 0;
  parse_internal::PrefixCache prefixes;
  /// A message cut before its text ended (an empty body, or a connection line ending in "via"):
  /// interleaved output of another process or a terminal wrap moved the rest to a later line.
  std::string cut;
  uint32_t cut_source = 0;
  uint64_t cut_line = 0;
  std::string joined;    ///< cut + its continuation: the text of the joined event.
  /// The last Python traceback frame line (`  File "x.py", line 257, in f`): the indented line
  /// right after it is the frame's source code.
  uint32_t frame_source = 0;
  uint64_t frame_line = 0;
  /// A PyTorch watchdog line a paste wrapped before its end (IsCutWatchdogText), and where.
  std::string torch_cut;
  uint32_t torch_cut_source = 0;
  uint64_t torch_cut_line = 0;
  int torch_cut_pieces = 0;  ///< Lines joined into torch_cut so far (a wrap over several lines).
  std::string unlinked;  ///< A body with its markdown autolinks removed.
  /// Host names of earlier heads (a few): where two messages are glued, the second head's host
  /// runs into the first message's text (`...via P2P/CUMEMvm:12:13 [1] NCCL INFO`), and a known
  /// host that ends the run marks where the head really starts.
  std::vector<std::string> hosts;
  std::string last_host;

  void NoteHost(std::string_view host) {
    if (host.empty() || host == last_host) return;
    last_host.assign(host);
    if (hosts.size() < 64 && std::find(hosts.begin(), hosts.end(), host) == hosts.end())
      hosts.emplace_back(host);
  }
  /// `head` is where a glued head was found in `text`: moved forward past the longest text that
  /// precedes a known host within the head's host token.
  size_t RefineGluedHead(std::string_view text, size_t head) const {
    const size_t colon = text.find(':', head);
    if (colon == std::string_view::npos) return head;
    const std::string_view token = text.substr(head, colon - head);
    if (token.find(' ') != std::string_view::npos) return head;  // not a host: a version line
    size_t best = 0;
    for (const auto& h : hosts) {
      if (h.size() < token.size() && h.size() > best &&
          token.substr(token.size() - h.size()) == h) {
        best = h.size();
      }
    }
    return best == 0 ? head : head + token.size() - best;
  }
};

namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

// WARN bodies: the plugin/OFI messages the contract gives their own event; else a Warning.
void DispatchWarn(std::string_view body, EventData* data) {
  if (StartsWith(body, "NET/OFI ")) {
    parse_internal::ParseOfi(body, data);
    if (std::get<OfiEvent>(*data).kind != OfiKind::kOther) return;
  } else if (StartsWith(body, "Failed to initialize any ") &&
             parse_internal::ParseNet(body, data)) {
    return;
  }
  *data = Warning{parse_internal::ClassifyWarning(body), body};
}

// Cheap facts about a body's first token that decide which family parsers can accept it. Every
// family parser rejects a foreign body by itself; these gates only skip the calls that would
// reject anyway, so the outcome equals trying them all in order (tests compare both over the
// corpus), at a fraction of the cost for the noise lines that reach the end of the chain.
struct BodyShape {
  char first = 0;
  std::string_view after_token;  ///< Text from the first space on ("" when none).
  bool token_ends_in_digit = false;
  bool token_ends_in_colon = false;
};

/// A '/' within the first 20 bytes (plugin names "X/Plugin").
bool SlashInHead(std::string_view body) {
  const size_t head = body.size() < 20 ? body.size() : 20;
  return byte_words::FindByte(body.data(), head, '/') < head;
}

BodyShape ShapeOf(std::string_view body) {
  BodyShape s;
  s.first = body.front();
  const size_t sp = byte_words::FindByte(body.data(), body.size(), ' ');
  s.after_token = body.substr(sp);
  s.token_ends_in_digit = sp > 0 && parse_internal::IsDigit(body[sp - 1]);
  s.token_ends_in_colon = sp > 0 && body[sp - 1] == ':';
  return s;
}

// ParseNet's families: its own first-byte switch, plus "X/Plugin" names in the head.
bool MayBeNet(std::string_view body, const BodyShape& s) {
  switch (s.first) {
    case 'B':
    case 'U':
    case 'G':
    case 'I':
    case 'F':
    case 'A':
    case 'S':
    case 'N':
      return true;
    default:
      return SlashInHead(body);
  }
}

}  // namespace

// INFO/TRACE/CALL bodies.
void parse_internal::DispatchInfo(std::string_view body, Level level, EventData* data,
                                  bool exclusive_noise) {
  if (body.empty()) {
    *data = Unrecognized{body};
    return;
  }
  // The proxy-thread chatter of NCCL_DEBUG_SUBSYS=ALL: prefixes no family parser accepts.
  if (exclusive_noise) {
    if (std::string_view family = ExclusiveNoiseFamily(body); !family.empty()) {
      *data = KnownNoise{family};
      return;
    }
  }
  const char first = body.front();
  const BodyShape shape = ShapeOf(body);
  // Hot path: connection lines and COLL lines ("<Op>: ...": the first token ends in ':').
  if (first == 'C' || first == 'R') {
    if (ParseConnection(body, data)) return;
  }
  if (IsUpper(first) && shape.token_ends_in_colon && ParseCollective(body, data)) return;
  // 2.27+ symmetric-kernel TUNING lines: "AllReduce [Symmetric]: N Bytes -> Kernel ...".
  if (IsUpper(first) && body.substr(0, 40).find(" [Symmetric]: ") != std::string_view::npos &&
      ParseCollective(body, data)) {
    return;
  }
  if (IsDigit(first) && (ParseBareNetConnection(body, data) || ParseNumericTuning(body, data)))
    return;
  switch (first) {
    case 'C':
      if (ParseRingOrder(body, data)) return;
      break;
    case '[':
      if (ParseProxyPeerClosed(body, data)) return;
      break;
    case 'R':
      if (ParseGraphRing(body, data) || ParseRingOrder(body, data)) return;
      break;
    case 'N':
      if (ParseVersion(body, data)) return;
      break;
    default:
      break;
  }
  // ParseEnv: "cudaDriverVersion N", "Comm config X set to V", "NAME set [by environment] to V".
  const bool may_be_env =
      first == 'c' || first == 'C' || StartsWith(shape.after_token, " set ");
  if ((may_be_env && ParseEnv(body, data)) || ParseComm(body, data) ||
      (MayBeNet(body, shape) && ParseNet(body, data)) || ParseGraph(body, data) ||
      (shape.token_ends_in_digit && ParseErrorTrail(body, data))) {
    return;
  }
  if (IsDowngradedFailure(body)) {
    *data = Warning{ClassifyWarning(body), body};
    return;
  }
  if (ParseNotice(body, data)) return;
  std::string_view family = NoiseFamily(body);
  if (!family.empty()) {
    *data = KnownNoise{family};
  } else if (level == Level::kTrace) {
    *data = KnownNoise{"trace"};
  } else if (level == Level::kCall) {
    *data = KnownNoise{"call"};
  } else {
    *data = Unrecognized{body};
  }
}

LineParser::LineParser() : state_(std::make_unique<State>()) {}
LineParser::~LineParser() = default;

namespace {

/// Resets every context field for a new message of `line` whose text is `text`.
void ResetContext(const Line& line, std::string_view text, EventContext* ctx) {
  *ctx = EventContext{};
  ctx->source = line.source;
  ctx->line = line.number;
  ctx->text = text;
  ctx->body = text;
  ctx->meta = &line.meta;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// True if `text` holds "NCCL" (a mention of NCCL: counted even when nothing understood it).
bool MentionsNccl(std::string_view text) {
  return text.size() >= 4 && text.find("NCCL") != std::string_view::npos;
}

}  // namespace


namespace {

/// IsCut for a body nothing recognised: an Init line (`comm 0x.. rank 2 nranks 4 ... commId
/// 0x..`) that lost its ` - Init START` to a terminal wrap.
bool IsCutUnrecognized(std::string_view b) {
  const size_t comm = b.find("comm 0x");
  return comm != std::string_view::npos && comm < 40 && b.find(" nranks ") != std::string_view::npos &&
         b.find(" - ") == std::string_view::npos;
}

/// A message whose text went on elsewhere: nothing after the level, a connection line that
/// stops at "via", or a cut Init line. Inline: asked for every message; only the rare
/// unrecognised body takes the search.
inline bool IsCut(const EventContext& ctx, const EventData& data) {
  const std::string_view b = ctx.body;
  if (b.empty() || (b.size() > 4 && std::memcmp(b.data() + b.size() - 4, " via", 4) == 0))
    return true;
  return std::holds_alternative<Unrecognized>(data) && IsCutUnrecognized(b);
}

/// Whether "NCCL" at `at` starts a name: not the tail of a longer one (`TORCH_NCCL_ASYNC_...`,
/// PyTorch's own settings).
bool StartsName(std::string_view text, size_t at) {
  return at == 0 || !ascii::IsWordChar(text[at - 1]);
}

/// A line whose every "NCCL" starts an environment assignment (`NCCL_DEBUG=INFO`): a shell
/// command, `env` output, a launcher echoing its environment.
bool OnlyAssignsNcclVariables(std::string_view text) {
  size_t at = text.find("NCCL");
  if (at == std::string_view::npos) return false;
  for (; at != std::string_view::npos; at = text.find("NCCL", at + 4)) {
    // PyTorch's TORCH_NCCL_* settings are assignments too (not NCCL's: NextNcclAssignment
    // skips them).
    const bool torch = at >= 6 && text.substr(at - 6, 6) == "TORCH_" && StartsName(text, at - 6);
    if (!StartsName(text, at) && !torch) return false;
    size_t k = at + 4;
    if (k >= text.size() || text[k] != '_') return false;
    while (k < text.size() && ((text[k] >= 'A' && text[k] <= 'Z') || text[k] == '_' ||
                               (text[k] >= '0' && text[k] <= '9'))) {
      ++k;
    }
    if (k < text.size() && text[k] == '=') continue;
    // A key of a Python dict or JSON object (`{'NCCL_DEBUG': 'INFO', ...}`: Ray's runtime_env,
    // an os.environ dump): quoted on both sides, then a colon.
    const size_t name = torch ? at - 6 : at;
    const char quote = name > 0 ? text[name - 1] : '\0';
    if ((quote != '\'' && quote != '"') || k + 1 >= text.size() || text[k] != quote ||
        text[k + 1] != ':') {
      return false;
    }
  }
  return true;
}

/// The next `NCCL_NAME=value` assignment with a value in `*text` (the value unquoted, up to a
/// blank; `NCCL_X=` unsets and is skipped); advances *text past it. False when there is none.
bool NextNcclAssignment(std::string_view* text, EnvSetting* out) {
  for (;;) {
    const size_t at = text->find("NCCL_");
    if (at == std::string_view::npos) return false;
    if (!StartsName(*text, at)) {  // TORCH_NCCL_...: not NCCL's variable
      text->remove_prefix(at + 5);
      continue;
    }
    // The name's end: '=' of an assignment, or the closing quote and ':' of a dict key.
    size_t eq = at + 5;
    while (eq < text->size() && (ascii::IsWordChar((*text)[eq]))) ++eq;
    if (eq >= text->size()) return false;
    const bool key = ((*text)[eq] == '\'' || (*text)[eq] == '"') && eq + 1 < text->size() &&
                     (*text)[eq + 1] == ':';
    if ((*text)[eq] != '=' && !key) {
      text->remove_prefix(eq);
      continue;
    }
    out->name = text->substr(at, eq - at);
    size_t k = eq + 1;
    if (key) {
      k = eq + 2;
      while (k < text->size() && (*text)[k] == ' ') ++k;
    }
    size_t end;
    if (k < text->size() && ((*text)[k] == '\'' || (*text)[k] == '"')) {
      const size_t close = text->find((*text)[k], k + 1);
      end = close == std::string_view::npos ? text->size() : close;
      out->value = text->substr(k + 1, end - k - 1);
      if (end < text->size()) ++end;
    } else {
      end = text->find_first_of(key ? " \t;,}" : " \t;", k);
      if (end == std::string_view::npos) end = text->size();
      out->value = text->substr(k, end - k);
    }
    text->remove_prefix(end);
    if (out->value.empty()) continue;
    out->by_environment = true;
    out->command_line = true;
    return true;
  }
}

/// Markdown autolinks a renderer put into a pasted line: `transport/[net.cc:1137](http://...)` →
/// `transport/net.cc:1137`. Returns false when there is none.
bool Unlink(std::string_view s, std::string* out) {
  if (s.find("](http") == std::string_view::npos) return false;
  out->clear();
  size_t i = 0;
  while (i < s.size()) {
    const size_t open = s.find('[', i);
    if (open == std::string_view::npos) break;
    const size_t mid = s.find("](http", open);
    const size_t close = mid == std::string_view::npos ? mid : s.find(')', mid);
    if (mid == std::string_view::npos || close == std::string_view::npos ||
        s.substr(open + 1, mid - open - 1).find(' ') != std::string_view::npos) {
      out->append(s.substr(i, open + 1 - i));
      i = open + 1;
      continue;
    }
    out->append(s.substr(i, open - i));
    out->append(s.substr(open + 1, mid - open - 1));
    i = close + 1;
  }
  out->append(s.substr(i < s.size() ? i : s.size()));
  return true;
}

constexpr uint64_t kMaxCutDistance = 8;  // Lines between a cut message and its continuation.
constexpr uint64_t kMaxTorchCutDistance = 2;  // The same for a wrapped PyTorch watchdog line.

/// Starts like the text of an NCCL warning that PyTorch prints after "Last error:" (its
/// transport's message, a CUDA or system call that failed): "NET/IB : Got completion from peer
/// ...", "Cuda failure 'out of memory'", "Call to connect returned Connection refused".
bool LooksLikeLastErrorText(std::string_view t) {
  for (std::string_view stem : {"NET/", "Cuda failure", "Call to ", "Connect to ", "Connection ",
                                "socket", "Socket", "Proxy", "Bootstrap", "NVLS", "Message "}) {
    if (StartsWith(t, stem)) return true;
  }
  return false;
}

/// A PyTorch watchdog message that ends before its text does (a paste or terminal wrapped it):
/// the timeout without the `) ran for N milliseconds` that closes its WorkNCCL(...), or the
/// watchdog's exception line without its `last completed NCCL work: N`.
bool IsCutWatchdogText(std::string_view t) {
  if (t.find("Watchdog caught collective operation timeout") != std::string_view::npos)
    return t.find(") ran for ") == std::string_view::npos;
  if (t.find("Exception (either an error or timeout)") != std::string_view::npos ||
      t.find("failure detected by watchdog at work sequence id") != std::string_view::npos)
    return t.find("last completed ") == std::string_view::npos;
  return false;
}

/// Lines one wrapped watchdog message may span before its end (a paste re-wrapped by hand puts
/// WorkNCCL's fields on two or three lines of their own).
constexpr int kMaxTorchCutPieces = 4;

/// How many of a watchdog message's fields a parse found: a continuation that finds more than
/// the text before it belongs to it.
int WatchdogFieldsFound(const EventData& d) {
  if (const auto* w = std::get_if<WatchdogTimeout>(&d)) {
    return (w->seq >= 0) + !w->op_type.empty() + (w->numel_in >= 0) + (w->numel_out >= 0) +
           (w->timeout_ms >= 0) + (w->ran_ms >= 0);
  }
  if (const auto* p = std::get_if<WorkProgress>(&d)) {
    return (p->failed_seq >= 0) + (p->last_enqueued >= 0) + (p->last_completed >= 0);
  }
  return 0;
}

/// How much of what the cut line lacked the joined text says: 0 when it is not a whole
/// message (a timeout needs its SeqNum and duration, progress its last completed work); more for
/// each field read (a join with the wrong blank loses `OpTy` + `pe=...`).
int WatchdogCompleteness(const EventData& d) {
  if (const auto* w = std::get_if<WatchdogTimeout>(&d)) {
    if (w->seq < 0 || w->ran_ms < 0) return 0;
    return 1 + (w->op_type.empty() ? 0 : 1) + (w->numel_in >= 0 ? 1 : 0);
  }
  if (const auto* p = std::get_if<WorkProgress>(&d)) return p->last_completed >= 0 ? 1 : 0;
  return 0;
}

/// ParseFramework from each of the first '[' of `text` after its start: a framework line behind
/// a prefix nobody planned for.
bool ParseFrameworkBehindPrefix(const Line& line, std::string_view text, EventContext* ctx,
                                EventData* data) {
  for (size_t at = text.find('['), tries = 0; at != std::string_view::npos && at > 0 && tries < 4;
       at = text.find('[', at + 1), ++tries) {
    ResetContext(line, text, ctx);
    if (parse_internal::ParseFramework(text.substr(at), ctx, data)) {
      ctx->text = text;
      return true;
    }
  }
  return false;
}

/// A watchdog or other framework line, at its start or behind a prefix nobody planned for.
bool ParseTorchText(const Line& line, std::string_view text, Event* event) {
  ResetContext(line, text, &event->ctx);
  return parse_internal::ParseFramework(text, &event->ctx, &event->data) ||
         ParseFrameworkBehindPrefix(line, text, &event->ctx, &event->data);
}

}  // namespace

inline void LineParser::Dispatch(Event* event) {
  EventContext& ctx = event->ctx;
  if (ctx.level == Level::kWarn) {
    DispatchWarn(ctx.body, &event->data);
    return;
  }
  parse_internal::DispatchInfo(ctx.body, ctx.level, &event->data);
  if (std::holds_alternative<Unrecognized>(event->data)) DispatchAgain(event);
}

void LineParser::DispatchAgain(Event* event) {
  EventContext& ctx = event->ctx;
  if (Unlink(ctx.body, &state_->unlinked)) {  // a paste rendered by a markdown viewer
    ctx.body = state_->unlinked;
    parse_internal::DispatchInfo(ctx.body, ctx.level, &event->data);
  }
  if (ctx.attention && std::holds_alternative<Unrecognized>(event->data)) {
    ctx.level = Level::kWarn;
    DispatchWarn(ctx.body, &event->data);
  }
}

void LineParser::NoteCut(std::string_view message, Event* event) {
  state_->cut.assign(message);
  state_->cut_source = event->ctx.source;
  state_->cut_line = event->ctx.line;
  event->data = KnownNoise{"cut"};
}

bool LineParser::ParseContinuation(const Line& line, Event* event) {
  if (state_->cut.empty()) return false;
  const std::string_view text = parse_internal::Trim(line.text);
  if (line.source != state_->cut_source || line.number > state_->cut_line + kMaxCutDistance ||
      text.empty()) {
    return false;
  }
  std::string& joined = state_->joined;
  joined = state_->cut;
  if (joined.back() != ' ') joined += ' ';
  joined += text;
  Event candidate;
  ResetContext(line, joined, &candidate.ctx);
  rest_ = {};
  if (!ParseMessage(line, joined, &candidate) ||
      std::holds_alternative<Unrecognized>(candidate.data) ||
      std::holds_alternative<KnownNoise>(candidate.data)) {
    rest_ = {};
    return false;
  }
  state_->cut.clear();
  *event = candidate;
  return true;
}

namespace {

/// aws-ofi-nccl before 1.6 logged through its own printf when NCCL's logger was not there (its
/// tests, early init): `INFO: Function: ofi_init Line: 1076: NET/OFI ...`,
/// `WARN: Function: main Line: 66: NET/OFI ...`. Returns the level, or kNone.
Level OfiPrintfLevel(std::string_view text, std::string_view* body) {
  Level level;
  if (StartsWith(text, "INFO: Function: ")) {
    level = Level::kInfo;
  } else if (StartsWith(text, "WARN: Function: ")) {
    level = Level::kWarn;
  } else {
    return Level::kNone;
  }
  const size_t ofi = text.find("NET/OFI ");
  if (ofi == std::string_view::npos) return Level::kNone;
  *body = TrimRight(text.substr(ofi));
  return level;
}

}  // namespace

bool LineParser::ParseTorchContinuation(const Line& line, Event* event) {
  if (state_->torch_cut.empty()) return false;
  const std::string_view text = parse_internal::Trim(line.text);
  if (line.source != state_->torch_cut_source ||
      line.number > state_->torch_cut_line + kMaxTorchCutDistance) {
    state_->torch_cut.clear();
    return false;
  }
  if (text.empty()) return false;
  // A line of its own (another rank's message) ends the wait.
  if (IsTorchLogLine(text) || StartsWith(text, "[rank") ||
      text.find("ProcessGroupNCCL.cpp:") != std::string_view::npos) {
    state_->torch_cut.clear();
    return false;
  }
  // A wrap at a blank keeps it at the end of the first line, or drops it; a wrap inside a word
  // (`OpTy` / `pe=BROADCAST`) drops nothing. The join that reads more wins (with a blank on a
  // tie).
  const std::string cut = std::move(state_->torch_cut);
  state_->torch_cut.clear();
  auto join = [&](bool blank, std::string* out) {
    *out = cut;
    if (blank && out->back() != ' ') *out += ' ';
    *out += text;
  };
  int best = 0;
  bool best_blank = true;
  int blank_fields = 0;  ///< Fields the join with a blank read.
  for (const bool blank : {true, false}) {
    if (!blank && cut.back() == ' ') continue;
    join(blank, &state_->joined);
    Event candidate;
    if (ParseTorchText(line, state_->joined, &candidate)) {
      const int score = WatchdogCompleteness(candidate.data);
      if (score > best) {
        best = score;
        best_blank = blank;
      }
      if (blank) blank_fields = WatchdogFieldsFound(candidate.data);
    }
  }
  if (best == 0) {
    // Still not whole (a message wrapped over several lines): when this line added fields to
    // the message, it is a piece of it; keep the joined text for the next line.
    if (state_->torch_cut_pieces + 1 >= kMaxTorchCutPieces) return false;
    std::string joined;
    join(true, &joined);
    if (!IsCutWatchdogText(joined)) return false;
    Event before;
    ParseTorchText(line, cut, &before);
    if (blank_fields <= WatchdogFieldsFound(before.data)) return false;
    state_->torch_cut = std::move(joined);
    state_->torch_cut_line = line.number;
    ++state_->torch_cut_pieces;
    ResetContext(line, line.text, &event->ctx);
    event->ctx.level = Level::kTorch;
    event->data = KnownNoise{"cut"};
    return true;
  }
  // Parsed again: the event's views point into `joined`, which the other join overwrote.
  std::string& joined = state_->joined;
  join(best_blank, &joined);
  ParseTorchText(line, joined, event);
  event->ctx.text = joined;
  return true;
}

namespace {

/// Where a progress bar glued to the end of an NCCL line starts, or npos: another process's
/// tqdm bar drawn with carriage returns, pasted as one line ("... cudaDriverVersion 12020" then
/// blanks and "| 0/100 [00:00<?, ?it/s]"). It ends in tqdm's rate and follows a run of blanks.
size_t ProgressBarStart(std::string_view text, size_t body) {
  if (text.size() < 16 || text.back() != ']' ||
      !(text.ends_with("it/s]") || text.ends_with("s/it]"))) {
    return std::string_view::npos;
  }
  const size_t bar = text.rfind('|');
  if (bar == std::string_view::npos || bar < body) return std::string_view::npos;
  const size_t blanks = text.find("        ", body);
  return blanks != std::string_view::npos && blanks < bar ? blanks : std::string_view::npos;
}

}  // namespace

bool LineParser::ParseMessage(const Line& line, std::string_view text, Event* event) {
  EventContext& ctx = event->ctx;
  // The common case: NCCL's head at the start (after the known prefixes were stripped).
  bool head = state_->prefixes.Lookup(text, &ctx);
  if (!head && !text.empty() && parse_internal::ParseNcclPrefix(text, &ctx)) {
    state_->prefixes.Remember(text, &ctx);
    state_->NoteHost(ctx.host);  // A cached head's host was noted when it was remembered.
    head = true;
  }
  if (head) {
    const size_t body = static_cast<size_t>(ctx.body.data() - text.data());
    // The head ends in "NCCL INFO " (or WARN...): if that is the line's one "NC", nothing can be
    // glued after it. (NCCL <= 2.2 heads have no "NCCL": they take the search.)
    const bool single = line.nc_at_most_once && body >= 10 &&
                        std::memcmp(text.data() + body - 10, "NCCL ", 5) == 0 &&
                        text.data() >= line.text.data() &&
                        text.data() + text.size() <= line.text.data() + line.text.size();
    size_t end = single ? text.size() : GluedMessageEnd(text, body);
    if (end < text.size()) end = state_->RefineGluedHead(text, end);
    if (end < text.size()) {
      ctx.body = TrimRight(text.substr(body, end - body));
      ctx.text = text.substr(0, end);
      rest_ = text.substr(end);
    } else if (const size_t bar = ProgressBarStart(text, body); bar != std::string_view::npos) {
      ctx.body = TrimRight(text.substr(body, bar - body));  // the bar is no part of the message
    }
    Dispatch(event);
    if (IsCut(ctx, event->data)) NoteCut(ctx.text, event);
    return true;
  }
  // Anywhere else in the line: behind a prefix nobody planned for, or without a head.
  NcclSpan span;
  if (!LocateNcclMessage(text, 0, &span)) return false;
  if (span.end < text.size()) span.end = state_->RefineGluedHead(text, span.end);
  const std::string_view message = text.substr(span.head, span.end - span.head);
  if (span.kind == AnchorKind::kVersion) {
    ResetContext(line, text.substr(0, span.end), &ctx);
    ctx.body = TrimRight(text.substr(span.anchor, span.end - span.anchor));
    if (!parse_internal::ParseVersion(ctx.body, &event->data)) return false;
    ctx.level = Level::kVersion;
  } else {
    ResetContext(line, text.substr(0, span.end), &ctx);
    bool parsed = !span.headless && parse_internal::ParseNcclPrefix(message, &ctx);
    if (parsed) state_->NoteHost(ctx.host);
    if (!parsed) {  // no head, or one that is not NCCL's (a masked pid): read it headless
      ResetContext(line, text.substr(0, span.end), &ctx);
      ctx.headless = true;
      const size_t start = span.headless ? span.head : HeadlessStart(text, span.anchor);
      if (!parse_internal::ParseDevAndLevel(text.substr(start, span.end - start), &ctx))
        return false;
    }
    ctx.body = TrimRight(ctx.body);
    Dispatch(event);
    if (IsCut(ctx, event->data)) NoteCut(message, event);
  }
  if (span.end < text.size()) rest_ = text.substr(span.end);
  return true;
}

ParseOutcome LineParser::Parse(const Line& line, Event* event) {
  EventContext& ctx = event->ctx;
  std::string_view text = line.text;
  rest_ = {};
  assignments_ = {};
  line_ = &line;
  // Every field: the prefix parser sets host, pid, tid, dev, level and body on success.
  ctx.timestamp = {};
  ctx.location = {};
  ctx.function = {};
  ctx.torch_rank = -1;
  ctx.prefix_id = 0;
  ctx.headless = false;
  ctx.attention = false;
  ctx.source = line.source;
  ctx.line = line.number;
  ctx.text = text;
  ctx.meta = &line.meta;
  bool last_error = false;
  if (state_->last_error_pending) {
    if (!state_->last_error_origin.Other(line)) {
      last_error = true;
      state_->last_error_pending = false;
    } else if (--state_->last_error_wait <= 0) {
      state_->last_error_pending = false;
    }
  }

  if (ParseMessage(line, text, event)) return ParseOutcome::kEvent;
  // Not an NCCL message: the rest of a cut one, or else reset whatever the parsers filled.
  if (ParseContinuation(line, event)) return ParseOutcome::kEvent;
  ResetContext(line, text, &ctx);
  if (ParseTorchContinuation(line, event)) return ParseOutcome::kEvent;
  ResetContext(line, text, &ctx);

  std::string_view trimmed = parse_internal::Trim(text);
  // A watchdog line a paste wrapped: its next line may complete it (ParseTorchContinuation).
  const bool torch_cut = IsCutWatchdogText(trimmed);
  if (torch_cut) {
    state_->torch_cut.assign(trimmed);
    state_->torch_cut_source = line.source;
    state_->torch_cut_line = line.number;
    state_->torch_cut_pieces = 0;
  }
  if (last_error && !trimmed.empty()) {
    // PyTorch "Last error:\n<last NCCL WARN body>": the body of NCCL's last warning (after the
    // logger head the "Last error:" line had, if any).
    std::string_view detail = trimmed;
    const std::string& head = state_->last_error_head;
    if (!head.empty() && StartsWith(detail, head)) detail = parse_internal::Trim(detail.substr(head.size()));
    if (!detail.empty() && (!state_->last_error_implied || LooksLikeLastErrorText(detail))) {
      ctx.level = Level::kTorch;
      ctx.body = detail;
      event->data = Warning{parse_internal::ClassifyWarning(detail), detail};
      return ParseOutcome::kEvent;
    }
  }
  // Horovod's stall report (0.19+): "Stalled ranks:", then "1: [HorovodAllreduce_...]" per rank.
  if (state_->stall_report_wait > 0 || StartsWith(trimmed, "[Horovod")) {
    if (trimmed.empty()) {
      --state_->stall_report_wait;
    } else if (parse_internal::ParseHorovodStalledRank(trimmed, &event->data) ||
               parse_internal::ParseHorovodLabelledRank(trimmed, line.meta.launcher_rank,
                                                        &event->data)) {
      state_->stall_report_wait = State::kStallReportWait;
      ctx.level = Level::kTorch;
      ctx.body = trimmed;
      return ParseOutcome::kEvent;
    } else {
      state_->stall_report_wait = 0;
    }
  }
  if (parse_internal::IsHorovodStallHeader(trimmed)) {
    state_->stall_report_wait = State::kStallReportWait;
    return ParseOutcome::kNotNccl;
  }
  if (std::string_view head; IsLastErrorLine(trimmed, &head)) {
    state_->last_error_pending = true;
    state_->last_error_implied = false;
    state_->last_error_head.assign(head);
    state_->last_error_origin.Set(line);
    state_->last_error_wait = State::kLastErrorWait;
    return ParseOutcome::kNotNccl;
  }
  if (parse_internal::ParseFramework(text, &ctx, &event->data)) {
    if (const auto* fe = std::get_if<FrameworkEvent>(&event->data);
        fe != nullptr && fe->kind == FrameworkKind::kNcclErrorDetail) {
      state_->last_error_pending = true;
      state_->last_error_implied = true;
      state_->last_error_head.clear();
      state_->last_error_origin.Set(line);
      state_->last_error_wait = State::kLastErrorWait;
    }
    if (const auto* tb = std::get_if<Traceback>(&event->data);
        tb != nullptr && tb->kind == TracebackKind::kFrame) {
      state_->frame_source = line.source;
      state_->frame_line = line.number;
    }
    return ParseOutcome::kEvent;
  }
  if (!trimmed.empty() && trimmed.front() == 'l' &&
      (parse_internal::ParseLibfabricLog(trimmed, &ctx, &event->data) ||
       parse_internal::ParseVerbsWarning(trimmed, &ctx, &event->data))) {
    return ParseOutcome::kEvent;
  }
  // An error trail pasted without NCCL's head (`transport/nvls.cc:401 -> 1` under a headless
  // `transport/nvls.cc:251 NCCL WARN ...`): an INFO line of NCCL's, whatever the paste lost.
  if (trimmed.size() >= 8 && trimmed.size() <= 200 && parse_internal::IsBareErrorTrail(trimmed) &&
      parse_internal::ParseErrorTrail(trimmed, &event->data)) {
    ctx.headless = true;
    ctx.level = Level::kInfo;
    ctx.body = trimmed;
    return ParseOutcome::kEvent;
  }
  // aws-ofi-nccl's own printf lines say "NET/OFI", not NCCL.
  if (std::string_view body; trimmed.size() > 16 && trimmed[4] == ':' &&
                             (ctx.level = OfiPrintfLevel(trimmed, &body)) != Level::kNone) {
    ctx.headless = true;
    ctx.body = body;
    Dispatch(event);
    return ParseOutcome::kEvent;
  }
  // A C++ exception's what() from a check in a file named for NCCL (PaddlePaddle's "what():
  // unhandled cuda error at [.../nccl_helper.h:70]") is read like one that names NCCL.
  if (!MentionsNccl(text) &&
      !(StartsWith(trimmed, "what():") && trimmed.find("nccl") != std::string_view::npos)) {
    return ParseOutcome::kNotNccl;
  }
  // An exception line pasted with a leading blank (` torch.distributed.DistBackendError: NCCL
  // error in: ...`): the framework parser takes indented text for traceback source, so it is
  // read again without the blanks when its first word names an exception.
  if (trimmed.size() < text.size()) {
    const std::string_view word = trimmed.substr(0, trimmed.find(' '));
    if (word.ends_with("Error:") || word.ends_with("Exception:")) {
      ResetContext(line, text, &ctx);
      if (parse_internal::ParseFramework(trimmed, &ctx, &event->data)) {
        ctx.text = text;
        return ParseOutcome::kEvent;
      }
    }
  }
  // A framework line behind a prefix nobody planned for: try again from each '['.
  if (ParseFrameworkBehindPrefix(line, text, &ctx, &event->data)) return ParseOutcome::kEvent;
  ResetContext(line, text, &ctx);
  if (torch_cut) {  // the first part of a wrapped watchdog line that parses to nothing alone
    ctx.level = Level::kTorch;
    event->data = KnownNoise{"cut"};
    return ParseOutcome::kEvent;
  }
  if (IsTorchLogLine(trimmed) || IsTorchOptionLine(trimmed)) {
    // PyTorch output no parser reads: known, carries nothing.
    ctx.level = Level::kTorch;
    event->data = KnownNoise{"torch"};
    return ParseOutcome::kEvent;
  }
  if (IsTestRunnerLine(trimmed)) {  // a test runner's line that names an NCCL test
    ctx.level = Level::kTorch;
    event->data = KnownNoise{"test"};
    return ParseOutcome::kEvent;
  }
  // What an uncaught C++ exception said, when no framework parser read it (an application's own
  // NCCL check: "what():  NCCL failure: unhandled cuda error in x.cu at line: 86 rank: 0").
  if (const std::string_view what = CppWhatText(trimmed); !what.empty()) {
    ctx.level = Level::kTorch;
    ctx.body = what;
    // PyTorch's watchdog thread dying of an NCCL error: "what():  NCCL error: unhandled system
    // error, NCCL version 2.10.3" (the terminate incident still takes the text).
    if (parse_internal::ParseNcclWhat(what, &event->data)) return ParseOutcome::kEvent;
    Traceback tb;
    tb.kind = TracebackKind::kCppWhat;
    tb.message = what;
    event->data = tb;
    return ParseOutcome::kEvent;
  }
  if (parse_internal::IsFrameworkNotice(trimmed)) {
    ctx.level = Level::kTorch;
    event->data = KnownNoise{"torch"};
    return ParseOutcome::kEvent;
  }
  if (IsSanityCheckOutput(trimmed)) {  // an application's "NCCL works" print: carries nothing
    event->data = KnownNoise{"sanity-check"};
    return ParseOutcome::kEvent;
  }
  if (std::string_view name, value; parse_internal::IsLauncherEnvLine(trimmed, &name, &value)) {
    // NCCL's own variables are settings of the workers; the image's package labels
    // (NV_LIBNCCL_*, NCCL_VERSION) carry nothing.
    if (name.starts_with("NCCL_") && name != "NCCL_VERSION") {
      ctx.body = trimmed;
      EnvSetting setting;
      setting.name = name;
      setting.value = value;
      setting.command_line = true;
      event->data = setting;
    } else {
      event->data = KnownNoise{"env"};
    }
    return ParseOutcome::kEvent;
  }
  if (OnlyAssignsNcclVariables(trimmed)) {  // a command line or environment dump
    std::string_view rest = trimmed;
    EnvSetting setting;
    if (NextNcclAssignment(&rest, &setting)) {
      ctx.body = trimmed;
      event->data = setting;
      assignments_ = rest;
    } else {
      event->data = KnownNoise{"env"};
    }
    return ParseOutcome::kEvent;
  }
  // The indented source line under a traceback frame (`    raise RuntimeError(f"NCCL error:
  // {error_str}")`), or IPython's marked current line (`--> 101     raise ...`): code that names
  // NCCL, not a message.
  if ((text.front() == ' ' && state_->frame_line != 0 && state_->frame_line + 1 == line.number &&
       state_->frame_source == line.source) ||
      parse_internal::IsIpythonCurrentLine(trimmed)) {
    ctx.level = Level::kTorch;
    event->data = KnownNoise{"traceback"};
    return ParseOutcome::kEvent;
  }
  event->data = Unrecognized{trimmed, /*mention=*/true};
  return ParseOutcome::kEvent;
}

bool LineParser::ParseGlued(Event* event) {
  if (!assignments_.empty() && line_ != nullptr) {
    EnvSetting setting;
    if (NextNcclAssignment(&assignments_, &setting)) {
      // The line from this assignment on: its evidence, and what a replay of the kept text
      // (condensed inputs) reads as this setting first.
      const Line& line = *line_;
      const char* end = line.text.data() + line.text.size();
      const std::string_view text(setting.name.data(),
                                  static_cast<size_t>(end - setting.name.data()));
      ResetContext(line, text, &event->ctx);
      event->ctx.body = parse_internal::Trim(text);
      event->data = setting;
      return true;
    }
    assignments_ = {};
  }
  if (rest_.empty() || line_ == nullptr) return false;
  const std::string_view text = rest_;
  rest_ = {};
  ResetContext(*line_, text, &event->ctx);
  return ParseMessage(*line_, text, event);
}

std::string_view EventTypeName(const EventData& data) {
  static constexpr std::string_view kNames[] = {"nccl_version",
                                                "cuda_driver_version",
                                                "env_setting",
                                                "comm_config",
                                                "bootstrap_interface",
                                                "bootstrap_timings",
                                                "init_timings",
                                                "plugin",
                                                "using_network",
                                                "ib_devices",
                                                "socket_devices",
                                                "gdr_status",
                                                "ofi",
                                                "comm_init",
                                                "comm_end",
                                                "comm_topology",
                                                "ring_order",
                                                "tree_topology",
                                                "graph_ring",
                                                "channel_counts",
                                                "connected_all",
                                                "connection",
                                                "graph_pattern",
                                                "graph_paths",
                                                "p2p_disabled",
                                                "collective",
                                                "coll_algo",
                                                "warning",
                                                "notice",
                                                "proxy_peer_closed",
                                                "error_trail",
                                                "watchdog_timeout",
                                                "work_progress",
                                                "framework_nccl_error",
                                                "framework_event",
                                                "process_exit",
                                                "launcher_event",
                                                "traceback",
                                                "known_noise",
                                                "unrecognized"};
  static_assert(std::size(kNames) == std::variant_size_v<EventData>);
  return kNames[data.index()];
}

}  // namespace ncclscope
