// PyTorch ProcessGroupNCCL and torchelastic lines (nccl-log-formats.md §7). These are rare, so
// the matching is a handful of substring searches after the header is peeled off.
#include <string_view>

#include "body_parsers.h"
#include "horovod_stall_parser.h"
#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool IsSeverity(char c) { return c == 'F' || c == 'E' || c == 'W' || c == 'I' || c == 'V'; }

// Reads the integer that follows `key` anywhere in `s`; -1 if absent.
int64_t IntAfter(std::string_view s, std::string_view key) {
  size_t p = s.find(key);
  if (p == std::string_view::npos) return -1;
  TextCursor c(s.substr(p + key.size()));
  c.SkipSpaces();
  int64_t v = -1;
  if (!c.ReadInt(&v)) return -1;
  return v;
}

// Token (up to ',', ')' or ' ') after `key`.
std::string_view TokenAfter(std::string_view s, std::string_view key) {
  size_t p = s.find(key);
  if (p == std::string_view::npos) return {};
  std::string_view r = s.substr(p + key.size());
  return r.substr(0, r.find_first_of(",) "));
}

// c10 "[E1121 13:39:41.727410739 file:line] " or "[E file:line] ", glog
// "I0527 15:16:51.665375 58626 file:line] ". Fills timestamp/location; returns false if absent.
bool ReadHeader(TextCursor* c, EventContext* ctx) {
  std::string_view r = c->rest();
  bool bracket = !r.empty() && r.front() == '[';
  std::string_view h = bracket ? r.substr(1) : r;
  if (h.size() < 4 || !IsSeverity(h[0])) return false;
  size_t close = h.find("] ");
  if (close == std::string_view::npos || close > 160) {
    if (EndsWith(h, "]")) {
      close = h.size() - 1;
    } else {
      return false;
    }
  }
  std::string_view inside = h.substr(1, close - 1);  // after the severity letter
  if (!inside.empty() && inside.front() == ' ') {
    inside.remove_prefix(1);  // old "[E file:line]"
    if (!bracket) return false;
  } else {
    // "MMDD HH:MM:SS.frac [tid ]file:line"; c10 does not pad the month: "E909" is September 9.
    size_t digits = 0;
    while (digits < inside.size() && digits < 5 && IsDigit(inside[digits])) ++digits;
    if ((digits != 3 && digits != 4) || digits >= inside.size() || inside[digits] != ' ')
      return false;
    size_t sp = inside.find(' ');
    if (sp == std::string_view::npos) return false;
    size_t sp2 = inside.find(' ', sp + 1);
    if (sp2 == std::string_view::npos) return false;
    ctx->timestamp = inside.substr(0, sp2);
    inside.remove_prefix(sp2 + 1);
    if (!bracket) {  // glog: thread id
      size_t sp3 = inside.find(' ');
      if (sp3 == std::string_view::npos) return false;
      inside.remove_prefix(sp3 + 1);
    }
  }
  if (inside.find(':') == std::string_view::npos) return false;
  ctx->location = inside;
  c->Skip((bracket ? 1 : 0) + close + 2);
  return true;
}

// "[Rank 0] ", "[PG 0 Rank 0] ", "[PG 0 (desc) Rank 0] ", "[PG ID 0 PG GUID 0(default_pg) Rank 0]
// ".
void ReadLogPrefix(TextCursor* c, int* rank, int* pg_id, std::string_view* pg_desc) {
  std::string_view r = c->rest();
  if (!StartsWith(r, "[Rank ") && !StartsWith(r, "[PG ")) return;
  size_t close = r.find(']');
  if (close == std::string_view::npos) return;
  std::string_view in = r.substr(1, close - 1);
  size_t rk = in.rfind("Rank ");
  if (rk == std::string_view::npos || !ParseWhole(in.substr(rk + 5), rank)) return;
  if (StartsWith(in, "PG ID ")) {
    *pg_id = static_cast<int>(IntAfter(in, "PG ID "));
  } else if (StartsWith(in, "PG ")) {
    *pg_id = static_cast<int>(IntAfter(in, "PG "));
  }
  size_t open = in.find('(');
  size_t shut = in.find(')');
  if (open != std::string_view::npos && shut != std::string_view::npos && shut > open) {
    *pg_desc = in.substr(open + 1, shut - open - 1);
  }
  c->Skip(close + 1);
  c->SkipSpaces();
}

}  // namespace

