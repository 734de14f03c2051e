// Lines that are no NCCL message but whose shape is known: PyTorch's c10/glog lines and C++
// backtrace frames, PyTorch's "Last error:" line (also behind a logger's head) and its
// ProcessGroupNCCL option dump, the output of vLLM's NCCL sanity-check script, test runners'
// lines (GoogleTest, CTest) and an uncaught C++ exception's `what():` (body_parsers.h).
#include <string_view>

#include "body_parsers.h"
#include "ncclscope/base/ascii.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

/// A frame of a c10 exception's C++ backtrace: `frame #1: c10d::ProcessGroupNCCL::WorkNCCL::
/// checkTimeout(...) + 0x2b4 (0x7fc741429c74 in /usr/local/lib/.../libtorch_cuda.so)`.
bool IsCppFrameLine(std::string_view text) {
  // glibc's backtrace_symbols(), as PyTorch prints a watchdog's abort on some builds:
  // `/usr/lib/.../libtorch_cuda.so(+0xe5c7aa) [0x14d1948877aa] c10d::ProcessGroupNCCL::
  // ncclCommWatchdog()`, `/usr/lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x1501685e0ac3]`.
  if (StartsWith(text, "/")) {
    const size_t open = text.find('(');
    const size_t addr = text.find(") [0x");
    return open != std::string_view::npos && addr != std::string_view::npos && open < addr &&
           text.substr(open, addr - open).find("+0x") != std::string_view::npos &&
           text.find(']', addr) != std::string_view::npos;
  }
  if (!StartsWith(text, "frame #")) return false;
  size_t k = 7;
  while (k < text.size() && IsDigit(text[k])) ++k;
  return k > 7 && text.substr(k, 2) == ": " && text.find(" in ") != std::string_view::npos;
}

bool IsIpythonCurrentLine(std::string_view trimmed) {
  size_t k = 0;
  while (k < trimmed.size() && trimmed[k] == '-') ++k;
  if (k < 2 || trimmed.substr(k, 2) != "> ") return false;
  k += 2;
  const size_t digits = k;
  while (k < trimmed.size() && IsDigit(trimmed[k])) ++k;
  return k > digits && k < trimmed.size() && trimmed[k] == ' ';
}

/// A PyTorch c10 or glog line (`[W1121 13:40:45.8 ProcessGroupNCCL.cpp:1575] ...`, `[E
/// ProcessGroupNCCL.cpp:542] ...`, `I0527 15:16:51.665375 58626 ProcessGroupNCCL.cpp:869] ...`,
/// after an optional `[rankN]:`), a c10 exception's `Exception raised from X at
/// file.cpp:N (most recent call first):` or a frame of its backtrace: framework output whose
/// message no parser reads.
bool IsTorchLogLine(std::string_view text) {
  if (StartsWith(text, "[rank")) {
    const size_t close = text.find("]:");
    if (close == std::string_view::npos || close > 16) return false;
    text.remove_prefix(close + 2);
    text = Trim(text);
  }
  if (StartsWith(text, "Exception raised from ")) return text.find(".cpp:") != std::string_view::npos;
  if (IsCppFrameLine(text)) return true;
  const bool bracket = !text.empty() && text.front() == '[';
  std::string_view h = bracket ? text.substr(1) : text;
  if (h.size() < 8) return false;
  const char sev = h.front();
  if (sev != 'F' && sev != 'E' && sev != 'W' && sev != 'I' && sev != 'V') return false;
  if (!(IsDigit(h[1]) || (bracket && h[1] == ' '))) return false;
  const size_t end = h.find("] ");
  if (end == std::string_view::npos || end > 160) return false;
  const std::string_view header = h.substr(0, end);
  return header.find(".cpp:") != std::string_view::npos ||
         header.find(".cc:") != std::string_view::npos || header.find(".h:") != std::string_view::npos;
}

/// PyTorch's "Last error:" line, alone or behind a logger's head that the input layer does not
/// strip (vLLM's `ERROR 04-07 00:57:46 ray_utils.py:45] Last error:`): *head is that head.
bool IsLastErrorLine(std::string_view trimmed, std::string_view* head) {
  constexpr std::string_view kLastError = "Last error:";
  if (!trimmed.ends_with(kLastError)) return false;
  *head = trimmed.substr(0, trimmed.size() - kLastError.size());
  if (head->empty()) return true;
  // A head: a short run ending in "] " (a logger's `file.py:N] `), not a sentence.
  return head->size() <= 96 && head->ends_with("] ");
}

