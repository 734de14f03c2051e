// CondensingPays: one big input is cut into pieces only when a condensed sample of its middle
// shows that condensing drops most lines; and either way the report is the same.
#include "ncclscope/analysis/piece_sampling.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
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

TEST(PieceSampling, SeveralInputsAreJudgedOnTheirMiddleInput) {
  // One file per process (a directory of per-rank logs): the middle input is the sample.
  const std::string setup = TestData("corpus/h200x4/default.log");
  const std::string coll = TestData("corpus/h200x4/coll_heavy.log");
  const std::vector<InputPath> setups = {{setup, "a"}, {setup, "b"}, {setup, "c"}};
  const std::vector<InputPiece> whole = PlanPieces(setups, /*jobs=*/2, kPieceBytes);
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_FALSE(CondensingPays(setups[whole[1].input], whole));
  const std::vector<InputPath> colls = {{setup, "a"}, {coll, "b"}, {setup, "c"}};
  const std::vector<InputPiece> mixed = PlanPieces(colls, /*jobs=*/2, kPieceBytes);
  EXPECT_TRUE(CondensingPays(colls[mixed[1].input], mixed));
}

TEST(PieceSampling, StreamedOrCutSeveralInputsGiveTheSameReport) {
  const std::vector<std::string> logs = {TestData("corpus/h200x4/default.log"),
                                         TestData("corpus/h200x4/two_nodes.log"),
                                         TestData("corpus/h200x4/hang.log")};
  std::string json[3];
  for (int mode = 0; mode < 3; ++mode) {
    AnalyzeOptions o;
    o.inputs = logs;
    o.jobs = mode == 0 ? 1 : 2;
    o.sample_pieces = mode == 2;  // mode 1: pieces; mode 2: streamed with the relay
    o.relay_min_bytes = 0;
    AnalysisResult r;
    ASSERT_TRUE(Analyze(o, &r).ok());
    json[mode] = JsonReport(ReportInput{r.job, r.findings, r.problems}).dump(1);
  }
  EXPECT_EQ(json[1], json[0]);
  EXPECT_EQ(json[2], json[0]);
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
