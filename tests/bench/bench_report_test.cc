#include "ncclscope/bench/bench_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

namespace ncclscope {
namespace {

using ::ncclscope::testing::TestData;

std::string NcclTests(const char* name) {
  return TestData(std::string("corpus/nccl-tests/") + name);
}

TEST(RunBenchCommand, HealthyNvlinkRunExitsZero) {
  std::ostringstream out;
  int code = -1;
  Status st =
      RunBenchCommand({{NcclTests("h200x4-nccltests_allreduce.txt")}, "NVL", "text"}, out, &code);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.str().find("peak busbw 360.01 GB/s at 2 GiB"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("healthy for NVL"), std::string::npos);
  EXPECT_NE(out.str().find(">= 90 % of peak from 128 MiB"), std::string::npos);
}

TEST(RunBenchCommand, ShmRunExpectedNvlExitsOne) {
  std::ostringstream out;
  int code = -1;
  ASSERT_TRUE(RunBenchCommand({{NcclTests("h200x4-nccltests_allreduce_shm.txt")}, "nvl", "text"},
                              out, &code)
                  .ok());
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.str().find("far below NVL"), std::string::npos) << out.str();
}

TEST(RunBenchCommand, NoExpectationExitsZeroForSlowRun) {
  std::ostringstream out;
  int code = -1;
  ASSERT_TRUE(
      RunBenchCommand({{NcclTests("h200x4-nccltests_allreduce_net.txt")}, "", "text"}, out, &code)
          .ok());
  EXPECT_EQ(code, 0);
  EXPECT_NE(out.str().find("socket-speed"), std::string::npos);
  EXPECT_EQ(out.str().find("expect:"), std::string::npos);
}

TEST(RunBenchCommand, JsonOutputHasExpectedKeysForAllFiles) {
  std::ostringstream out;
  int code = -1;
  BenchCommandOptions opts{
      {NcclTests("h200x4-nccltests_allreduce.txt"), NcclTests("h200x4-nccltests_allreduce.json"),
       NcclTests("h200x4-nccltests_sendrecv.txt")},
      "NET/Socket",
      "json"};
  ASSERT_TRUE(RunBenchCommand(opts, out, &code).ok());
  EXPECT_EQ(code, 0);  // faster than expected is informational
  nlohmann::json j = nlohmann::json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded()) << out.str();
  ASSERT_EQ(j["files"].size(), 3u);
  EXPECT_FALSE(j["failing"].get<bool>());
  const nlohmann::json& t = j["files"][0]["tests"][0];
  for (const char* key :
       {"name", "format", "ranks", "devices", "peak_busbw_gbps", "peak_size_bytes",
        "saturation_size_bytes", "avg_busbw_gbps", "wrong_total", "out_of_bounds", "speed_tier",
        "errors", "notes", "verdict", "failing"}) {
    EXPECT_TRUE(t.contains(key)) << key;
  }
  EXPECT_EQ(t["name"], "all_reduce_perf");
  EXPECT_EQ(t["ranks"], 4);
  EXPECT_DOUBLE_EQ(t["peak_busbw_gbps"].get<double>(), 360.01);
  EXPECT_EQ(t["verdict"]["level"], "above");
  EXPECT_EQ(j["files"][1]["tests"][0]["format"], "json");
  EXPECT_EQ(j["files"][2]["tests"][0]["name"], "sendrecv_perf");
}

TEST(RunBenchCommand, CorruptedDataIsAnErrorAndExitsOne) {
  std::string path = ::testing::TempDir() + "bench_report_test_corrupt.txt";
  {
    std::ofstream f(path);
    f << "# nThread 1 nGpus 2 minBytes 1024 maxBytes 2048 step: 2(factor)\n"
         "  1024  256 float sum -1 10.0 0.10 0.10 0 10.0 0.10 0.10 0\n"
         "  2048  512 float sum -1 10.0 0.20 0.20 7 10.0 0.20 0.20 0\n"
         "# Out of bounds values : 7 FAILED\n"
         "# Avg bus bandwidth    : 0.15 \n";
  }
  std::ostringstream out;
  int code = -1;
  ASSERT_TRUE(RunBenchCommand({{path}, "", "text"}, out, &code).ok());
  std::remove(path.c_str());
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.str().find("ERROR: data corruption: 7 wrong elements"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("ERROR: 7 out-of-bounds values"), std::string::npos);
}

TEST(RunBenchCommand, GarbageFileIsInvalidInputNamingThePath) {
  std::ostringstream out;
  int code = -1;
  std::string path = TestData("corpus/topo/h200x4-topo-m.txt");
  Status st = RunBenchCommand({{path}, "", "text"}, out, &code);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_EQ(st.message().rfind(path, 0), 0u) << st.message();
}

TEST(RunBenchCommand, BadOptionsAreUsageErrors) {
  std::ostringstream out;
  int code = -1;
  std::string f = NcclTests("h200x4-nccltests_allreduce.txt");
  EXPECT_EQ(RunBenchCommand({{f}, "Carrier-Pigeon", "text"}, out, &code).code(),
            Status::Code::kUsage);
  EXPECT_EQ(RunBenchCommand({{f}, "", "xml"}, out, &code).code(), Status::Code::kUsage);
  EXPECT_EQ(RunBenchCommand({{}, "", "text"}, out, &code).code(), Status::Code::kUsage);
  EXPECT_EQ(RunBenchCommand({{NcclTests("missing.txt")}, "", "text"}, out, &code).code(),
            Status::Code::kNotFound);
}

TEST(AnalyzeBenchTest, UnfinishedShortSweepGetsNotes) {
  BenchTest t;
  BenchRow row;
  row.size_bytes = 1 << 20;
  row.out_of_place.busbw_gbps = 5;
  t.rows.push_back(row);
  BenchTestReport r = AnalyzeBenchTest(t, TransportClass::kNVL);
  EXPECT_FALSE(r.failing);  // 1 MiB sweeps are not compared
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(r.verdict->level, BenchVerdictLevel::kNotComparable);
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_NE(r.notes[0].find("incomplete"), std::string::npos);
  EXPECT_NE(r.notes[1].find("may not have saturated"), std::string::npos);
}

TEST(RenderBenchJson, InvalidUtf8InDeviceNameIsReplacedNotThrown) {
  BenchTest t;
  t.devices.push_back(BenchDevice{0, 0, 1, "h\xff", 0, "0", "GPU\x92"});
  std::vector<BenchFileReport> files(1);
  files[0].path = "p";
  files[0].tests.push_back(AnalyzeBenchTest(t, std::nullopt));
  std::ostringstream out;
  RenderBenchJson(files, out);
  EXPECT_FALSE(nlohmann::json::parse(out.str(), nullptr, false).is_discarded());
}

TEST(FormatBytes, UsesBinaryUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(8), "8 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(134217728), "128 MiB");
  EXPECT_EQ(FormatBytes(2147483648), "2 GiB");
}

}  // namespace
}  // namespace ncclscope
