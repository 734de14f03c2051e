// One file cut into pieces, condensed in parallel and replayed in order gives exactly the report
// of one serial read: every corpus log cut at many places, a cut right after PyTorch's
// "Last error:", kubectl pod streams cut anywhere; and the plan itself (line boundaries, the line
// before a cut, what is never cut).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/input_pieces.h"
#include "ncclscope/input/line_reader.h"
#include "ncclscope/report/json_report.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::TestData;

std::string AnalyzeJson(const std::vector<std::string>& args, unsigned jobs,
                        uint64_t piece_bytes = kPieceBytes) {
  AnalyzeOptions o;
  o.inputs = args;
  o.jobs = jobs;
  o.piece_bytes = piece_bytes;
  o.sample_pieces = false;  // the pieces, whatever a sample says
  AnalysisResult r;
  EXPECT_TRUE(Analyze(o, &r).ok());
  return JsonReport(ReportInput{r.job, r.findings, r.problems}).dump(1);
}

/// Writes `text` to a file of the test's temporary directory and returns its path.
std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// Every piece starts where the previous one ended, after a newline, with the line before it as
/// primer; the last one runs to the end of the file.
void ExpectWellFormed(const std::vector<InputPiece>& pieces, const std::string& text) {
  ASSERT_FALSE(pieces.empty());
  EXPECT_EQ(pieces.front().begin, 0u);
  EXPECT_EQ(pieces.back().end, InputPiece::kToEnd);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const InputPiece& p = pieces[i];
    EXPECT_FALSE(p.whole);
    EXPECT_EQ(p.first, i == 0);
    if (i == 0) continue;
    EXPECT_EQ(p.begin, pieces[i - 1].end);
    ASSERT_GT(p.begin, 0u);
    ASSERT_LT(p.begin, text.size());
    EXPECT_EQ(text[p.begin - 1], '\n');
    const size_t start = text.rfind('\n', p.begin - 2);
    EXPECT_EQ(p.primer, text.substr(start == std::string::npos ? 0 : start + 1,
                                    p.begin - (start == std::string::npos ? 0 : start + 1)));
  }
}

