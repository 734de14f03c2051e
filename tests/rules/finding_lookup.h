// Lookups that rule tests over whole analyses share: a finding by rule id, a text in a message,
// the root cause's one culprit.
#ifndef NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_
#define NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

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

/// Success when the root cause names exactly one culprit, with this rank and (when given) host.
inline ::testing::AssertionResult OneCulprit(const AnalysisResult& r, int rank,
                                             std::string_view host = {}) {
  const std::vector<Culprit>& c = r.root_cause.cause.culprits;
  if (c.size() != 1) {
    return ::testing::AssertionFailure()
           << c.size() << " culprits: " << r.root_cause.cause.reasoning;
  }
  if (c[0].rank != rank || (!host.empty() && c[0].host != host)) {
    return ::testing::AssertionFailure()
           << "culprit rank " << c[0].rank << " host '" << c[0].host << "': "
           << r.root_cause.cause.reasoning;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_RULES_FINDING_LOOKUP_H_
