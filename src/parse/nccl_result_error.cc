// ParseNcclResultError: an NCCL call's failure as frameworks other than PyTorch's
// ProcessGroupNCCL raise it, quoting NCCL's own result string (ncclGetErrorString) after their
// own words. A line is taken only when that string follows one of the known framings, so an
// application's message that merely mentions NCCL is left to the other parsers.
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/parse/events.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

/// ncclGetErrorString's texts (2.4-2.30), without the "(run with NCCL_DEBUG=... for details)"
/// or " - please report this issue ..." tails newer versions add.
constexpr std::string_view kResults[] = {"unhandled cuda error",
                                         "unhandled system error",
                                         "internal error",
                                         "invalid argument",
                                         "invalid usage",
                                         "remote process exited or there was a network error",
                                         "NCCL operation in progress",
                                         "unknown result code"};

bool StartsWithResult(std::string_view s) {
  for (std::string_view r : kResults) {
    if (StartsWith(s, r)) return true;
  }
  return false;
}

/// `s` without each leading "ncclX failed: " (TensorFlow repeats it: "ncclCommInitRank failed:
/// ncclCommInitRank failed: unhandled system error"); *call is the first ncclX.
std::string_view SkipFailedCalls(std::string_view s, std::string_view* call) {
  constexpr std::string_view kFailed = " failed: ";
  while (StartsWith(s, "nccl")) {
    const size_t at = s.find(kFailed);
    if (at == std::string_view::npos || s.substr(0, at).find(' ') != std::string_view::npos) break;
    if (call->empty()) *call = s.substr(0, at);
    s = s.substr(at + kFailed.size());
  }
  return s;
}

/// The exception name that starts `msg` ("horovod.common.exceptions.HorovodInternalError:",
/// "RuntimeError:"), and the text after it; false if `msg` does not start with one.
bool SplitException(std::string_view msg, std::string_view* name, std::string_view* rest) {
  const size_t colon = msg.find(": ");
  if (colon == std::string_view::npos) return false;
  const std::string_view word = msg.substr(0, colon);
  if (word.find(' ') != std::string_view::npos ||
      !(EndsWith(word, "Error") || EndsWith(word, "Exception"))) {
    return false;
  }
  *name = word;
  *rest = Trim(msg.substr(colon + 2));
  return true;
}

/// `reason` up to a framework's own location suffix (PaddlePaddle's " (at /paddle/...:66)"),
/// which goes to *where.
std::string_view CutLocation(std::string_view reason, std::string_view* where) {
  const size_t at = reason.find(" (at ");
  if (at == std::string_view::npos || !EndsWith(reason, ")")) return reason;
  const std::string_view loc = reason.substr(at + 5, reason.size() - at - 6);
  if (IsSourceLocation(loc)) *where = loc;
  return reason.substr(0, at);
}

/// The text after "NCCL error: " or PyTorch < 1.5's "NCCL Error 2: " (the result's code) at the
/// start of `s`; false when `s` starts with neither.
bool AfterNcclErrorWord(std::string_view s, std::string_view* reason) {
  if (StartsWith(s, "NCCL error: ")) {
    *reason = s.substr(12);
    return true;
  }
  if (!StartsWith(s, "NCCL Error ")) return false;
  const size_t colon = s.find(": ");
  if (colon == std::string_view::npos || colon > 14) return false;
  *reason = s.substr(colon + 2);
  return true;
}

bool Emit(std::string_view exception, std::string_view where, std::string_view reason,
          EventData* data) {
  reason = Trim(reason);
  if (!StartsWithResult(reason)) return false;
  FrameworkNcclError e;
  e.exception = exception;
  e.where = where;
  e.reason = reason;
  *data = e;
  return true;
}

}  // namespace

