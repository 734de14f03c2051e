// NCCL's own line prefix (nccl-log-formats.md §1), parsed by hand:
//   [timestamp] host:pid:tid [dev] NCCL INFO body
//   [timestamp] host:pid:tid [dev] file:line [(function)] NCCL WARN body
//   host:pid:tid [dev] 12.345 function:line NCCL TRACE body
//   host:pid:tid NCCL CALL body
#include <cstdint>
#include <string_view>

#include "ncclscope/base/byte_words.h"

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// Splits the text before " NCCL WARN|TRACE " into [ms] location [(function)].
void SplitLocation(std::string_view pre, Level level, EventContext* ctx) {
  pre = Trim(pre);
  if (level == Level::kTrace) {
    // "%f location:line": the first token is the elapsed time when it is a number.
    size_t sp = pre.find(' ');
    if (sp != std::string_view::npos) {
      std::string_view ms = pre.substr(0, sp);
      if (!ms.empty() && (IsDigit(ms.front()) || ms.front() == '.')) pre = Trim(pre.substr(sp + 1));
    }
  }
  // 2.30.7 "file:line (function)": a trailing parenthesised group after a space that follows
  // ":digits". Plugin pretty-function locations end in ":digits" instead, so they are not split.
  if (!pre.empty() && pre.back() == ')') {
    size_t open = pre.rfind(" (");
    if (open != std::string_view::npos && open > 0 && IsDigit(pre[open - 1])) {
      ctx->function = pre.substr(open + 2, pre.size() - open - 3);
      pre = pre.substr(0, open);
    }
  }
  ctx->location = pre;
}

// Reads the decimal number at p[0, end) into *out: false unless it has 1 to 9 digits (so it fits
// in 32 bits, as NCCL's pids, tids and devices do). One fused loop: this runs three times on every
// NCCL line.
template <typename T>
[[gnu::always_inline]] inline bool ReadSmallInt(const char** p, const char* end, T* out) {
  const char* q = *p;
  if (end - q >= 8) {  // up to 7 digits read as one word
    const uint64_t w = byte_words::Load8(q);
    const int n = byte_words::LeadingDigits(w);
    if (n == 0) return false;
    if (n < 8) {
      *out = static_cast<T>(byte_words::DigitsValue(w, n));
      *p = q + n;
      return true;
    }
  }
  uint32_t v = 0;
  int n = 0;
  while (q < end && IsDigit(*q)) {
    v = v * 10 + static_cast<uint32_t>(*q - '0');
    ++q;
    if (++n > 9) return false;
  }
  if (n == 0) return false;
  *out = static_cast<T>(v);
  *p = q;
  return true;
}

}  // namespace

bool ParseNcclPrefix(std::string_view text, EventContext* ctx) {
  const char* p = text.data();
  const char* const end = p + text.size();
  // Optional timestamp: any bracketed text followed by a space (format is configurable).
  if (p < end && *p == '[') {
    size_t close = text.find("] ");
    if (close == std::string_view::npos) return false;
    ctx->timestamp = text.substr(1, close - 1);
    p += close + 2;
  }
  // host:pid:tid — host has no ':' or blank; the first ':' within 256 bytes.
  const char* const host = p;
  const char* const limit = end - p < 256 ? end : p + 256;
  // Eight bytes at a time while they fit, then byte by byte.
  using byte_words::BytesEqual;
  while (p + 8 <= limit) {
    const uint64_t w = byte_words::Load8(p);
    const uint64_t stop = BytesEqual(w, ':') | BytesEqual(w, ' ') | BytesEqual(w, '\t');
    if (stop != 0) {
      p += byte_words::FirstMarked(stop);
      break;
    }
    p += 8;
  }
  while (p < limit && *p != ':') {
    if (*p == ' ' || *p == '\t') return false;
    ++p;
  }
  if (p == host || p == limit) return false;
  const std::string_view host_view(host, static_cast<size_t>(p - host));
  ++p;
  uint32_t pid = 0, tid = 0;
  if (!ReadSmallInt(&p, end, &pid) || p == end || *p != ':') return false;
  ++p;
  if (!ReadSmallInt(&p, end, &tid) || p == end || *p != ' ') return false;
  ++p;
  ctx->host = host_view;
  ctx->pid = pid;
  ctx->tid = tid;
  // Fast path for the common "[dev] NCCL INFO " (one or two device digits).
  if (end - p >= 16 && p[0] == '[' && IsDigit(p[1])) {
    int d = p[1] - '0';
    const char* q = p + 2;
    if (IsDigit(*q)) d = d * 10 + (*q++ - '0');
    if (LiteralAt(q, "] NCCL INFO ")) {
      ctx->level = Level::kInfo;
      ctx->dev = d;
      q += 12;
      ctx->body = std::string_view(q, static_cast<size_t>(end - q));
      return true;
    }
  }
  return ParseDevAndLevel(std::string_view(p, static_cast<size_t>(end - p)), ctx,
                          /*legacy_levels=*/true);
}

