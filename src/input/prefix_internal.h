// The prefix matchers behind StripStackedPrefixes, one family per file:
//   prefix_time.cc      timestamps first: kubectl --timestamps, CloudWatch, GitLab, Loki, syslog
//   prefix_launcher.cc  launchers: torchrun, PyTorch, mpirun, horovod, srun, pdsh, Ray/SkyPilot
//   prefix_logger.cc    Python loggers' heads: vLLM, DeepSpeed, Hugging Face, loguru, logging
//   prefix_collector.cc collectors and paste damage: docker compose, journald/syslog tails,
//                       markdown quotes, line numbers, ANSI colour codes that lost their ESC
// Each matcher looks at the start of the text only, returns the length of the prefix it
// recognised (0 when none) and records what the prefix says in *meta.
#ifndef NCCLSCOPE_INPUT_PREFIX_INTERNAL_H_
#define NCCLSCOPE_INPUT_PREFIX_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ncclscope/base/ascii.h"
#include "ncclscope/input/line.h"

namespace ncclscope::prefix_internal {

using ascii::IsAlpha;
using ascii::IsDigit;
using ascii::IsHex;
using ascii::IsLower;

/// True if `s` starts with NCCL's own head `host:pid:tid ` (or `NCCL `), or with a bracketed or
/// parenthesised prefix: what may follow a pasted line number or a logger's timestamp.
bool StartsWithHeadOrPrefix(std::string_view s);
/// True if s[i, i+n) are all digits (false when the text is too short).
bool Digits(std::string_view s, size_t i, size_t n);
/// Parses 1..7 digits at s[*i] (and no more digits after them); advances *i. -1 if none.
int ParseRank(std::string_view s, size_t* i);
/// Parses 1..9 digits at s[*i] as an unsigned pid; advances *i. False if none or too many.
bool ParsePid(std::string_view s, size_t* i, uint32_t* pid);

// When the same kind of collector prefix appears twice, the outermost one (the collector's) wins;
// the identity of the printing process is the innermost one (closest to the text).
void SetRank(LineMeta* meta, int rank);
void SetView(std::string_view* field, std::string_view value);

/// Length of an RFC 3339 timestamp at s[i...] (`2025-05-16T16:39:55[.frac](Z|+hh:mm|+hhmm)`), or 0.
size_t Rfc3339Length(std::string_view s, size_t i);

// ---- prefix_time.cc ---------------------------------------------------------------------------
/// Text starting with an RFC 3339 timestamp: kubectl --timestamps / GitHub Actions (`TIME `),
/// CloudWatch (`TIME | `), GitLab (`TIME 00O+ `), Loki logcli (`TIME {labels} `). 0 if none.
size_t MatchTimestamp(std::string_view s, LineMeta* meta);
/// A logger's `2020-11-08 20:25:49[.frac] ` before another prefix or a NCCL head (a plain log
/// line's own timestamp, `2020-11-08 20:25:49,123 INFO ...`, stays). 0 if none.
size_t MatchDateTimeBeforePrefix(std::string_view s, LineMeta* meta);
/// syslog / journald short format: `Nov 22 10:00:01[.frac] HOST IDENT[PID]: `. 0 if none.
size_t MatchSyslog(std::string_view s, LineMeta* meta);
/// SGLang's logger: `[2025-02-24 14:09:34 TP14] `, `[2025-04-21 07:28:41 DP1 TP3] ` (the time,
/// then the process's parallel ranks). The TP rank is the launcher rank when no DP, PP or CP
/// rank comes with it (those make the job's rank another number).
size_t MatchBracketedTimeRanks(std::string_view s, LineMeta* meta);
/// Length of a clock `HH:MM:SS` [`.frac` | `,frac`] at s[k...], or 0.
size_t ClockLength(std::string_view s, size_t k);
/// A clock before the text, `02:56:49 ` (Jenkins' timestamper plugin). 0 if none.
size_t MatchClock(std::string_view s, LineMeta* meta);
/// A build server's clock before each line, `[11:00:17]` and a tab or blank (TeamCity).
size_t MatchBracketedClock(std::string_view s, LineMeta* meta);

// ---- prefix_logger.cc -------------------------------------------------------------------------
/// A Python logger's head before a framework message: vLLM `ERROR 08-05 14:13:44 [file.py:N] `,
/// DeepSpeed `[DATE CLOCK] [INFO] [file.py:N:func] `, Hugging Face `[INFO|file.py:N] DATE CLOCK
/// >> `, loguru `DATE CLOCK | ERROR | mod:func:N - `, logging `DATE CLOCK - name - ERROR - `, or
/// a level word behind a timestamp an earlier prefix of the line took. 0 if none.
size_t MatchLoggerHead(std::string_view s, LineMeta* meta);

// ---- prefix_launcher.cc -----------------------------------------------------------------------
/// Prefixes starting with '[': kubectl `[pod/NAME/CONTAINER] `, mpirun `[1,3]<stdout>:`, horovod
/// `[3]<stdout>:`, torchrun `[default0]:`, PyTorch `[rank0]:`, ESC-less colour codes `[36m`.
size_t MatchBracket(std::string_view s, LineMeta* meta);
/// An ANSI colour code whose ESC byte was lost or spelled out: `[36m`, `ESC[0m`.
size_t MatchEscLessSgr(std::string_view s, LineMeta* meta);
/// An ESC-less ANSI colour code at s[0] (`[36m`, `[0m`, `[1;32m`: the ESC byte was lost in a
/// copy-paste): its length with one following blank, or 0.
size_t EscLessSgrLength(std::string_view s);
/// srun --label `3: ` (also zero-padded `03: `).
size_t MatchSrun(std::string_view s, LineMeta* meta);
/// pdsh / DeepSpeed host prefix `10.0.87.143: `, `node7: `, `localhost: `.
size_t MatchPdsh(std::string_view s, LineMeta* meta);
/// `stderr: ` / `stdout: ` that test runners put before a child process's captured output
/// (accelerate's `accelerate test`, transformers' execute_subprocess_async).
size_t MatchStreamName(std::string_view s);
/// Ray and SkyPilot workers: `(RayWorkerWrapper pid=909608, ip=10.0.0.3) `, `(pid=12) `,
/// `(worker1, rank=1, pid=2396, ip=10.0.0.2) `.
size_t MatchParenIdentity(std::string_view s, LineMeta* meta);

// ---- prefix_collector.cc ----------------------------------------------------------------------
/// docker compose `svc-1  | `.
size_t MatchCompose(std::string_view s, LineMeta* meta);
/// The tail of a syslog line after its timestamp: `HOST IDENT[PID]: ` (or `HOST IDENT: ` unless
/// `require_pid`).
size_t SyslogTailLength(std::string_view s, bool require_pid, LineMeta* meta);
/// SyslogTailLength with a pid required: the tail behind an ISO timestamp already stripped
/// (journalctl -o short-iso).
size_t MatchSyslogTail(std::string_view s, LineMeta* meta);
/// Markdown quoting `> ` (and `>` alone before a space).
size_t MatchQuote(std::string_view s, LineMeta* meta);
/// A line number pasted in front: `459\t`, `   459\t`, or `459 ` before another prefix or a NCCL
/// line.
size_t MatchLineNumber(std::string_view s, LineMeta* meta);
/// Prefixes starting with blanks: CloudWatch `  | TIME | ` (also `  | TIME` glued to the message
/// by the console's copy), padded srun labels `  3: `, padded line numbers.
size_t MatchSpace(std::string_view s, LineMeta* meta);

}  // namespace ncclscope::prefix_internal

#endif  // NCCLSCOPE_INPUT_PREFIX_INTERNAL_H_
