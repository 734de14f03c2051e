// Thresholds and switches the rules read (filled from defaults, the CLI and --policy).
#ifndef NCCLSCOPE_RULES_RULE_OPTIONS_H_
#define NCCLSCOPE_RULES_RULE_OPTIONS_H_

namespace ncclscope {

struct RuleOptions {
  double slow_init_seconds = 10.0;        ///< slow-init: bootstrap/init total above this.
  double slow_init_outlier_factor = 5.0;  ///< ... or this many times the median of the others.
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_RULE_OPTIONS_H_
