// Property: an excerpt of a failed job's log (the 12, 30 or 60 lines a user pastes into a
// ticket) never blames a wrong rank with high confidence. Every window of those sizes over every
// single-attempt failure scenario of the corpus (testdata/corpus/*/expected-root-causes.json) is
// analysed on its own: when the report is sure (high confidence), every rank it names must be
// one the scenario's ground truth names. A window that lacks the culprit's lines may name
// another rank, at medium or low confidence (the first failure the excerpt shows), or none.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

struct Scenario {
  std::string label;
  std::vector<std::string> lines;
  std::vector<int> culprits;
};

std::vector<Scenario> Scenarios() {
  std::vector<Scenario> out;
  for (const char* dir : {"corpus/h200x2-failures", "corpus/h200x1-failures", "corpus/h200x4"}) {
    std::ifstream in(testing::TestData(std::string(dir) + "/expected-root-causes.json"));
    for (const auto& e : nlohmann::json::parse(in)) {
      if (e.contains("inputs") || e["attempts"].size() != 1) continue;
      const std::string file = e["file"];
      if (file.ends_with(".d")) continue;
      Scenario s;
      s.label = file;
      s.culprits = e["attempts"][0]["ranks"].get<std::vector<int>>();
      s.lines = testing::SplitLines(
          testing::ReadFileOrDie(testing::TestData(std::string(dir) + "/" + file)));
      out.push_back(std::move(s));
    }
  }
  return out;
}

class ExcerptRootCause : public ::testing::TestWithParam<size_t> {};

TEST_P(ExcerptRootCause, NeverBlamesAWrongRankWithHighConfidence) {
  const size_t size = GetParam();
  constexpr size_t kStep = 3;
  const std::vector<Scenario> scenarios = Scenarios();
  ASSERT_GE(scenarios.size(), 20u);
  size_t windows = 0;
  for (const Scenario& s : scenarios) {
    for (size_t begin = 0; begin == 0 || begin + size <= s.lines.size(); begin += kStep) {
      std::string text;
      for (size_t i = begin; i < std::min(begin + size, s.lines.size()); ++i) {
        text += s.lines[i];
        text += '\n';
      }
      ++windows;
      const RootCause& rc = AnalyzeText(text, s.label).root_cause.cause;
      if (rc.confidence != Confidence::kHigh) continue;
      for (const Culprit& c : rc.culprits) {
        const bool expected = c.rank < 0 || std::find(s.culprits.begin(), s.culprits.end(),
                                                      c.rank) != s.culprits.end();
        EXPECT_TRUE(expected) << s.label << " lines " << begin + 1 << "-" << begin + size << ": "
                              << CauseClassName(rc.cls) << " names rank " << c.rank
                              << " with high confidence: " << rc.reasoning;
      }
    }
  }
  EXPECT_GT(windows, 300u);
}

INSTANTIATE_TEST_SUITE_P(PastedLines, ExcerptRootCause, ::testing::Values(12, 30, 60),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return std::to_string(info.param) + "_lines";
                         });

}  // namespace
}  // namespace ncclscope
