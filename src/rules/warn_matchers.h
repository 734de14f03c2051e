// Which NCCL warnings each specific rule explains. The `nccl-warn` rule reports every warning
// that none of these predicates claims, so no warning is ever silently dropped. Each predicate is
// used by exactly the rule named in its comment, which reports every warning it matches.
#ifndef NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_
#define NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_

#include "ncclscope/model/job.h"

namespace ncclscope::rules_internal {

/// Known-harmless probing noise (dlvsym on mlx5dv, libibverbs missing on hosts without IB,
/// optional plugins not found). Reported by no rule, deliberately.
bool IsBenignWarning(const WarnRecord& w);
/// shm-failure: /dev/shm creation/extension/attach failures.
bool IsShmWarning(const WarnRecord& w);
/// bootstrap-interface: no usable socket interface.
bool IsInterfaceWarning(const WarnRecord& w);
/// connection-error: socket/bootstrap/proxy connection failures.
bool IsConnectionWarning(const WarnRecord& w);
/// cuda-error: CUDA failures.
bool IsCudaWarning(const WarnRecord& w);
/// net-error: IB verbs and OFI/EFA runtime errors, memlock.
bool IsNetRuntimeWarning(const WarnRecord& w);
/// net-plugin-failed: plugin/network initialisation failures.
bool IsNetPluginWarning(const WarnRecord& w);
/// nvls-failure.
bool IsNvlsWarning(const WarnRecord& w);
/// collnet-failure.
bool IsCollNetWarning(const WarnRecord& w);
/// p2p-disabled: "P2P is disabled between NVLINK connected GPUs".
bool IsP2pDisabledWarning(const WarnRecord& w);
/// True if any rule above explains the warning.
bool IsExplainedWarning(const WarnRecord& w);

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_WARN_MATCHERS_H_
