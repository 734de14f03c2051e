// Warnings (category from the text) and the error trail lines (nccl-log-formats.md §5).
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

// True for "Call to <name> failed" (syscall/library wrapper failures).
bool IsCallFailed(std::string_view s) {
  size_t p = s.find("Call to ");
  return p != std::string_view::npos && s.find(" failed", p) != std::string_view::npos;
}

}  // namespace

WarnCategory ClassifyWarning(std::string_view m) {
  if (Contains(m, "NET/OFI")) return WarnCategory::kOfi;
  if (Contains(m, "NET/IB") || Contains(m, "ibv_")) return WarnCategory::kIb;
  if (Contains(m, "shared memory") || Contains(m, "/dev/shm") || Contains(m, "failed to extend")) {
    return WarnCategory::kShm;
  }
  if (Contains(m, "Cuda failure")) return WarnCategory::kCuda;
  if (Contains(m, "Proxy")) return WarnCategory::kProxy;
  if (Contains(m, "Bootstrap")) return WarnCategory::kBootstrap;
  if (Contains(m, "socketProgress") || Contains(m, "Connect to") || Contains(m, "connect to") ||
      Contains(m, "Connection closed") || Contains(m, "Call to recv") ||
      Contains(m, "Call to send")) {
    return WarnCategory::kSocket;
  }
  if (IsCallFailed(m)) return WarnCategory::kSyscall;
  if (Contains(m, "Plugin") || Contains(m, "NET plugin") || Contains(m, "plugin"))
    return WarnCategory::kPlugin;
  if (Contains(m, "NVLS")) return WarnCategory::kNvls;
  if (Contains(m, "CollNet") || Contains(m, "SHARP")) return WarnCategory::kCollNet;
  return WarnCategory::kOther;
}

bool IsDowngradedFailure(std::string_view body) {
  if (body.empty()) return false;
  switch (body.front()) {  // the first letters of the prefixes below
    case 'C':
    case 'E':
    case 's':
    case 'B':
    case 'N':
    case 'n':
    case 'c':
      break;
    default:
      return false;
  }
  // The kernels need more shared memory than the GPU gives them (2.25 prints it at INFO; later
  // NCCL and RCCL add "cudaArch N" in front, at WARN): init fails with a system error.
  if ((StartsWith(body, "ncclMaxSharedMem ") || StartsWith(body, "cudaArch ")) &&
      body.find("exceeds device/fn maxSharedMem") != std::string_view::npos) {
    return true;
  }
  // "Call to ibv_modify_qp failed ..., retrying 1/5 ...": a retry NCCL reports, not a failure
  // (ParseNotice keeps it).
  if (body.find(", retrying") != std::string_view::npos) return false;
  return StartsWith(body, "Cuda failure") || StartsWith(body, "Error while ") ||
         StartsWith(body, "Error: failed to extend") || StartsWith(body, "Call to ") ||
         StartsWith(body, "socketProgress") || StartsWith(body, "Bootstrap : no socket") ||
         StartsWith(body, "NET/IB : Got completion") || StartsWith(body, "NET/IB: Got completion");
}

bool IsSourceLocation(std::string_view token) {
  const size_t colon = token.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == token.size()) return false;
  for (size_t i = colon + 1; i < token.size(); ++i) {
    if (!IsDigit(token[i])) return false;
  }
  const std::string_view file = token.substr(0, colon);
  for (std::string_view ext : {".cc", ".c", ".cpp", ".cu", ".h"}) {
    if (file.size() > ext.size() && file.ends_with(ext)) return true;
  }
  return false;
}

bool IsBareErrorTrail(std::string_view text) {
  const size_t arrow = text.find(" -> ");
  if (arrow == std::string_view::npos || !IsSourceLocation(text.substr(0, arrow))) return false;
  TextCursor c(text.substr(arrow + 4));
  int code = 0;
  if (!IsDigit(c.Peek()) || !c.ReadInt(&code)) return false;
  const std::string_view rest = Trim(c.rest());
  return rest.empty() || rest == "[Async thread]" || rest == "[Proxy Thread]" ||
         rest == "[Progress Thread]" || (rest.front() == '(' && rest.back() == ')');
}

bool ParseErrorTrail(std::string_view body, EventData* data) {
  TextCursor c(body);
  std::string_view loc = c.ReadToken();
  // location must be "file:digits"
  size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == loc.size()) return false;
  for (size_t i = colon + 1; i < loc.size(); ++i) {
    if (!IsDigit(loc[i])) return false;
  }
  if (c.Eat(" (")) {  // 2.30.7 "(function)"
    c.ReadUntil(')');
    if (!c.Eat(')')) return false;
  }
  ErrorTrail e;
  e.location = loc;
  if (!c.Eat(" -> ") || !c.ReadInt(&e.code)) return false;
  std::string_view rest = Trim(c.rest());
  if (Contains(rest, "[Async thread]")) e.async = true;
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
