// RunSnapshot and LoadRunSnapshot: reports, summaries, logs and nccl-tests output become the same
// snapshot for the same run; bad input is refused with a message naming it.
#include "ncclscope/diff/run_snapshot.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/diff/run_diff.h"
#include "ncclscope/diff/run_side.h"
#include "ncclscope/report/json_report.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::TestData;

RunSnapshot Load(const std::string& path) {
  RunSnapshot s;
  Status st = LoadRunSnapshot(path, RunSideOptions{}, &s);
  EXPECT_TRUE(st.ok()) << st.message();
  return s;
}

std::string TempFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(::testing::TempDir()) / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(RunSnapshotTest, NotJsonIsRefused) {
  RunSnapshot s;
  Status st = ParseReportSnapshot("{\"schema_version\": 1,", "r.json", &s);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("r.json: not valid JSON"), std::string::npos);
}

TEST(RunSnapshotTest, OtherJsonIsRefused) {
  RunSnapshot s;
  EXPECT_FALSE(
      ParseReportSnapshot(R"({"schema_version": 1, "tool": {"name": "x"}})", "r", &s).ok());
  EXPECT_FALSE(ParseReportSnapshot("[1, 2]", "r", &s).ok());
}

TEST(RunSnapshotTest, NewerSchemaIsRefused) {
  RunSnapshot s;
  Status st =
      ParseReportSnapshot(R"({"schema_version": 99, "tool": {"name": "ncclscope"}})", "r.json", &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("schema version 99 is newer"), std::string::npos);
}

TEST(RunSnapshotTest, WrongTypesAreReadAsAbsent) {
  RunSnapshot s;
  Status st = ParseReportSnapshot(
      R"({"schema_version": 1, "tool": {"name": "ncclscope"}, "communicators": [{"nranks": "4",
          "global_ranks": [0, null], "link_counts": {"P2P": "x", "SHM": 2}}], "findings": [7],
          "configuration": {"settings": [{"value": "1"}], "networks": "IB"}})",
      "r", &s);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(s.comms.size(), 1u);
  EXPECT_EQ(s.comms[0].nranks, 0);
  EXPECT_EQ(s.comms[0].global_ranks, (std::vector<int>{0, -1}));
  EXPECT_EQ(s.comms[0].links, (std::map<std::string, int>{{"SHM", 2}}));
  EXPECT_FALSE(s.comms[0].has_locality_counts);
  EXPECT_TRUE(s.has_configuration);
  EXPECT_TRUE(s.configuration.settings.empty());  // A setting without a name is no setting.
  EXPECT_TRUE(s.configuration.networks.empty());
}

TEST(RunSnapshotTest, SavedReportAndItsLogGiveTheSameSnapshot) {
  const std::string log = TestData("corpus/h200x4/two_nodes.log");
  AnalyzeOptions o;
  o.inputs = {log};
  AnalysisResult r;
  ASSERT_TRUE(Analyze(o, &r).ok());
  std::ostringstream json;
  WriteJsonReport({r.job, r.findings, r.problems}, {}, json);
  const std::string saved = TempFile("two_nodes.report.json", json.str());

  const RunSnapshot from_log = Load(log);
  const RunSnapshot from_report = Load(saved);
  EXPECT_EQ(from_log.kind, "log");
  EXPECT_EQ(from_report.kind, "report");
  EXPECT_TRUE(from_report.has_configuration);
  EXPECT_EQ(from_report.comms.size(), 5u);
  EXPECT_EQ(from_report.comms[0].global_ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(from_report.comms[0].has_locality_counts);
  EXPECT_EQ(from_report.configuration.networks, (std::vector<ValueCount>{{"Socket", 4}}));
  const RunDiff d = DiffRuns(from_report, from_log);
  EXPECT_TRUE(d.items.empty()) << d.items.front().subject << ": " << d.items.front().aspect;
}

TEST(RunSnapshotTest, SummaryFileIsAnalysedLikeMerge) {
  // A summary written by `ncclscope summarize` of the same log.
  const std::string log = TestData("corpus/h200x4/socket_only.log");
  const std::string summary = std::string(::testing::TempDir()) + "/socket_only.summary.json";
  const std::string cmd =
      testing::BinaryPath() + " summarize '" + log + "' -o '" + summary + "' 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const RunSnapshot s = Load(summary);
  EXPECT_EQ(s.kind, "summary");
  EXPECT_TRUE(DiffRuns(s, Load(log)).items.empty());
}

TEST(RunSnapshotTest, NcclTestsOutputIsReadAsBenchmarks) {
  const RunSnapshot s = Load(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce.txt"));
  EXPECT_EQ(s.nccl_lines, 0u);
  ASSERT_EQ(s.bench.size(), 1u);
  EXPECT_EQ(s.bench[0].name, "all_reduce_perf");
  EXPECT_EQ(s.bench[0].ranks, 4);
  EXPECT_GT(s.bench[0].peak_busbw_gbps, 300.0);
  // With NCCL INFO lines interleaved: both a log and a benchmark.
  const RunSnapshot info = Load(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce_info.log"));
  EXPECT_GT(info.nccl_lines, 0u);
  EXPECT_EQ(info.bench.size(), 1u);
  // -J JSON output.
  const RunSnapshot json = Load(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce.json"));
  EXPECT_EQ(json.kind, "nccl-tests");
  EXPECT_EQ(json.bench.size(), 1u);
}

TEST(RunSnapshotTest, MissingPathIsNotFound) {
  RunSnapshot s;
  Status st = LoadRunSnapshot("/nonexistent/run.log", RunSideOptions{}, &s);
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_NE(st.message().find("/nonexistent/run.log"), std::string::npos);
}

TEST(RunSnapshotTest, NothingToCompareIsRefused) {
  RunSnapshot s;
  Status st = LoadRunSnapshot(TempFile("plain.txt", "hello\nworld\n"), RunSideOptions{}, &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nothing to compare"), std::string::npos);
}

TEST(RunSnapshotTest, BrokenReportIsRefusedNotReadAsALog) {
  RunSnapshot s;
  const std::string path =
      TempFile("cut.json", R"({"schema_version": 99, "tool": {"name": "ncclscope"}})");
  Status st = LoadRunSnapshot(path, RunSideOptions{}, &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("newer"), std::string::npos);
}

}  // namespace
}  // namespace ncclscope
