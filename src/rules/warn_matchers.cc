#include "warn_matchers.h"

#include "rule_util.h"

namespace ncclscope::rules_internal {

bool IsBenignWarning(const WarnRecord& w) {
  const std::string& m = w.message;
  return ContainsNoCase(m, "dlvsym failed on") || ContainsNoCase(m, "Failed to open libibverbs") ||
         ContainsNoCase(m, "Could not find: libnccl-env") ||
         ContainsNoCase(m, "Could not find: libnccl-profiler") ||
         ContainsNoCase(m, "Could not find: libnccl-tuner");
}

bool IsShmWarning(const WarnRecord& w) {
  if (IsBenignWarning(w)) return false;
  if (w.category == WarnCategory::kShm) return true;
  const std::string& m = w.message;
  return ContainsNoCase(m, "shared memory") || ContainsNoCase(m, "/dev/shm") ||
         ContainsNoCase(m, "posix_fallocate") || ContainsNoCase(m, "shm_open");
}

bool IsInterfaceWarning(const WarnRecord& w) {
  const std::string& m = w.message;
  return ContainsNoCase(m, "no socket interface found") ||
         ContainsNoCase(m, "No usable listening interface");
}

bool IsConnectionWarning(const WarnRecord& w) {
  if (IsInterfaceWarning(w) || IsShmWarning(w)) return false;
  return w.category == WarnCategory::kSocket || w.category == WarnCategory::kProxy ||
         w.category == WarnCategory::kBootstrap;
}

bool IsCudaWarning(const WarnRecord& w) {
  if (IsShmWarning(w)) return false;
  return w.category == WarnCategory::kCuda || ContainsNoCase(w.message, "Cuda failure");
}

bool IsNetRuntimeWarning(const WarnRecord& w) {
  if (IsBenignWarning(w) || IsNetPluginWarning(w)) return false;
  const std::string& m = w.message;
  if (w.category == WarnCategory::kIb) return true;
  if (w.category == WarnCategory::kOfi) return true;  // non-init OFI warnings: runtime errors
  return ContainsNoCase(m, "ibv_") || ContainsNoCase(m, "memlock") ||
         ContainsNoCase(m, "completed with error") || ContainsNoCase(m, "Got completion");
}

bool IsNetPluginWarning(const WarnRecord& w) {
  if (IsBenignWarning(w)) return false;
  const std::string& m = w.message;
  if (ContainsNoCase(m, "NET plugin") || ContainsNoCase(m, "Error: network") ||
      ContainsNoCase(m, "No eligible providers") ||
      ContainsNoCase(m, "aws-ofi-nccl initialization failed") ||
      ContainsNoCase(m, "Initializing plugin failed") ||
      ContainsNoCase(m, "Unable to find a protocol") ||
      ContainsNoCase(m, "fi_getinfo() call failed") ||
      ContainsNoCase(m, "Couldn't find any optimal provider") ||
      ContainsNoCase(m, "Couldn't open a fabric provider") ||
      ContainsNoCase(m, "GDR disabled on GDR-supported")) {
    return true;
  }
  return w.category == WarnCategory::kPlugin;
}

bool IsNvlsWarning(const WarnRecord& w) {
  return w.category == WarnCategory::kNvls || ContainsNoCase(w.message, "NVLS");
}

bool IsCollNetWarning(const WarnRecord& w) {
  return w.category == WarnCategory::kCollNet || ContainsNoCase(w.message, "CollNet") ||
         ContainsNoCase(w.message, "SHARP");
}

bool IsP2pDisabledWarning(const WarnRecord& w) {
  return ContainsNoCase(w.message, "P2P is disabled between");
}

bool IsExplainedWarning(const WarnRecord& w) {
  return IsBenignWarning(w) || IsShmWarning(w) || IsInterfaceWarning(w) || IsConnectionWarning(w) ||
         IsCudaWarning(w) || IsNetRuntimeWarning(w) || IsNetPluginWarning(w) || IsNvlsWarning(w) ||
         IsCollNetWarning(w) || IsP2pDisabledWarning(w);
}

}  // namespace ncclscope::rules_internal
