// libfabric's own log lines (FI_LOG_LEVEL), printed next to NCCL's when aws-ofi-nccl or another
// libfabric-based net plugin runs:
//   libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa output empty list
//   libfabric:47889:core:core:fi_getinfo_():964<info> fi_getinfo: provider shm returned -61 (...)
// The fields: the package, the pid, (1.10+) the time and an empty log prefix, the provider, the
// subsystem, the function, its line and the level.
#include <string_view>

#include "body_parsers.h"
#include "text_cursor.h"

namespace ncclscope::parse_internal {

bool ParseLibfabricLog(std::string_view text, EventContext* ctx, EventData* data) {
  if (!StartsWith(text, "libfabric:")) return false;
  size_t k = 10;
  uint32_t pid = 0;
  while (k < text.size() && IsDigit(text[k]) && k < 20) pid = pid * 10 + (text[k++] - '0');
  if (k == 10 || k >= text.size() || text[k] != ':') return false;
  const size_t call = text.find("():", k);
  if (call == std::string_view::npos || call - k > 160) return false;
  const size_t lt = text.find('<', call + 3);
  if (lt == std::string_view::npos || lt == call + 3) return false;
  for (size_t d = call + 3; d < lt; ++d) {
    if (!IsDigit(text[d])) return false;
  }
  const size_t gt = text.find('>', lt);
  if (gt == std::string_view::npos || gt - lt > 8) return false;
  const std::string_view level = text.substr(lt + 1, gt - lt - 1);
  const size_t function = text.rfind(':', call - 1) + 1;  // the field separator before it
  std::string_view message = Trim(text.substr(gt + 1));
  // A console copy that holds the record twice (`MESSAGE | libfabric:...`): the first copy.
  if (const size_t again = message.find(" | libfabric:"); again != std::string_view::npos) {
    message = Trim(message.substr(0, again));
  }
  if (level == "warn") {
    // Reported when the knowledge table explains it (Job::notices): libfabric also warns about
    // options it ignores.
    *data = Notice{message};
  } else if (level == "info" || level == "debug" || level == "trace") {
    *data = KnownNoise{"libfabric"};
  } else {
    return false;
  }
  ctx->level = Level::kLibfabric;
  ctx->pid = pid;
  ctx->function = text.substr(function, call + 2 - function);
  ctx->location = text.substr(function, lt - function);
  ctx->body = message;
  return true;
}

bool ParseVerbsWarning(std::string_view text, EventContext* ctx, EventData* data) {
  constexpr std::string_view kHead = "libibverbs: Warning: ";
  if (!StartsWith(text, kHead)) return false;
  const std::string_view message = Trim(text.substr(kHead.size()));
  if (message.empty()) return false;
  // Reported when the knowledge table explains it (Job::notices), like libfabric's warnings.
  *data = Notice{message};
  ctx->level = Level::kVerbs;
  ctx->body = message;
  return true;
}

}  // namespace ncclscope::parse_internal