/// The output of vLLM's NCCL sanity-check script (its troubleshooting guide; copies in Aphrodite
/// and others): "PyTorch NCCL is successful!", "vLLM NCCL with cuda graph is successful!", also
/// several prints glued on one line. Each sentence is one word, " NCCL", an optional " with
/// cuda graph", and " is successful!".
bool IsSanityCheckOutput(std::string_view text) {
  constexpr std::string_view kDone = " is successful!";
  if (!text.ends_with(kDone) || text.size() > 400) return false;
  while (!text.empty()) {
    const size_t done = text.find(kDone);
    if (done == std::string_view::npos) return false;
    std::string_view s = text.substr(0, done);
    text.remove_prefix(done + kDone.size());
    for (std::string_view tail : {" with cuda graph", " with CUDA Graph", " with CUDA graph"}) {
      if (s.ends_with(tail)) s.remove_suffix(tail.size());
    }
    if (!s.ends_with(" NCCL")) return false;
    s.remove_suffix(5);
    if (s.empty() || s.size() > 24 || s.find(' ') != std::string_view::npos) return false;
  }
  return true;
}

bool IsTorchOptionLine(std::string_view trimmed) {
  std::string_view name = trimmed;
  if (name.starts_with("TORCH_")) name.remove_prefix(6);
  if (!name.starts_with("NCCL_") || trimmed.size() > 80) return false;
  const size_t colon = name.find(": ");
  if (colon == std::string_view::npos || colon <= 5) return false;
  for (char c : name.substr(0, colon)) {
    if (!ascii::IsWordChar(c) || ascii::IsLower(c)) return false;  // A-Z, 0-9, _
  }
  const std::string_view value = name.substr(colon + 2);
  return !value.empty() && value.find(' ') == std::string_view::npos;
}

bool IsTestRunnerLine(std::string_view trimmed) {
  // GoogleTest: a 12-character status column.
  static constexpr std::string_view kGtest[] = {"[ RUN      ] ", "[       OK ] ", "[  FAILED  ] ",
                                                "[----------] ", "[==========] ", "[  PASSED  ] ",
                                                "[  SKIPPED ] "};
  for (std::string_view g : kGtest) {
    if (trimmed.starts_with(g)) return true;
  }
  // CTest: "152/152 Test #151: ProcessGroupNCCLTest ....... Bus error***Exception:  60.53 sec".
  TextCursor c(trimmed);
  int done = 0, total = 0, number = 0;
  return c.ReadInt(&done) && c.Eat("/") && c.ReadInt(&total) && (c.SkipSpaces(), c.Eat("Test #")) &&
         c.ReadInt(&number) && c.Eat(": ") && trimmed.ends_with(" sec");
}

std::string_view CppWhatText(std::string_view trimmed) {
  constexpr std::string_view kWhat = "what():";
  if (!trimmed.starts_with(kWhat)) return {};
  return Trim(trimmed.substr(kWhat.size()));
}

bool IsLauncherEnvLine(std::string_view trimmed, std::string_view* name, std::string_view* value) {
  size_t k = 0;
  while (k < trimmed.size() && k < 6 && IsDigit(trimmed[k])) ++k;
  if (k == 0 || k >= trimmed.size() || trimmed[k] != ' ') return false;
  const size_t start = ++k;
  while (k < trimmed.size() && ((trimmed[k] >= 'A' && trimmed[k] <= 'Z') || IsDigit(trimmed[k]) ||
                                trimmed[k] == '_')) {
    ++k;
  }
  if (k == start || k + 1 >= trimmed.size() || (trimmed[k] != '=' && trimmed[k] != ' ')) return false;
  *name = trimmed.substr(start, k - start);
  if (name->find("NCCL") == std::string_view::npos) return false;
  *value = trimmed.substr(k + 1);
  return !value->empty() && value->find(' ') == std::string_view::npos;
}

bool IsFrameworkNotice(std::string_view trimmed) {
  static constexpr std::string_view kNotices[] = {
      "NCCL backend in DeepSpeed not yet implemented",  // deepspeed/comm (0.7-0.9)
  };
  for (std::string_view n : kNotices) {
    if (trimmed == n) return true;
  }
  return false;
}

}  // namespace ncclscope::parse_internal