bool ParseNcclResultError(std::string_view msg, EventData* data) {
  // PaddlePaddle's and TensorRT-LLM's NCCL checks: "Failed, NCCL error
  // /paddle/.../NCCLTools.h:227 'unhandled cuda error'", "[TensorRT-LLM][ERROR] Failed, NCCL
  // error /app/tensorrt_llm/.../allreducePlugin.cpp:353 'unhandled cuda error'".
  if (const size_t at = msg.find("NCCL error /"); at != std::string_view::npos) {
    const std::string_view rest = msg.substr(at + 11);
    const size_t quote = rest.find(" '");
    if (quote != std::string_view::npos && EndsWith(rest, "'") && quote + 3 <= rest.size() &&
        IsSourceLocation(rest.substr(0, quote))) {
      const std::string_view where = rest.substr(0, quote);
      const std::string_view who = Contains(where, "tensorrt_llm") ? "TensorRT-LLM"
                                   : Contains(where, "paddle")     ? "PaddlePaddle"
                                                                   : "";
      return Emit(who, where, rest.substr(quote + 2, rest.size() - quote - 3), data);
    }
  }
  // A glog check of an NCCL call (Caffe, MXNet): "Check failed: result == ncclSuccess (1 vs. 0)
  // unhandled cuda error", "... (2 vs. 0) NCCL error: unhandled system error".
  constexpr std::string_view kCheck = "Check failed: result == ncclSuccess (";
  if (const size_t at = msg.find(kCheck); at != std::string_view::npos) {
    const std::string_view rest = msg.substr(at + kCheck.size());
    const size_t close = rest.find(')');
    if (close == std::string_view::npos) return false;
    std::string_view reason = Trim(rest.substr(close + 1));
    if (StartsWith(reason, "NCCL error: ")) reason.remove_prefix(12);
    return Emit({}, {}, reason, data);  // No exception: the process aborts on the check.
  }
  std::string_view exception, rest;
  if (!SplitException(msg, &exception, &rest)) return false;
  std::string_view where;
  // Horovod and TensorFlow: "ncclAllReduce failed: unhandled cuda error".
  if (StartsWith(rest, "nccl")) return Emit(exception, where, SkipFailedCalls(rest, &where), data);
  // vLLM's pynccl and others: "RuntimeError: NCCL error: unhandled cuda error (run with ...)";
  // PyTorch before 1.5: "RuntimeError: NCCL Error 2: unhandled system error".
  if (std::string_view reason; AfterNcclErrorWord(rest, &reason)) {
    return Emit(exception, where, reason, data);
  }
  // PaddlePaddle: "ExternalError: Nccl error, unhandled system error (at /paddle/...:66)".
  if (StartsWith(rest, "Nccl error, ") || StartsWith(rest, "NCCL error, ")) {
    const std::string_view reason = CutLocation(rest.substr(12), &where);
    return Emit(exception, where, reason, data);
  }
  // RAFT (cuML, cuGraph on Dask): "RuntimeError: NCCL_ERROR: b'unhandled system error'".
  if (StartsWith(rest, "NCCL_ERROR: ")) {
    std::string_view reason = Trim(rest.substr(12));
    if (reason.size() >= 3 && reason.front() == 'b' && (reason[1] == '\'' || reason[1] == '"') &&
        reason.back() == reason[1]) {
      reason = reason.substr(2, reason.size() - 3);
    }
    return Emit(exception, where, reason, data);
  }
  // CuPy: "NcclError: NCCL_ERROR_UNHANDLED_CUDA_ERROR: unhandled cuda error".
  if (StartsWith(rest, "NCCL_ERROR_")) {
    const size_t colon = rest.find(": ");
    if (colon == std::string_view::npos) return false;
    return Emit(exception, where, rest.substr(colon + 2), data);
  }
  return false;
}

std::string_view CutNcclVersion(std::string_view* text) {
  const size_t at = text->rfind(", NCCL version ");
  if (at == std::string_view::npos) return {};
  const std::string_view version = Trim(text->substr(at + 15));
  *text = text->substr(0, at);
  return version;
}

bool ParseNcclWhat(std::string_view what, EventData* data) {
  // PyTorch's c10d check thrown as std::runtime_error: "NCCL error in: .../NCCLUtils.hpp:29,
  // unhandled cuda error".
  if (StartsWith(what, "NCCL error in: ")) {
    if (!ParseNcclErrorIn(what, data)) return false;
    std::get<FrameworkNcclError>(*data).exception = "std::runtime_error";
    return true;
  }
  std::string_view rest;
  if (!AfterNcclErrorWord(what, &rest)) {
    // PaddlePaddle 1.x's enforce of an NCCL call: "unhandled cuda error at
    // [/paddle/paddle/fluid/platform/nccl_helper.h:70]" (the result string, then the check's
    // place in a file named for NCCL).
    const size_t at = what.find(" at [");
    if (at == std::string_view::npos || !EndsWith(what, "]")) return false;
    const std::string_view where = what.substr(at + 5, what.size() - at - 6);
    if (!IsSourceLocation(where) || !(Contains(where, "nccl") || Contains(where, "NCCL"))) {
      return false;
    }
    return Emit(Contains(where, "paddle") ? "PaddlePaddle" : "", where, what.substr(0, at), data);
  }
  const std::string_view version = CutNcclVersion(&rest);
  if (!Emit("std::runtime_error", {}, rest, data)) return false;
  std::get<FrameworkNcclError>(*data).nccl_version = version;
  return true;
}

}  // namespace ncclscope::parse_internal
