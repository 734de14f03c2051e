// PyTorch's multiprocess test harness (torch.testing._internal.common_distributed,
// MultiProcessTestCase._check_return_codes) on how its test processes ended. Process i is rank i
// of the test's process group. It checks, in this order:
//   RuntimeError: Process 1 exited with error code 10 and exception:   (a traceback follows)
//   RuntimeError: Process 1 terminated or timed out after 100.07 seconds
//                 (also "Rank 1 terminated or timed out after ...", "Process 1 timed out after")
//   AssertionError: 0 != -11 : Expect process 1 exit code to match Process 0 exit code of 0,
//                 but got -11                      (also "Expect rank1 exit code to match rank 0")
//   AssertionError: False is not true : Expected zero exit code but got -11 [for pid: 4312]
// so the last one means that every process exited with that code. Each form may also stand on a
// line of its own (PyTorch's multi-line assertion messages). Python reports a process killed by
// a signal as the negative signal number.
#include <string_view>

#include "ncclscope/base/signals.h"
#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

/// "Process 1" / "Rank 1" / "process 1" / "rank1" at the cursor: the index.
bool ReadProcessIndex(TextCursor* c, int* index) {
  if (!(c->Eat("Process") || c->Eat("process") || c->Eat("Rank") || c->Eat("rank"))) return false;
  c->Eat(' ');
  return c->ReadInt(index) && *index >= 0;
}

/// The exit code as Python's multiprocessing reports it: a negative value is the signal (a
/// positive one is the process's own, even above 128).
void SetExitCode(int code, ProcessExit* e) {
  e->exit_code = code;
  if (code < 0) e->signal = SignalFromExitCode(code).value_or(0);
}

/// "Process N exited with error code C and exception:" / "Process N terminated or timed out
/// after T seconds" / "Process N timed out after T seconds" at the start of `text`.
bool ParseProcessReport(std::string_view text, ProcessExit* e) {
  TextCursor c(text);
  int index = -1;
  if (!ReadProcessIndex(&c, &index) || !c.Eat(' ')) return false;
  if (c.Eat("exited with error code ")) {
    int code = 0;
    if (!c.ReadInt(&code) || !c.Eat(" and exception")) return false;
    e->rank = index;
    SetExitCode(code, e);
    e->reason = kHarnessRaisedReason;
    return true;
  }
  if (!(c.Eat("terminated or timed out after ") || c.Eat("timed out after "))) return false;
  double seconds = 0;
  if (!c.ReadDouble(&seconds)) return false;
  e->rank = index;
  e->timed_out = true;
  e->reason = Trim(text);
  return true;
}

/// "Expect process N exit code to match Process 0 exit code of C, but got E" anywhere in
/// `text`: the process whose code is not 0 failed (process N when both are not).
bool ParseCodeMismatch(std::string_view text, ProcessExit* e) {
  size_t at = text.find("Expect process ");
  if (at == std::string_view::npos) at = text.find("Expect rank");
  if (at == std::string_view::npos) return false;
  TextCursor c(text.substr(at + 7));
  int index = -1, first = 0, got = 0;
  if (!ReadProcessIndex(&c, &index) || !c.Eat(" exit code to match ")) return false;
  int zero = -1;
  if (!ReadProcessIndex(&c, &zero) || zero != 0 || !c.Eat(" exit code of ") ||
      !c.ReadInt(&first)) {
    return false;
  }
  c.Eat(',');
  if (!c.Eat(" but got ") || !c.ReadInt(&got)) return false;
  const bool first_failed = got == 0 && first != 0;
  e->rank = first_failed ? 0 : index;
  SetExitCode(first_failed ? first : got, e);
  e->reason = "exit code differs from the other test processes'";
  return true;
}

/// "Expected zero exit code but got E" anywhere in `text`: every test process exited with E
/// (the harness compared each one with process 0 first), so no single rank is named.
bool ParseNonZeroExit(std::string_view text, ProcessExit* e) {
  constexpr std::string_view kPhrase = "Expected zero exit code but got ";
  const size_t at = text.find(kPhrase);
  if (at == std::string_view::npos) return false;
  TextCursor c(text.substr(at + kPhrase.size()));
  int code = 0;
  if (!c.ReadInt(&code) || code == 0) return false;
  // " for pid: N" (newer versions) is process 0's: every process ended alike, so not kept.
  SetExitCode(code, e);
  e->reason = "every test process exited with this code";
  return true;
}

}  // namespace

bool ParseTestHarness(std::string_view text, EventData* data) {
  ProcessExit e;
  e.reporter = ExitReporter::kTestHarness;
  if (!ParseProcessReport(text, &e) && !ParseCodeMismatch(text, &e) &&
      !ParseNonZeroExit(text, &e)) {
    return false;
  }
  *data = e;
  return true;
}

}  // namespace ncclscope::parse_internal
