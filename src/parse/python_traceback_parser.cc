// What a Python process prints when it dies: a traceback and its exception, a fatal signal
// (faulthandler), or an uncaught C++ exception:
//   [rank1]: Traceback (most recent call last):
//   [rank1]:   File "/work/train.py", line 49, in train_step
//   [rank1]: ValueError: loss became NaN at step 3
//   Fatal Python error: Segmentation fault
//   terminate called after throwing an instance of 'c10::DistBackendError'
// Every line is one event; the model stitches frames to the exception of the same rank.
#include <string_view>

#include "ncclscope/base/ascii.h"
#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {


/// Length of a dotted Python type name at the start of `s` whose last part names an exception
/// ("ValueError", "torch.OutOfMemoryError", "KeyboardInterrupt"); 0 otherwise.
size_t ExceptionTypeLength(std::string_view s) {
  if (s.empty() || !(IsAlpha(s[0]) || s[0] == '_')) return 0;
  size_t n = 0;
  size_t last = 0;
  while (n < s.size() && (ascii::IsWordChar(s[n]) || s[n] == '.')) {
    if (s[n] == '.') last = n + 1;
    ++n;
  }
  const std::string_view name = s.substr(last, n - last);
  if (name.size() <= 5) return 0;  // "Error" alone is too generic a word
  if (!(EndsWith(name, "Error") || EndsWith(name, "Exception") || EndsWith(name, "Interrupt") ||
        name == "SystemExit")) {
    return 0;
  }
  // Ray names the exception a remote task raised after its own: "ray.exceptions.RayTaskError(
  // NcclError): ray::Worker.compute() (pid=35381, ip=10.223.22.25, ...)".
  if (n < s.size() && s[n] == '(') {
    size_t close = n + 1;
    while (close < s.size() && (ascii::IsWordChar(s[close]) || s[close] == '.')) ++close;
    const std::string_view inner = s.substr(n + 1, close - n - 1);
    if (close == s.size() || s[close] != ')' ||
        !(EndsWith(inner, "Error") || EndsWith(inner, "Exception"))) {
      return 0;
    }
    n = close + 1;
  }
  if (n == s.size()) return n;
  if (s[n] == ':' && (n + 1 == s.size() || s[n + 1] == ' ')) return n;
  return 0;
}

}  // namespace

bool ParsePythonLine(std::string_view line, bool indented, EventData* data) {
  std::string_view t = Trim(line);
  if (t.empty()) return false;
  Traceback tb;
  tb.indented = indented;
  // The traceback's first line; also at the end of a logger's message that introduces it
  // (SGLang: "Scheduler hit an exception: Traceback (most recent call last):").
  constexpr std::string_view kStart = "Traceback (most recent call last):";
  if (t == kStart || (t.size() > kStart.size() + 2 && EndsWith(t, kStart) &&
                      t.substr(t.size() - kStart.size() - 2, 2) == ": ")) {
    tb.kind = TracebackKind::kStart;
    *data = tb;
    return true;
  }
  // A test runner's status line with the process's own stderr glued on (unittest -v:
  // "test_broadcast_ops (__main__.ProcessGroupNCCLTest) ... terminate called after throwing an
  // instance of 'std::runtime_error'"): the abort is the test process's.
  // Such a line ends in the quoted type, which keeps the search off every other line.
  constexpr std::string_view kGluedTerminate = " ... terminate called after throwing an instance";
  if (t.back() == '\'') {
    if (const size_t at = t.find(kGluedTerminate); at != std::string_view::npos) t = t.substr(at + 5);
  }
  switch (t.front()) {
    case 'F':
      if (StartsWith(t, "File \"") && indented) {
        // File "/work/train.py", line 49, in train_step
        const size_t q = t.find('"', 6);
        if (q == std::string_view::npos) return false;
        tb.kind = TracebackKind::kFrame;
        tb.file = t.substr(6, q - 6);
        TextCursor c(t.substr(q + 1));
        if (!c.Eat(", line ") || !c.ReadInt(&tb.line)) return false;
        if (c.Eat(", in ")) tb.function = Trim(c.rest());
        *data = tb;
        return true;
      }
      if (StartsWith(t, "Fatal Python error: ")) {
        std::string_view what = t.substr(20);
        // Two processes dying at once interleave: "Fatal Python error: Fatal Python error: X".
        while (StartsWith(what, "Fatal Python error: ")) what.remove_prefix(20);
        tb.kind = TracebackKind::kFatalSignal;
        tb.type = Trim(what);
        *data = tb;
        return true;
      }
      break;
    case 't':
      if (StartsWith(t, "terminate called after throwing an instance of ")) {
        std::string_view type = t.substr(47);
        if (type.size() >= 2 && type.front() == '\'') type = type.substr(1, type.find('\'', 1) - 1);
        tb.kind = TracebackKind::kCppTerminate;
        tb.type = type;
        *data = tb;
        return true;
      }
      break;
    default:
      break;
  }
  const size_t n = ExceptionTypeLength(t);
  if (n == 0) return false;
  tb.kind = TracebackKind::kException;
  tb.type = t.substr(0, n);
  tb.message = n < t.size() ? Trim(t.substr(n + 1)) : std::string_view();
  // The test harness's verdict on a test process, raised in the harness's own process.
  if (ParseTestHarness(tb.message, data)) return true;
  *data = tb;
  return true;
}

}  // namespace ncclscope::parse_internal