bool ParseNcclErrorIn(std::string_view msg, EventData* data) {
  FrameworkNcclError e;
  size_t in = msg.find("NCCL error in: ");
  std::string_view rest;
  if (in != std::string_view::npos) {
    std::string_view before = Trim(msg.substr(0, in));
    if (EndsWith(before, ":")) before.remove_suffix(1);
    if (!before.empty() && before.find(' ') == std::string_view::npos) e.exception = before;
    rest = msg.substr(in + 15);
    size_t comma = rest.find(", ");
    e.where = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
  } else {
    constexpr std::string_view kAsync = "async exception: NCCL error: ";
    size_t p = msg.find(kAsync);
    if (p == std::string_view::npos) return false;
    rest = msg.substr(p + kAsync.size());
  }
  e.nccl_version = CutNcclVersion(&rest);
  e.reason = Trim(rest);
  *data = e;
  return true;
}

namespace {

// nccl-tests: "Test NCCL failure common.cu:961 'internal error - please report this issue to the
// NCCL developers / '" (the result of an NCCL call, then NCCL's last error, empty here), and its
// CUDA check "Test CUDA failure common.cu:732 'invalid device ordinal'" (before or after NCCL's
// init: the reason is CUDA's error string).
bool ParseTestNcclFailure(std::string_view msg, EventData* data) {
  const bool cuda = StartsWith(msg, "Test CUDA failure ");
  std::string_view rest = msg.substr(std::string_view("Test NCCL failure ").size());
  const size_t quote = rest.find('\'');
  if (quote == std::string_view::npos) return false;
  FrameworkNcclError e;
  e.exception = "nccl-tests";
  e.where = Trim(rest.substr(0, quote));
  std::string_view text = rest.substr(quote + 1);
  if (EndsWith(text, "'")) text.remove_suffix(1);
  const size_t slash = text.rfind(" / ");
  if (slash != std::string_view::npos) {
    e.last_error = Trim(text.substr(slash + 3));
    text = text.substr(0, slash);
  }
  e.reason = Trim(text);
  if (e.reason.empty()) return false;
  if (cuda) e.exception = kNcclTestsCudaCheck;
  *data = e;
  return true;
}

// XLA (JAX, TensorFlow's XLA backend): "external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL
// operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run with
// NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be unrelated)
// 'socketTryAccept: Accept failed: Bad file descriptor'." — anywhere in the line (behind
// "jax.errors.JaxRuntimeError: INTERNAL: "). `op` is where "NCCL operation " starts.
bool ParseXlaNcclError(std::string_view text, size_t op, EventData* data) {
  std::string_view rest = text.substr(op + std::string_view("NCCL operation ").size());
  const size_t failed = rest.find(" failed: ");
  if (failed == std::string_view::npos || failed == 0) return false;
  FrameworkNcclError e;
  e.exception = "XLA";
  // The source location before it: "<file>:<line>: NCCL operation".
  std::string_view before = text.substr(0, op);
  if (EndsWith(before, ": ")) {
    before.remove_suffix(2);
    const size_t blank = before.rfind(' ');
    const std::string_view loc = blank == std::string_view::npos ? before : before.substr(blank + 1);
    if (IsSourceLocation(loc)) e.where = loc;
  }
  std::string_view reason = rest.substr(failed + 9);
  constexpr std::string_view kLast = "Last NCCL warning(error) log entry";
  if (const size_t last = reason.find(kLast); last != std::string_view::npos) {
    std::string_view entry = reason.substr(last + kLast.size());
    reason = reason.substr(0, last);
    const size_t open = entry.find('\'');
    const size_t close = entry.rfind('\'');
    if (open != std::string_view::npos && close > open) e.last_error = Trim(entry.substr(open + 1, close - open - 1));
  }
  reason = Trim(reason);
  if (EndsWith(reason, ".")) reason.remove_suffix(1);
  e.reason = reason;
  if (e.reason.empty()) return false;
  *data = e;
  return true;
}

// The distinctive framework messages; `msg` has header and logPrefix removed.
/// A line of PyTorch's desync report (TraceUtils.h retrieveDesyncReport) that names the ranks it
/// blames, as printed, indented, behind "- ": "[47] joined but didn't finish collective #41207
/// (count from 1)", "[7] finished collective #182, but didn't join collective #183 (count from
/// 1)", "To our best knowledge, ranks [3, 5] are the lagging ranks that caused this timeout.
/// They never joined any collectives". The snapshot's "[7] finished ALLREDUCE" names no culprit.
bool ParseDesyncCulprits(std::string_view line, EventData* data) {
  std::string_view rest = Trim(line);
  if (StartsWith(rest, "- ")) rest.remove_prefix(2);
  FrameworkEvent fe;
  if (StartsWith(rest, "To our best knowledge, ranks [")) {
    rest.remove_prefix(30);
    const size_t close = rest.find(']');
    if (close == std::string_view::npos ||
        rest.substr(close).find("are the lagging ranks") == std::string_view::npos) {
      return false;
    }
    fe.kind = FrameworkKind::kDesyncNeverJoined;
    fe.detail = rest.substr(0, close);
    *data = fe;
    return true;
  }
  if (!StartsWith(rest, "[")) return false;
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return false;
  const std::string_view ranks = rest.substr(1, close - 1);
  if (ranks.empty() || ranks.find_first_not_of("0123456789, .") != std::string_view::npos)
    return false;
  const std::string_view what = rest.substr(close + 1);
  if (StartsWith(what, " joined but didn't finish collective #")) {
    fe.kind = FrameworkKind::kDesyncStuck;
    fe.seq = IntAfter(what, "collective #");
  } else if (StartsWith(what, " finished collective #") &&
             Contains(what, ", but didn't join collective #")) {
    fe.kind = FrameworkKind::kDesyncLagging;
    fe.seq = IntAfter(what, "didn't join collective #");
  } else {
    return false;
  }
  fe.detail = ranks;
  *data = fe;
  return true;
}

bool ClassifyMessage(std::string_view msg, int rank, int pg_id, std::string_view pg_desc,
                     EventData* data) {
  FrameworkEvent fe;
  fe.rank = rank;
  // vLLM's (and SGLang's) PyNccl names the library it loaded: "vLLM is using nccl==2.21.5", the
  // only version line of many inference-server logs.
  if (const size_t at = msg.find(" is using nccl=="); at != std::string_view::npos) {
    std::string_view v = msg.substr(at + 16);
    v = v.substr(0, v.find_first_not_of("0123456789."));
    if (v.size() >= 3 && IsDigit(v.front()) && v.find('.') != std::string_view::npos) {
      *data = NcclVersion{v, {}, {}};
      return true;
    }
  }
  // vLLM's note of which NCCL library it loads ("Found nccl from library libnccl.so.2", "...
  // from environment variable VLLM_NCCL_SO_PATH=..."): nothing the analysis uses.
  if (StartsWith(msg, "Found nccl from ") || Contains(msg, "] Found nccl from ")) {
    *data = KnownNoise{"torch"};
    return true;
  }
  // Python's note that a destructor raised (`Exception ignored in: <function
  // NCCLCommunicator.__del__ at 0x...>`, vLLM's after a failed init): the exception's own lines
  // follow it and are read on their own.
  if (StartsWith(msg, "Exception ignored in: <function ")) {
    *data = KnownNoise{"torch"};
    return true;
  }
  if (Contains(msg, "Watchdog caught collective operation timeout")) {
    WatchdogTimeout w;
    // Glued behind a progress bar or a launcher's tag, "[Rank N]" is not at the start.
    if (rank < 0 && Contains(msg, "[Rank ")) rank = static_cast<int>(IntAfter(msg, "[Rank "));
    w.rank = rank;
    w.seq = IntAfter(msg, "SeqNum=");
    w.op_type = TokenAfter(msg, "OpType=");
    w.numel_in = IntAfter(msg, "NumelIn=");
    w.numel_out = IntAfter(msg, "NumelOut=");
    w.timeout_ms = IntAfter(msg, "Timeout(ms)=");
    w.ran_ms = IntAfter(msg, " ran for ");
    *data = w;
    return true;
  }
  if (Contains(msg, "detected by watchdog at work") || StartsWith(msg, "Timeout at NCCL work: ") ||
      Contains(msg, "Last enqueued NCCL work: ")) {
    WorkProgress p;
    p.rank = rank;
    p.pg_id = pg_id;
    p.pg_desc = pg_desc;
    if (Contains(msg, "work sequence id: ")) {
      p.failed_seq = IntAfter(msg, "work sequence id: ");
      p.last_enqueued = IntAfter(msg, "last enqueued work: ");
      p.last_completed = IntAfter(msg, "last completed work: ");
    } else {
      if (Contains(msg, "at work: ")) p.failed_seq = IntAfter(msg, "at work: ");
      if (StartsWith(msg, "Timeout at NCCL work: ")) {
        p.failed_seq = IntAfter(msg, "NCCL work: ");
        p.timeout = true;
      }
      p.last_enqueued = IntAfter(msg, "ast enqueued NCCL work: ");
      p.last_completed = IntAfter(msg, "ast completed NCCL work: ");
    }
    *data = p;
    return true;
  }
  if (Contains(msg, "NCCL error in: ") || Contains(msg, "async exception: NCCL error: ")) {
    return ParseNcclErrorIn(msg, data);
  }
  if (StartsWith(msg, "Test NCCL failure ") || StartsWith(msg, "Test CUDA failure ")) {
    return ParseTestNcclFailure(msg, data);
  }
  if (ParseNcclResultError(msg, data)) return true;
  static constexpr std::string_view kErrorNames[] = {
      "ncclUnhandledCudaError", "ncclSystemError",  "ncclInternalError",
      "ncclInvalidArgument",    "ncclInvalidUsage", "ncclRemoteError"};
  for (std::string_view name : kErrorNames) {
    if (StartsWith(msg, name) && msg.size() > name.size() && msg[name.size()] == ':') {
      fe.kind = FrameworkKind::kNcclErrorDetail;
      fe.detail = name;
      *data = fe;
      return true;
    }
  }
  if (StartsWith(msg, "Unknown NCCL error")) {
    fe.kind = FrameworkKind::kNcclErrorDetail;
    fe.detail = "Unknown NCCL error";
  } else if (Contains(msg, "Heartbeat monitor timed out") ||
             Contains(msg, "watchdog got stuck for")) {
    fe.kind = FrameworkKind::kHeartbeatTimeout;
  } else if (Contains(msg, "watchdog thread terminated with exception")) {
    fe.kind = FrameworkKind::kWatchdogTerminated;
    size_t p = msg.find("exception: ");
    if (p != std::string_view::npos) fe.detail = Trim(msg.substr(p + 11));
  } else if (Contains(msg, "taking the entire process down") ||
             Contains(msg, "Some NCCL operations have failed or timed out") ||
             Contains(msg, "Terminating the process after attempting to dump debug info")) {
    fe.kind = FrameworkKind::kTakingDown;
  } else if (Contains(msg, "NCCL communicator was aborted on rank ")) {
    fe.kind = FrameworkKind::kCommAborted;
    fe.rank = static_cast<int>(IntAfter(msg, "aborted on rank "));
  } else if (Contains(msg, "NCCL timeout in communicator initialization")) {
    fe.kind = FrameworkKind::kInitTimeout;
  } else if (Contains(msg, "Stack trace of the failed collective") && !Contains(msg, "not found")) {
    fe.kind = FrameworkKind::kCollectiveStack;
  } else if (Contains(msg, "flight recorder") || Contains(msg, "dump debug info") ||
             Contains(msg, "signal dumping") ||
             Contains(msg, "Stack trace of the failed collective") ||
             Contains(msg, "dumping debug info")) {
    fe.kind = FrameworkKind::kDumpSignal;
  } else if (StartsWith(msg, "Sending process ") && Contains(msg, " closing signal ")) {
    fe.kind = FrameworkKind::kProcessSignal;
    fe.detail = Trim(msg.substr(msg.find(" closing signal ") + 16));
    fe.pid = IntAfter(msg, "Sending process ");
  } else if (Contains(msg, " death signal")) {
    fe.kind = FrameworkKind::kProcessSignal;
    size_t p = msg.find("Received ");
    if (p != std::string_view::npos) fe.detail = TokenAfter(msg, "Received ");
  } else if (Contains(msg, " got signal: ")) {
    fe.kind = FrameworkKind::kProcessSignal;
    fe.detail = Trim(msg.substr(msg.find(" got signal: ") + 13));
  } else if (Contains(msg, "destroy_process_group() was not called before program exit")) {
    fe.kind = FrameworkKind::kExitWithoutDestroy;
  } else if (Contains(msg, "ChildFailedError")) {
    fe.kind = FrameworkKind::kChildFailed;
  } else if (EndsWith(msg, " FAILED") && msg.find(' ') == msg.size() - 7) {
    fe.kind = FrameworkKind::kChildFailed;
    fe.detail = msg.substr(0, msg.size() - 7);
  } else {
    return false;
  }
  *data = fe;
  return true;
}

/// A frame of the flight recorder's stack of a failed collective, alone on its line: "#0
/// all_reduce from /opt/venv/.../distributed_c10d.py:3068" (no other words: gdb's "#0
/// 0x00007f... in poll () from /lib/..." and C++'s "frame #0: ..." are not).
bool ParseCollectiveFrame(std::string_view text, EventContext* ctx, EventData* data) {
  TextCursor c(text);
  int64_t n = -1;
  if (!c.Eat("#") || !c.ReadInt(&n) || !c.Eat(" ")) return false;
  const std::string_view rest = Trim(c.rest());
  const size_t from = rest.find(" from ");
  if (from == 0 || from == std::string_view::npos) return false;
  const std::string_view name = rest.substr(0, from);
  const std::string_view where = rest.substr(from + 6);
  const size_t colon = where.rfind(':');
  if (name.find(' ') != std::string_view::npos || where.find(' ') != std::string_view::npos ||
      colon == std::string_view::npos || colon + 1 == where.size() ||
      where.find_first_not_of("0123456789", colon + 1) != std::string_view::npos) {
    return false;
  }
  FrameworkEvent fe;
  fe.kind = FrameworkKind::kCollectiveFrame;
  fe.rank = ctx->torch_rank;
  fe.detail = rest;
  fe.seq = n;
  ctx->level = Level::kTorch;
  ctx->body = rest;
  *data = fe;
  return true;
}

}  // namespace

