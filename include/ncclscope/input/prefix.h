// Recognises and strips the prefixes that collectors and launchers put in front of log lines,
// keeping what they say as LineMeta: kubectl --timestamps (RFC3339 with nanoseconds) and GitHub
// Actions / GitLab / Loki timestamps, kubectl --prefix `[pod/NAME/CONTAINER] `, torchrun --tee
// `[default0]:`, PyTorch `[rank0]:`, mpirun `[1,3]<stdout>:`, horovod `[3]<stdout>:`, srun
// --label `0: `, pdsh / DeepSpeed `10.0.87.143: `, Ray and SkyPilot `(RayWorkerWrapper pid=1,
// ip=10.0.0.3) `, syslog / journald `Nov 22 10:00:01 host python3[1234]: `, CloudWatch
// `  | 2025-05-16T16:39:55.218-07:00 | `, docker compose `svc-1  | `, ANSI colour codes (also with
// the ESC byte lost), markdown quotes and pasted line numbers. Prefixes may stack, in any order.
// Prefixes nobody planned for are left in the text: the parser finds NCCL's own head behind them.
#ifndef NCCLSCOPE_INPUT_PREFIX_H_
#define NCCLSCOPE_INPUT_PREFIX_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "ncclscope/base/byte_words.h"
#include "ncclscope/input/line.h"

namespace ncclscope {

/// Strips prefixes from `raw`. Returns the remaining text; fills *meta. When ANSI codes must be
/// removed the result is built in *scratch (so it lives as long as *scratch); otherwise the result
/// and meta views point into `raw`.
std::string_view StripPrefixes(std::string_view raw, LineMeta* meta, std::string* scratch);


/// True when `raw` cannot start with any prefix: it starts with a letter and, in its first 8
/// bytes, a ':' followed by a digit comes before any blank, as in every bare NCCL line
/// ("host:pid:tid ..."). Prefixes that start with a letter (docker compose, pdsh, syslog) put a
/// blank before any such colon.
inline bool HasNoPrefix(std::string_view raw) {
  if (raw.size() < 9) return false;
  const char c = raw.front();
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  const uint64_t w = byte_words::Load8(raw.data());
  const uint64_t colon = byte_words::BytesEqual(w, ':');
  const uint64_t blank = byte_words::BytesEqual(w, ' ');
  if (colon == 0) return false;
  const int at = byte_words::FirstMarked(colon);
  if (blank != 0 && byte_words::FirstMarked(blank) < at) return false;
  const char next = raw[static_cast<size_t>(at) + 1];
  return next >= '0' && next <= '9';
}

/// Strips the stacked prefixes of an ESC-free text into *meta (which the caller reset).
std::string_view StripStackedPrefixes(std::string_view s, LineMeta* meta);

/// StripPrefixes for a line known to hold no ESC byte (LineReader::line_is_plain): skips the
/// ANSI search; the result and meta views point into `raw`. Inline: most lines are bare NCCL
/// lines (HasNoPrefix) and cost no call.
inline std::string_view StripPrefixesNoAnsi(std::string_view raw, LineMeta* meta) {
  meta->Clear();
  if (HasNoPrefix(raw)) return raw;
  return StripStackedPrefixes(raw, meta);
}

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_PREFIX_H_
