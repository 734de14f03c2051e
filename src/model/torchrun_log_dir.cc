// ParseTorchrunLogDirPath: torchrun's per-attempt, per-rank log files (see the header).
#include "torchrun_log_dir.h"

namespace ncclscope {
namespace {

/// Digits at s[*k] (at most 6) as a number, moving past them; -1 if none.
int ReadSmall(std::string_view s, size_t* k) {
  const size_t start = *k;
  int v = 0;
  while (*k < s.size() && *k - start < 6 && s[*k] >= '0' && s[*k] <= '9')
    v = v * 10 + (s[(*k)++] - '0');
  return *k > start ? v : -1;
}

}  // namespace

TorchrunLogDirFile ParseTorchrunLogDirPath(std::string_view path) {
  constexpr std::string_view kAttempt = "attempt_";
  for (size_t at = path.rfind(kAttempt); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : path.rfind(kAttempt, at - 1)) {
    if (at > 0 && path[at - 1] != '/') continue;
    size_t k = at + kAttempt.size();
    const int attempt = ReadSmall(path, &k);
    if (attempt < 0 || k >= path.size() || path[k] != '/') continue;
    ++k;
    const int local_rank = ReadSmall(path, &k);
    if (local_rank < 0 || k >= path.size() || path[k] != '/') continue;
    const std::string_view file = path.substr(k + 1);
    if (file == "stdout.log" || file == "stderr.log" || file == "error.json") {
      return TorchrunLogDirFile{attempt, local_rank};
    }
  }
  return {};
}

}  // namespace ncclscope
