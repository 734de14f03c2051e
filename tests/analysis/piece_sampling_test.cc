// CondensingPays: one big input is cut into pieces only when a condensed sample of its middle
// shows that condensing drops most lines; and either way the report is the same.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/piece_sampling.h"
#include "ncclscope/report/json_report.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::TestData;

std::vector<InputPiece> SmallPieces(const std::string& path) {
  return PlanPieces({InputPath{path, path}}, /*jobs=*/2, /*piece_bytes=*/3000);
}

TEST(PieceSampling, ConnectionSetupLogIsNotWorthCutting) {
  // default.log is four ranks' init: its middle is connection lines, which condensing keeps.
  const std::string path = TestData("corpus/h200x4/default.log");
  const std::vector<InputPiece> pieces = SmallPieces(path);
  ASSERT_GT(pieces.size(), 2u);
  EXPECT_FALSE(CondensingPays(InputPath{path, path}, pieces));
}

TEST(PieceSampling, CollFloodIsWorthCutting) {
  // coll_heavy.log's middle is COLL lines: condensing keeps a handful.
  const std::string path = TestData("corpus/h200x4/coll_heavy.log");
  const std::vector<InputPiece> pieces = SmallPieces(path);
  ASSERT_GT(pieces.size(), 2u);
  EXPECT_TRUE(CondensingPays(InputPath{path, path}, pieces));
}

TEST(PieceSampling, StreamedOrCutTheReportIsTheSame) {
  for (const char* log : {"corpus/h200x4/default.log", "corpus/h200x4/coll_heavy.log"}) {
    std::string json[2];
    for (int sample = 0; sample < 2; ++sample) {
      AnalyzeOptions o;
      o.inputs = {TestData(log)};
      o.jobs = 2;
      o.piece_bytes = 3000;
      o.sample_pieces = sample == 1;
      AnalysisResult r;
      ASSERT_TRUE(Analyze(o, &r).ok());
      json[sample] = JsonReport(ReportInput{r.job, r.findings, r.problems}).dump(1);
    }
    EXPECT_EQ(json[0], json[1]) << log;
  }
}

}  // namespace
}  // namespace ncclscope
