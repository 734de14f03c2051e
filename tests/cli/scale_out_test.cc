// Scale-out (docs/scale-out.md): a corpus log split into 64 files, summarised by 64 workers
// (`summarize --shard K/64`), merged: the same report, byte for byte, as one analyze run over the
// 64 files; also with 8 workers, and with the shipped Slurm array scripts run locally.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace ncclscope {
namespace {

namespace fs = std::filesystem;
using testing::BinaryPath;
using testing::ReadFileOrDie;
using testing::TestData;

int Sh(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

class ScaleOutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test and process: ctest -j runs these tests side by side.
    dir_ = fs::path(::testing::TempDir()) /
           fmt::format("ncclscope_scale_out_{}_{}",
                       ::testing::UnitTest::GetInstance()->current_test_info()->name(), ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "logs");
    // The 18.6k-line NCCL_DEBUG_SUBSYS=ALL log of 4 ranks, cut into 64 consecutive pieces:
    // processes span several files, as with log rotation or a collector's chunks.
    std::istringstream in(ReadFileOrDie(TestData("corpus/h200x4/subsys_all.log")));
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    constexpr size_t kParts = 64;
    for (size_t p = 0; p < kParts; ++p) {
      std::ofstream out(dir_ / "logs" / fmt::format("part-{:02}.log", p));
      for (size_t i = lines.size() * p / kParts; i < lines.size() * (p + 1) / kParts; ++i)
        out << lines[i] << '\n';
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& rel) const { return (dir_ / rel).string(); }

  /// N workers' summaries (shard K of N each, four at a time), merged in shard order; returns
  /// the merge's exit code.
  int SummarizeAndMerge(unsigned workers, const std::string& format, const std::string& out) {
    fs::create_directories(dir_ / "summaries");
    const int rc =
        Sh(fmt::format("seq 0 {} | xargs -P 4 -I K sh -c '\"$0\" summarize --shard K/{} \"$1\" -o "
                       "\"$(printf \"%s/part-%03d.json\" \"$2\" K)\" 2>/dev/null' '{}' '{}' '{}'",
                       workers - 1, workers, BinaryPath(), Path("logs"), Path("summaries")));
    EXPECT_EQ(rc, 0);
    size_t parts = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ / "summaries")) ++parts;
    EXPECT_EQ(parts, workers);
    const int merge_rc = Sh(fmt::format("'{}' merge '{}'/part-*.json -f {} -o '{}' 2>/dev/null",
                                        BinaryPath(), Path("summaries"), format, out));
    fs::remove_all(dir_ / "summaries");
    return merge_rc;
  }

  fs::path dir_;
};

TEST_F(ScaleOutTest, SixtyFourPartialsMergeToTheReportOfOneRun) {
  const std::string direct = Path("direct.json"), merged = Path("merged.json");
  const int analyze_rc = Sh(fmt::format("'{}' analyze '{}' -f json -o '{}' 2>/dev/null",
                                        BinaryPath(), Path("logs"), direct));
  EXPECT_EQ(SummarizeAndMerge(64, "json", merged), analyze_rc);
  const std::string want = ReadFileOrDie(direct);
  EXPECT_NE(want.find("part-63.log"), std::string::npos);
  EXPECT_EQ(ReadFileOrDie(merged), want);
}

TEST_F(ScaleOutTest, EightWorkersOverSixtyFourFilesGiveTheSameText) {
  const std::string direct = Path("direct.txt"), merged = Path("merged.txt");
  Sh(fmt::format("'{}' analyze '{}' --color never -o '{}' 2>/dev/null", BinaryPath(), Path("logs"),
                 direct));
  SummarizeAndMerge(8, "text --color never", merged);
  EXPECT_EQ(ReadFileOrDie(merged), ReadFileOrDie(direct));
}

TEST_F(ScaleOutTest, MoreWorkersThanFilesLeaveEmptyShardsThatMergeCleanly) {
  fs::remove_all(dir_ / "logs");
  fs::create_directories(dir_ / "logs");
  fs::copy(TestData("corpus/h200x4/debug_file"), dir_ / "logs");  // 4 files, 6 workers
  const std::string direct = Path("direct.json"), merged = Path("merged.json");
  Sh(fmt::format("'{}' analyze '{}' -f json -o '{}' 2>/dev/null", BinaryPath(), Path("logs"),
                 direct));
  SummarizeAndMerge(6, "json", merged);
  EXPECT_EQ(ReadFileOrDie(merged), ReadFileOrDie(direct));
}

TEST_F(ScaleOutTest, SlurmArrayScriptsRunLocallyGiveTheReportOfOneRun) {
  // examples/slurm/*.sbatch are plain bash with #SBATCH comments: run each array task as Slurm
  // would (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT; 8 tasks), then the merge step.
  const std::string examples = TestData("../examples/slurm");
  const std::string env = fmt::format("NCCLSCOPE='{}' LOGS='{}' SUMMARIES='{}'", BinaryPath(),
                                      Path("logs"), Path("summaries"));
  for (int k = 0; k < 8; ++k) {
    ASSERT_EQ(Sh(fmt::format("{} SLURM_ARRAY_TASK_ID={} SLURM_ARRAY_TASK_COUNT=8 bash "
                             "'{}/summarize-array.sbatch' >/dev/null 2>&1",
                             env, k, examples)),
              0)
        << "task " << k;
  }
  const int merge_rc = Sh(fmt::format("{} REPORT='{}' bash '{}/merge.sbatch' >/dev/null 2>&1", env,
                                      Path("report"), examples));
  const int analyze_rc = Sh(fmt::format("'{}' analyze '{}' -f json -o '{}' 2>/dev/null",
                                        BinaryPath(), Path("logs"), Path("direct.json")));
  EXPECT_EQ(merge_rc, analyze_rc);
  EXPECT_EQ(ReadFileOrDie(Path("report.json")), ReadFileOrDie(Path("direct.json")));
  EXPECT_TRUE(fs::exists(Path("report.txt")));
}

TEST_F(ScaleOutTest, KubernetesIndexedJobCommandRunLocallyGivesTheReportOfOneRun) {
  // The summarize and merge scripts of examples/k8s/*.yaml, run for 8 completion indexes.
  const std::string examples = TestData("../examples/k8s");
  const std::string env =
      fmt::format("PATH='{}':\"$PATH\" LOGS='{}' SUMMARIES='{}'",
                  fs::path(BinaryPath()).parent_path().string(), Path("logs"), Path("summaries"));
  fs::create_directories(dir_ / "summaries");
  for (int k = 0; k < 8; ++k) {
    ASSERT_EQ(Sh(fmt::format("{} JOB_COMPLETION_INDEX={} SHARDS=8 sh '{}/summarize-shard.sh' "
                             ">/dev/null 2>&1",
                             env, k, examples)),
              0)
        << "index " << k;
  }
  const int merge_rc =
      Sh(fmt::format("{} sh '{}/merge-summaries.sh' >/dev/null 2>&1", env, examples));
  const int analyze_rc = Sh(fmt::format("'{}' analyze '{}' -f json -o '{}' 2>/dev/null",
                                        BinaryPath(), Path("logs"), Path("direct.json")));
  EXPECT_EQ(merge_rc, analyze_rc);
  EXPECT_EQ(ReadFileOrDie(Path("summaries/report.json")), ReadFileOrDie(Path("direct.json")));
}

}  // namespace
}  // namespace ncclscope
