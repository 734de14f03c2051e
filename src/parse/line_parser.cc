// LineParser: prefix recognition and body dispatch. The hot bodies (connections, COLL lines) are
// tried first after a one-byte prefilter; every other family parser rejects a foreign body within
// its first few bytes, so a line costs a handful of memcmp calls before it is classified.
#include "ncclscope/parse/line_parser.h"

#include <string_view>

#include "ncclscope/base/byte_words.h"

#include "body_parsers.h"
#include "prefix_cache.h"
#include "text_cursor.h"

namespace ncclscope {

using parse_internal::StartsWith;

struct LineParser::State {
  bool last_error_pending = false;  ///< The previous line was PyTorch's "Last error:".
  parse_internal::PrefixCache prefixes;
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
  switch (first) {
    case 'C':
      if (ParseRingOrder(body, data)) return;
      break;
    case 'R':
      if (ParseGraphRing(body, data)) return;
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

ParseOutcome LineParser::Parse(const Line& line, Event* event) {
  EventContext& ctx = event->ctx;
  // Every field: the prefix parser sets host, pid, tid, dev, level and body on success.
  ctx.timestamp = {};
  ctx.location = {};
  ctx.function = {};
  ctx.torch_rank = -1;
  ctx.prefix_id = 0;
  ctx.source = line.source;
  ctx.line = line.number;
  ctx.text = line.text;
  ctx.meta = &line.meta;
  std::string_view text = line.text;
  const bool last_error = state_->last_error_pending;
  state_->last_error_pending = false;

  bool nccl = state_->prefixes.Lookup(text, &ctx);
  if (!nccl && !text.empty() && parse_internal::ParseNcclPrefix(text, &ctx)) {
    state_->prefixes.Remember(text, &ctx);
    nccl = true;
  }
  if (nccl) {
    if (ctx.level == Level::kWarn) {
      DispatchWarn(ctx.body, &event->data);
    } else {
      parse_internal::DispatchInfo(ctx.body, ctx.level, &event->data);
    }
    return ParseOutcome::kEvent;
  }
  // Not an NCCL-prefixed line: reset whatever the prefix parser may have filled.
  ctx = EventContext{};
  ctx.source = line.source;
  ctx.line = line.number;
  ctx.text = text;
  ctx.meta = &line.meta;
  ctx.body = text;

  if (StartsWith(text, "NCCL version ") && parse_internal::ParseVersion(text, &event->data)) {
    ctx.level = Level::kVersion;
    return ParseOutcome::kEvent;
  }
  std::string_view trimmed = parse_internal::Trim(text);
  if (last_error && !trimmed.empty()) {
    // PyTorch "Last error:\n<last NCCL WARN body>": the body of NCCL's last warning.
    ctx.level = Level::kTorch;
    ctx.body = trimmed;
    event->data = Warning{parse_internal::ClassifyWarning(trimmed), trimmed};
    return ParseOutcome::kEvent;
  }
  if (trimmed == "Last error:") {
    state_->last_error_pending = true;
    return ParseOutcome::kNotNccl;
  }
  if (parse_internal::ParseFramework(text, &ctx, &event->data)) return ParseOutcome::kEvent;
  return ParseOutcome::kNotNccl;
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
                                                "error_trail",
                                                "watchdog_timeout",
                                                "work_progress",
                                                "framework_nccl_error",
                                                "framework_event",
                                                "known_noise",
                                                "unrecognized"};
  static_assert(std::size(kNames) == std::variant_size_v<EventData>);
  return kNames[data.index()];
}

}  // namespace ncclscope
