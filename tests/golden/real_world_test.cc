// The public dev set (testdata/real-world/, labels.json): excerpts of NCCL logs posted in public
// issue threads. For every excerpt, a one-line summary of the analysis (line coverage, events,
// processes, links by class, findings) must match testdata/real-world/golden.jsonl; and over the
// whole set, at least 99 % of the lines that mention NCCL must be understood and every `via` line
// of the labels must give a connection.
//
// Regenerate the golden file after an intended change (and read its diff):
//   NCCLSCOPE_UPDATE_GOLDEN=1 build/ncclscope_tests --gtest_filter='RealWorld.*'
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/line_coverage.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using nlohmann::json;

struct Excerpt {
  std::string file;
  json label;
};

std::vector<Excerpt> Labels() {
  std::ifstream in(testing::TestData("real-world/labels.json"));
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  std::vector<Excerpt> out;
  if (!doc.is_array()) return out;
  for (auto& l : doc) out.push_back(Excerpt{l.value("file", ""), l});
  return out;
}

struct Summary {
  json line;  ///< The golden line.
  LineCoverage coverage;
  uint64_t connections = 0;
};

Summary Summarize(const Excerpt& e) {
  const std::string text = testing::ReadFileOrDie(testing::TestData("real-world/" + e.file));
  const AnalysisResult r = AnalyzeText(text, e.file);
  Summary s;
  s.coverage = CoverageOf(r.job.stats);
  auto it = r.job.stats.events_by_type.find("connection");
  s.connections = it == r.job.stats.events_by_type.end() ? 0 : it->second;
  std::map<std::string, int> classes;
  for (const auto& l : r.job.links) ++classes[std::string(TransportClassName(l.cls))];
  std::set<std::string> findings;
  for (const auto& f : r.findings) findings.insert(f.rule + ":" + std::string(SeverityName(f.severity)));
  s.line = json{{"file", e.file},
                {"nccl_lines", s.coverage.read},
                {"understood", s.coverage.understood},
                {"connections", s.connections},
                {"processes", r.job.processes.size()},
                {"links", classes},
                {"findings", std::vector<std::string>(findings.begin(), findings.end())}};
  return s;
}

TEST(RealWorld, EveryExcerptHasALabelAndAFile) {
  const auto labels = Labels();
  ASSERT_GE(labels.size(), 40u);
  std::set<std::string> seen;
  for (const auto& e : labels) {
    EXPECT_TRUE(seen.insert(e.file).second) << "labelled twice: " << e.file;
    EXPECT_TRUE(e.label.contains("source") && e.label["source"].is_string()) << e.file;
    EXPECT_TRUE(e.label.contains("diagnosis")) << e.file;
    std::ifstream f(testing::TestData("real-world/" + e.file));
    EXPECT_TRUE(f.good()) << "missing: " << e.file;
  }
}

TEST(RealWorld, SummariesMatchTheGoldenFileAndCoverageHolds) {
  const auto labels = Labels();
  std::vector<std::string> got;
  LineCoverage total;
  uint64_t via_labelled = 0, via_found = 0;
  std::vector<std::string> short_of_via;
  for (const auto& e : labels) {
    const Summary s = Summarize(e);
    got.push_back(s.line.dump());
    total.read += s.coverage.read;
    total.understood += s.coverage.understood;
    const uint64_t via = e.label.value("via_lines", 0);
    via_labelled += via;
    via_found += std::min<uint64_t>(via, s.connections);
    if (s.connections < via)
      short_of_via.push_back(e.file + " (" + std::to_string(s.connections) + " of " +
                             std::to_string(via) + ")");
  }
  const std::string path = testing::TestData("real-world/golden.jsonl");
  if (const char* update = std::getenv("NCCLSCOPE_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream out(path);
    for (const auto& l : got) out << l << "\n";
  }
  std::ifstream in(path);
  std::vector<std::string> want;
  for (std::string l; std::getline(in, l);) want.push_back(l);
  ASSERT_EQ(want.size(), got.size()) << "regenerate: NCCLSCOPE_UPDATE_GOLDEN=1";
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]);

  std::printf("real-world set: %zu excerpts, NCCL lines %s; connections for %llu of %llu via "
              "lines\n",
              labels.size(), CoverageSummary(total).c_str(),
              static_cast<unsigned long long>(via_found),
              static_cast<unsigned long long>(via_labelled));
  EXPECT_GE(total.ratio(), 0.99) << CoverageSummary(total);
  EXPECT_TRUE(short_of_via.empty()) << "fewer connections than via lines: "
                                    << ::testing::PrintToString(short_of_via);
}

}  // namespace
}  // namespace ncclscope