TEST(InputPiecesTest, EveryCorpusLogCutIntoPiecesGivesTheSerialReport) {
  std::vector<std::string> logs;
  for (const char* dir : {"corpus/h200x4", "corpus/h200x4-extra", "corpus/seeds"}) {
    for (const auto& e : std::filesystem::directory_iterator(TestData(dir))) {
      if (e.is_regular_file() && e.path().extension() == ".log") logs.push_back(e.path());
    }
  }
  logs.push_back(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce_info.log"));
  std::sort(logs.begin(), logs.end());
  ASSERT_GE(logs.size(), 25u);
  for (const auto& log : logs) {
    SCOPED_TRACE(log);
    const std::string serial = AnalyzeJson({log}, 1);
    for (uint64_t piece : {3000u, 65536u}) {
      SCOPED_TRACE(piece);
      EXPECT_EQ(AnalyzeJson({log}, 2, piece), serial);
    }
  }
  // Several inputs, some cut, one a directory of per-process files, one missing.
  const std::vector<std::string> several = {TestData("corpus/h200x4/hang.log"),
                                            TestData("corpus/h200x4/debug_file"), "/nonexistent",
                                            TestData("corpus/h200x4/two_nodes.log")};
  EXPECT_EQ(AnalyzeJson(several, 3, 4096), AnalyzeJson(several, 1));
}

TEST(InputPiecesTest, CutRightAfterLastErrorKeepsThePyTorchContinuation) {
  const std::string one = ReadFileOrDie(TestData("corpus/h200x4/force_ib.log"));
  const std::string log = one + one;
  const size_t at = log.find("Last error:\n");
  ASSERT_NE(at, std::string::npos);
  // The first newline at or after offset `piece` ends the "Last error:" line: a cut lands there.
  const uint64_t piece = at + 3;
  ASSERT_GE(log.size(), 2 * piece);
  const std::string path = WriteTemp("last_error.log", log);
  const auto pieces = PlanPieces({InputPath{path, path}}, 2, piece);
  ASSERT_GE(pieces.size(), 2u);
  EXPECT_EQ(pieces[1].primer, "Last error:\n");
  ExpectWellFormed(pieces, log);
  const std::string serial = AnalyzeJson({path}, 1);
  EXPECT_NE(serial.find("Failed to initialize any NET plugin"), std::string::npos);
  EXPECT_EQ(AnalyzeJson({path}, 2, piece), serial);
}

TEST(InputPiecesTest, KubectlPodsCutAnywhereStayOneSourceEach) {
  // Two pods' streams interleaved, with timestamps, so every cut falls inside both.
  const std::string a = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  const std::string b = ReadFileOrDie(TestData("corpus/h200x4/two_nodes.log"));
  std::string text;
  size_t ia = 0, ib = 0, n = 0;
  while (ia < a.size() || ib < b.size()) {
    const bool from_a = ib >= b.size() || (ia < a.size() && n % 3 != 2);
    const std::string& src = from_a ? a : b;
    size_t& pos = from_a ? ia : ib;
    const size_t nl = src.find('\n', pos);
    const size_t end = nl == std::string::npos ? src.size() : nl + 1;
    text += "2025-01-01T00:00:00." + std::to_string(100000000 + n) + "Z [pod/" +
            (from_a ? "train-0" : "train-1") + "/main] " + src.substr(pos, end - pos);
    if (nl == std::string::npos) text += '\n';
    pos = end;
    ++n;
  }
  const std::string path = WriteTemp("pods.log", text);
  const std::string serial = AnalyzeJson({path}, 1);
  EXPECT_NE(serial.find("[pod/train-1/main]"), std::string::npos);
  for (uint64_t piece : {1024u, 5000u, 40000u}) {
    SCOPED_TRACE(piece);
    ExpectWellFormed(PlanPieces({InputPath{path, path}}, 2, piece), text);
    EXPECT_EQ(AnalyzeJson({path}, 2, piece), serial);
  }
}

TEST(InputPiecesTest, NoCutAfterALineLongerThanTheLineLimit) {
  const std::string line = "vm:1:1 [0] NCCL INFO Channel 00/24 : 0 1 2 3\n";
  std::string text;
  while (text.size() < 20000) text += line;
  const size_t long_start = text.size();
  text += "vm:1:1 [0] NCCL INFO " + std::string(LineReader::kDefaultMaxLine + 100, 'x') + "\n";
  const size_t long_end = text.size();
  while (text.size() < long_end + 20000) text += line;
  const std::string path = WriteTemp("long_line.log", text);
  const auto pieces = PlanPieces({InputPath{path, path}}, 2, 4096);
  ExpectWellFormed(pieces, text);
  for (const auto& p : pieces) {
    EXPECT_NE(p.begin, long_end) << "a cut right after the over-long line";
    EXPECT_FALSE(p.begin > long_start && p.begin < long_end) << "a cut inside a line";
  }
  EXPECT_EQ(AnalyzeJson({path}, 2, 4096), AnalyzeJson({path}, 1));
}

TEST(InputPiecesTest, StdinGzipSmallFilesAndOneJobStayWhole) {
  std::string text;
  while (text.size() < 50000) text += "vm:1:1 [0] NCCL INFO cudaDriverVersion 13000\n";
  const std::string plain = WriteTemp("plain.log", text);
  const std::string gz = WriteTemp("packed.log", "\x1f\x8b" + text);  // gzip magic: never cut
  const std::vector<InputPath> inputs = {{"-", "<stdin>"}, {gz, gz}, {plain, plain}};
  const auto pieces = PlanPieces(inputs, 2, 4096);
  ASSERT_GE(pieces.size(), 4u);
  EXPECT_TRUE(pieces[0].whole);
  EXPECT_EQ(pieces[0].input, 0u);
  EXPECT_TRUE(pieces[1].whole);
  EXPECT_EQ(pieces[1].input, 1u);
  for (size_t i = 2; i < pieces.size(); ++i) {
    EXPECT_EQ(pieces[i].input, 2u);
    EXPECT_FALSE(pieces[i].whole);
  }
  EXPECT_EQ(PlanPieces({{plain, plain}}, 1, 4096).size(), 1u);       // one job
  EXPECT_EQ(PlanPieces({{plain, plain}}, 2, 40000).size(), 1u);      // under two pieces' size
  EXPECT_TRUE(PlanPieces({{"/nonexistent", "x"}}, 2, 4096)[0].whole);  // reported when read
}

}  // namespace
}  // namespace ncclscope