bool ParseDevAndLevel(std::string_view rest, EventContext* ctx, bool legacy_levels) {
  TextCursor c(rest);
  int dev = -1;
  if (c.Eat("NCCL CALL")) {
    ctx->level = Level::kCall;
    c.Eat(' ');
  } else {
    if (c.Eat('[')) {
      if (!c.ReadInt(&dev) || !c.Eat("] ")) return false;
    }
    if (c.Eat("NCCL INFO")) {
      ctx->level = Level::kInfo;
      c.Eat(' ');
    } else if (c.Eat("NCCL ABORT")) {
      ctx->level = Level::kWarn;
      c.Eat(' ');
    } else if (c.Eat("NCCL ATTN")) {
      // 2.32: "error messages plus informational notices". Parsed like INFO; a body no parser
      // knows becomes a warning (LineParser::Dispatch), never dropped.
      ctx->level = Level::kInfo;
      ctx->attention = true;
      c.Eat(' ');
    } else {
      // Location (and TRACE time) precede the level; plugin locations may hold spaces.
      std::string_view r = c.rest();
      size_t w = r.find(" NCCL WARN");
      size_t t = r.find(" NCCL TRACE");
      size_t pos;
      size_t len;
      if (StartsWith(r, "NCCL WARN")) {  // WARN without location
        ctx->level = Level::kWarn;
        pos = 0;
        len = 9;
      } else if (StartsWith(r, "NCCL TRACE")) {
        ctx->level = Level::kTrace;
        pos = 0;
        len = 10;
      } else if (w != std::string_view::npos && (t == std::string_view::npos || w < t)) {
        ctx->level = Level::kWarn;
        pos = w;
        len = 10;
      } else if (t != std::string_view::npos) {
        ctx->level = Level::kTrace;
        pos = t;
        len = 11;
      } else if (legacy_levels && dev >= 0 && StartsWith(r, "INFO ")) {
        // NCCL <= 2.2 printed the level without "NCCL": `host:pid:tid [dev] INFO ...`.
        ctx->level = Level::kInfo;
        pos = 0;
        len = 4;
      } else if (size_t lw = r.find(" WARN "); legacy_levels && dev >= 0 &&
                                                lw != std::string_view::npos &&
                                                r.substr(0, lw).find(' ') == std::string_view::npos) {
        // ... and `host:pid:tid [dev] file:line WARN ...`.
        ctx->level = Level::kWarn;
        pos = lw;
        len = 5;
      } else {
        return false;
      }
      SplitLocation(r.substr(0, pos), ctx->level, ctx);
      c.Skip(pos + len);
      c.Eat(' ');
    }
  }
  ctx->dev = dev;
  ctx->body = c.rest();
  return true;
}

}  // namespace ncclscope::parse_internal
