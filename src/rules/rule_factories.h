// Factories of the built-in rules, one per src/rules/<id>.cc file; registry.cc lists them.
#ifndef NCCLSCOPE_SRC_RULES_RULE_FACTORIES_H_
#define NCCLSCOPE_SRC_RULES_RULE_FACTORIES_H_

#include <memory>

#include "ncclscope/rules/rule.h"

namespace ncclscope::rules_internal {

std::unique_ptr<Rule> MakeDebugInfoMissingRule();     ///< debug-info-missing
std::unique_ptr<Rule> MakeNcclVersionMismatchRule();  ///< nccl-version-mismatch
std::unique_ptr<Rule> MakeNcclErrorRule();            ///< nccl-error
std::unique_ptr<Rule> MakeWatchdogTimeoutRule();      ///< watchdog-timeout
std::unique_ptr<Rule> MakeInitIncompleteRule();       ///< init-incomplete
std::unique_ptr<Rule> MakeHangSuspectedRule();        ///< hang-suspected
std::unique_ptr<Rule> MakeNetPluginFailedRule();      ///< net-plugin-failed
std::unique_ptr<Rule> MakeSocketFallbackRule();       ///< socket-fallback
std::unique_ptr<Rule> MakeIntraNodeNetRule();         ///< intra-node-net
std::unique_ptr<Rule> MakeBootstrapInterfaceRule();   ///< bootstrap-interface
std::unique_ptr<Rule> MakeShmFailureRule();           ///< shm-failure
std::unique_ptr<Rule> MakeNetErrorRule();             ///< net-error
std::unique_ptr<Rule> MakeConnectionErrorRule();      ///< connection-error
std::unique_ptr<Rule> MakeRanksDisagreeRule();        ///< ranks-disagree
std::unique_ptr<Rule> MakeIbErrorRule();              ///< ib-error
std::unique_ptr<Rule> MakeCudaErrorRule();            ///< cuda-error
std::unique_ptr<Rule> MakeNvlsFailureRule();          ///< nvls-failure
std::unique_ptr<Rule> MakeCollNetFailureRule();       ///< collnet-failure
std::unique_ptr<Rule> MakeDuplicateGpuRule();         ///< duplicate-gpu
std::unique_ptr<Rule> MakeP2pDisabledRule();          ///< p2p-disabled
std::unique_ptr<Rule> MakeNoGdrdmaRule();             ///< no-gdrdma
std::unique_ptr<Rule> MakeSlowInitRule();             ///< slow-init
std::unique_ptr<Rule> MakeEnvMismatchRule();          ///< env-mismatch
std::unique_ptr<Rule> MakeRankInconsistencyRule();    ///< rank-inconsistency
std::unique_ptr<Rule> MakeCostlySettingRule();        ///< costly-setting
std::unique_ptr<Rule> MakeEnvOverrideRule();          ///< env-override
std::unique_ptr<Rule> MakeP2pReadModeRule();          ///< p2p-read-mode
std::unique_ptr<Rule> MakeP2pPathUnknownRule();       ///< p2p-path-unknown
std::unique_ptr<Rule> MakeNcclWarnRule();             ///< nccl-warn

}  // namespace ncclscope::rules_internal

#endif  // NCCLSCOPE_SRC_RULES_RULE_FACTORIES_H_