bool ParseFramework(std::string_view text, EventContext* ctx, EventData* data) {
  if (text.empty()) return false;
  if (text.front() == '#' && ParseCollectiveFrame(text, ctx, data)) return true;
  TextCursor c(text);
  if (c.Eat("[rank")) {
    int r = -1;
    if (!c.ReadInt(&r) || !c.Eat("]:")) return false;
    ctx->torch_rank = r;
    c.SkipSpaces();
  }
  // nccl-tests names the host before its own failure line ("node-a: Test NCCL failure
  // common.cu:1107 '...'"), whatever the host name (the pdsh reader takes only names with a
  // digit, so this one may still be here).
  size_t at = c.rest().find(": Test NCCL failure ");
  if (at == std::string_view::npos) at = c.rest().find(": Test CUDA failure ");
  if (at != std::string_view::npos && at > 0 && at < 256 &&
      c.rest().substr(0, at).find(' ') == std::string_view::npos) {
    const std::string_view msg = c.rest().substr(at + 2);
    if (ParseTestNcclFailure(msg, data)) {
      ctx->level = Level::kTorch;
      ctx->body = msg;
      if (ctx->host.empty()) ctx->host = c.rest().substr(0, at);  // the failure's host
      return true;
    }
  }
  if (const size_t op = c.rest().find("NCCL operation "); op != std::string_view::npos &&
                                                          ParseXlaNcclError(c.rest(), op, data)) {
    ctx->level = Level::kTorch;
    ctx->body = Trim(c.rest());
    return true;
  }
  const bool header = ReadHeader(&c, ctx);
  // Without a header, indented text is a traceback frame, a launcher's report field or source
  // code ("    raise ChildFailedError(": no event).
  if (!header && (c.Peek() == ' ' || c.Peek() == '\t')) {
    // An exception that carries an NCCL error, left indented by a stripped prefix
    // (`[rank0]: torch.distributed.DistBackendError: NCCL error in: ...`, `[rank0]:
    // ncclInternalError: ...`): the NCCL error, as without the prefix.
    const std::string_view line = Trim(c.rest());
    const std::string_view word = line.substr(0, line.find(' '));
    // NCCL's result names (`ncclInvalidUsage:`, `ncclInvalidArgument:`) end in neither.
    const bool exception = EndsWith(word, "Error:") || EndsWith(word, "Exception:") ||
                           (StartsWith(word, "nccl") && EndsWith(word, ":"));
    if (exception && (ParseNcclErrorIn(line, data) || ParseNcclResultError(line, data) ||
                      (StartsWith(word, "nccl") && ClassifyMessage(line, ctx->torch_rank, -1, {}, data)))) {
      ctx->level = Level::kTorch;
      ctx->body = line;
      return true;
    }
    if (DispatchProcessEnd(c.rest(), false, true, ctx, data)) {
      ctx->level = Level::kTorch;
      ctx->body = Trim(c.rest());
      return true;
    }
    if (ParseDesyncCulprits(c.rest(), data)) {
      ctx->level = Level::kTorch;
      ctx->body = Trim(c.rest());
      return true;
    }
    // A pasted log indented as a block ("    [rank7]:[E816 01:45:40.18 ...] ..."): the line
    // without its indentation.
    const std::string_view trimmed = Trim(c.rest());
    if (trimmed.size() > 4 && trimmed.front() == '[') return ParseFramework(trimmed, ctx, data);
    return false;
  }
  if (!header && StartsWith(c.rest(), "raise ")) return false;
  int rank = -1, pg_id = -1;
  std::string_view pg_desc;
  ReadLogPrefix(&c, &rank, &pg_id, &pg_desc);
  // The header states the rank in the message's process group ("[PG ID 5 PG GUID 83(TENSOR_
  // MODEL_PARALLEL_GROUP) Rank 1]", or "[Rank 1]" alone, also of a subgroup); PyTorch's
  // "[rank29]:" prefix states the global one, which is what names the process. A subgroup's
  // ranks keep the global order, so its rank is never above the global one: a higher one is of
  // another world the process joined (`[rank1]:... [Rank 12]`, an RLHF weight-sync group), and
  // stays.
  const int global = ctx->torch_rank >= 0 ? ctx->torch_rank
                     : ctx->meta != nullptr && ctx->meta->launcher_rank_global
                         ? ctx->meta->launcher_rank
                         : -1;
  if (rank >= 0 && global > rank) rank = global;
  if (rank >= 0 && ctx->torch_rank < 0) ctx->torch_rank = rank;
  std::string_view msg = Trim(c.rest());
  if (!ClassifyMessage(msg, rank >= 0 ? rank : ctx->torch_rank, pg_id, pg_desc, data) &&
      !DispatchProcessEnd(msg, header, false, ctx, data) && !ParseHorovodMissingRanks(msg, data)) {
    return false;
  }
  ctx->level = Level::kTorch;
  ctx->body = msg;
  return true;
}

}  // namespace ncclscope::parse_internal
