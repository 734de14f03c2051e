// DispatchProcessEnd: which family parser may take a line that is not a ProcessGroupNCCL message.
// Each family rejects a foreign line within a few bytes; the first-byte switch skips the ones
// that cannot match, since every application output line comes through here.
#include <string_view>

#include "process_end_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {
namespace {

bool Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!IsDigit(s[i])) return false;
  }
  return true;
}

/// "YYYY-MM-DD HH:MM:SS[,.]frac" at the start of s: its length, else 0.
size_t IsoLength(std::string_view s) {
  if (!(Digits(s, 0, 4) && s.size() >= 19 && s[4] == '-' && Digits(s, 5, 2) && s[7] == '-' &&
        Digits(s, 8, 2) && (s[10] == ' ' || s[10] == 'T') && Digits(s, 11, 2) && s[13] == ':' &&
        Digits(s, 14, 2) && s[16] == ':' && Digits(s, 17, 2))) {
    return 0;
  }
  size_t n = 19;
  if (n < s.size() && (s[n] == ',' || s[n] == '.')) {
    ++n;
    while (n < s.size() && IsDigit(s[n])) ++n;
  }
  return n;
}

constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/// syslog "Nov 22 10:00:01" (day space-padded) at the start of s: its length, else 0.
size_t SyslogLength(std::string_view s) {
  if (s.size() < 15) return 0;
  bool month = false;
  for (std::string_view m : kMonths) month = month || StartsWith(s, m);
  if (!month || s[3] != ' ') return 0;
  if (!((s[4] == ' ' || IsDigit(s[4])) && IsDigit(s[5]) && s[6] == ' ')) return 0;
  if (!(Digits(s, 7, 2) && s[9] == ':' && Digits(s, 10, 2) && s[12] == ':' && Digits(s, 13, 2))) {
    return 0;
  }
  return 15;
}

}  // namespace

/// ctime "Mon Nov 23 11:39:07 2026" (dmesg -T) at the start of s: its length, else 0.
size_t CtimeLength(std::string_view s) {
  static constexpr std::string_view kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  bool day = false;
  for (std::string_view d : kDays) day = day || StartsWith(s, d);
  if (!day || s.size() < 24 || s[3] != ' ') return 0;
  const size_t n = SyslogLength(s.substr(4));
  if (n == 0 || s.size() < 4 + n + 5 || s[4 + n] != ' ' || !Digits(s, 5 + n, 4)) return 0;
  return 4 + n + 5;
}

std::string_view LeadingTimestamp(std::string_view line) {
  if (!line.empty() && line.front() == '[') {
    const std::string_view in = line.substr(1);
    size_t n = IsoLength(in);
    if (n == 0) n = CtimeLength(in);
    if (n > 0 && n + 1 < line.size() && line[n + 1] == ']') return line.substr(1, n);
    return {};
  }
  if (size_t n = IsoLength(line); n > 0) return line.substr(0, n);
  if (size_t n = SyslogLength(line); n > 0) return line.substr(0, n);
  return {};
}

bool ReadHandlerHostPid(std::string_view who, ProcessExit* e, std::string_view* rest) {
  const size_t colon = who.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  e->reporter = ExitReporter::kPython;
  e->node = who.substr(0, colon);
  TextCursor c(who.substr(colon + 1));
  if (!c.ReadInt(&e->pid) || e->pid <= 0) return false;
  *rest = c.rest();
  return true;
}

bool DispatchProcessEnd(std::string_view msg, bool header, bool indented, EventContext* ctx,
                        EventData* data) {
  if (msg.empty()) return false;
  if (indented) {
    return ParseTorchelasticField(msg, data) || ParseMpirun(msg, data) ||
           ParseKubernetes(msg, data) || ParsePythonLine(msg, true, data);
  }
  std::string_view stamped;  // the rest of a line after its leading timestamp
  if (!header) {
    if (std::string_view ts = LeadingTimestamp(msg); !ts.empty()) {
      ctx->timestamp = ts;
      const size_t end = static_cast<size_t>(ts.data() + ts.size() - msg.data()) +
                         (msg.front() == '[' ? 1 : 0);
      stamped = Trim(msg.substr(end));
    }
  }
  // A process's own signal handler behind a timestamp ("2026-08-31 12:27:50 [host:956] Signal:
  // Segmentation fault (11)").
  if (!stamped.empty() && stamped.front() == '[' &&
      (ParseCaughtSignal(stamped, data) || ParseOpalSignal(stamped, data))) {
    return true;
  }
  switch (msg.front()) {
    case 'm':
    case 'P':
      if (ParseMpirun(msg, data)) return true;
      // The test harness's next "Process 2 exited with error code 10 and exception:" (the first
      // one is the message of its RuntimeError).
      if (msg.front() == 'P' && ParseTestHarness(msg, data)) return true;
      break;
    case 's':
      if (ParseSlurm(msg, data)) return true;
      break;
    case 'K':  // DeepSpeed's "Killing subprocess N" once its logger head is stripped
      if (ParseDeepSpeed(msg, data)) return true;
      break;
    case '[':
      if (ParseDeepSpeed(msg, data) || ParseCaughtSignal(msg, data) || ParseOpalSignal(msg, data))
        return true;
      break;
    case 'R':  // `kubectl describe pod`: the pod's own "Reason:   Evicted"
      if (ParseKubernetes(msg, data) || ParseTestHarness(msg, data)) return true;
      break;
    case 'E':  // a line of PyTorch's multi-line assertion message in the test harness
      if (ParseTestHarness(msg, data)) return true;
      break;
    default:
      break;
  }
  if (ParseTorchelastic(msg, data) || ParsePythonLine(msg, false, data) ||
      ParseKernelOom(msg, data) || ParseRay(msg, data) || ParseVllmWorkerDied(msg, data)) {
    return true;
  }
  // "*** JOB 12 ON node7 CANCELLED AT ..." without the slurmstepd head.
  return msg.front() == '*' && ParseSlurm(msg, data);
}

}  // namespace ncclscope::parse_internal
