// Whole-pipeline robustness (run under ASan/UBSan by the test command): mutated real logs,
// pathological lines and damaged files must never crash, hang or lose the good lines.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/watchdog_table.h"
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/text_report.h"
#include "input/input_test_helpers.h"
#include "test_util.h"

namespace ncclscope {
namespace {

/// Runs every report writer too: they must cope with whatever the model holds.
void RenderAll(const AnalysisResult& r) {
  std::ostringstream out;
  ReportInput in{r.job, r.findings, r.problems};
  for (const auto& f : ReportFormats()) f.write(in, ReportOptions{}, out);
}

TEST(PipelineRobustness, MutatedRealLogsNeverCrash) {
  std::string base;
  for (const char* f :
       {"corpus/h200x4/default.log", "corpus/h200x4/hang.log",
        "corpus/seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log", "corpus/h200x4/shm_small.log"}) {
    base += testing::ReadFileOrDie(testing::TestData(f));
  }
  uint32_t x = 2463534242u;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  };
  for (int iter = 0; iter < 60; ++iter) {
    std::string s = base;
    int edits = 1 + static_cast<int>(next() % 200);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t pos = next() % s.size();
      switch (next() % 5) {
        case 0:  // replace a byte with anything, NUL included
          s[pos] = static_cast<char>(next());
          break;
        case 1:  // cut the rest of a line
          s.erase(pos, std::min<size_t>(next() % 80, s.size() - pos));
          break;
        case 2:  // swap a digit for a huge number
          s.insert(pos, "99999999999999999999");
          break;
        case 3:  // inject structural characters
          s.insert(pos, std::string(1, "[]():/-> \n\r"[next() % 11]));
          break;
        default:  // duplicate a chunk
          s.insert(pos, s.substr(pos, std::min<size_t>(next() % 300, s.size() - pos)));
      }
    }
    AnalysisResult r = AnalyzeText(s, "mutated.log");
    RenderAll(r);
  }
}

TEST(PipelineRobustness, HugeLineWithoutNewlineIsCutAndTheNextLinesSurvive) {
  std::string s(20u << 20, 'A');  // 20 MiB, no newline
  s += "\nvm:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n";
  AnalysisResult r = AnalyzeText(s, "huge.log");
  ASSERT_EQ(r.job.sources.size(), 1u);
  EXPECT_EQ(r.job.sources[0].truncated_lines, 1u);
  EXPECT_EQ(r.job.nccl_versions.count("2.28.9"), 1u);
  RenderAll(r);
}

// Found by the fuzzer (docs/fuzzing.md): a mutated Ray/PyTorch watchdog excerpt whose init line
// claims `nranks 800275`. Every silent rank of the world got a watchdog row, which took 9 s
// (Release) for 2 KB of input.
TEST(PipelineRobustness, FuzzedHugeNranksDoesNotListEverySilentRank) {
  AnalysisResult r = AnalyzeText(testing::ReadFileOrDie(testing::TestData("fuzz/timeout-huge-nranks-watchdog.bin")),
                                 "fuzzed.log");
  for (const WatchdogGroup& g : BuildWatchdogGroups(r.job)) {
    EXPECT_LT(g.rows.size(), 100u);
    EXPECT_FALSE(g.timed_out.empty());
  }
  RenderAll(r);
}

TEST(PipelineRobustness, NulBytesAndInvalidUtf8AreCountedAndReportsStayValid) {
  std::string s =
      "vm:1:1 [0] NCCL INFO Using network So\0cket\n"
      "vm:1:1 [0] NCCL INFO Bootstrap: Using eth0:\xff\xfe<0>\n";
  s.insert(s.find("So") + 2, 1, '\0');
  AnalysisResult r = AnalyzeText(s, "bad.log");
  EXPECT_GE(r.job.sources[0].nul_lines + r.job.sources[0].invalid_utf8_lines, 1u);
  std::string json = JsonReport(ReportInput{r.job, r.findings, r.problems})
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  EXPECT_FALSE(json.empty());
}

TEST(PipelineRobustness, TruncatedGzipKeepsTheGoodLinesAndReportsTheDamage) {
  const testing::ScratchDir scratch;
  const std::filesystem::path dir = scratch.path();
  auto gz = dir / "cut.log.gz";
  std::string text = testing::ReadFileOrDie(testing::TestData("corpus/h200x4/default.log"));
  {
    gzFile f = gzopen(gz.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
  }
  auto size = std::filesystem::file_size(gz);
  std::filesystem::resize_file(gz, size / 2);
  AnalyzeOptions opts;
  opts.inputs = {gz.string()};
  AnalysisResult r;
  ASSERT_TRUE(Analyze(opts, &r).ok());
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("truncated"), std::string::npos) << r.problems[0].message;
  EXPECT_GT(r.job.stats.nccl_lines, 10u);
  RenderAll(r);
}

TEST(PipelineRobustness, DirectoryWithMissingAndEmptyFilesAnalysesTheRest) {
  const testing::ScratchDir scratch;
  const std::filesystem::path dir = scratch.path();
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "empty.log").close();
  std::filesystem::copy_file(testing::TestData("corpus/h200x4/two_nodes.log"),
                             dir / "sub" / "two_nodes.log");
  AnalyzeOptions opts;
  opts.inputs = {dir.string(), (dir / "missing.log").string()};
  AnalysisResult r;
  ASSERT_TRUE(Analyze(opts, &r).ok());
  EXPECT_EQ(r.problems.size(), 1u);
  EXPECT_FALSE(r.job.links.empty());
}

}  // namespace
}  // namespace ncclscope
