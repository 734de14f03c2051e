// Lookups that rule tests over whole analyses share: a finding by rule id, a text in a message.
#ifndef NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_
#define NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_

#include <string>
#include <string_view>

#include "ncclscope/analysis/analyze.h"

namespace ncclscope::testing {

/// The first finding of `rule` in `r`, or nullptr.
inline const Finding* FindingOf(const AnalysisResult& r, std::string_view rule) {
  for (const Finding& f : r.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

/// Whether `s` contains `needle`.
inline bool Has(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_
