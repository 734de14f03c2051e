#include "ncclscope/bench/bench_parser.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace ncclscope {
namespace {

using ::ncclscope::testing::ReadFileOrDie;
using ::ncclscope::testing::TestData;

std::vector<BenchTest> ParseFileOrFail(const std::string& name) {
  std::vector<BenchTest> tests;
  Status st = ParseBenchOutput(ReadFileOrDie(TestData("corpus/nccl-tests/" + name)), &tests);
  EXPECT_TRUE(st.ok()) << st.message();
  return tests;
}

// Constructed: one all_reduce run with corrupted data (#wrong > 0) in the 2.19 text format.
constexpr char kCorruptRun[] =
    "# nThread 1 nGpus 2 minBytes 1024 maxBytes 4096 step: 2(factor) warmup iters: 1 iters: 20\n"
    "#  Rank  0 Group  0 Pid   10 on  node1 device  0 [0000:01:00] NVIDIA A100-SXM4-80GB\n"
    "#  Rank  1 Group  0 Pid   10 on  node1 device  1 [0000:02:00] NVIDIA A100-SXM4-80GB\n"
    "#       size   count  type  redop  root   time  algbw  busbw #wrong   time  algbw  busbw "
    "#wrong\n"
    "        1024     256 float    sum    -1  10.00   0.10   0.10      0  10.00   0.10   0.10  0\n"
    "        2048     512 float    sum    -1  10.00   0.20   0.20     12  10.00   0.20   0.20  3\n"
    "        4096    1024 float    sum    -1  10.00   0.41   0.41      0  10.00   0.41   0.41  0\n"
    "# Out of bounds values : 15 FAILED\n"
    "# Avg bus bandwidth    : 0.236667 \n";

TEST(ParseBenchText, AllReduceHasFourH200RanksAndPeak360) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allreduce.txt");
  ASSERT_EQ(tests.size(), 1u);
  const BenchTest& t = tests[0];
  EXPECT_EQ(t.name, "all_reduce_perf");
  EXPECT_EQ(t.source_format, "text");
  EXPECT_EQ(t.nccl_tests_version, "2.19.6");
  EXPECT_EQ(t.Ranks(), 4);
  ASSERT_EQ(t.devices.size(), 4u);
  EXPECT_EQ(t.devices[3].rank, 3);
  EXPECT_EQ(t.devices[3].bus_id, "0000:00:09");
  EXPECT_EQ(t.devices[3].name, "NVIDIA H200");
  EXPECT_EQ(t.devices[3].host, "vm");
  EXPECT_EQ(t.devices[3].pid, 1733);
  EXPECT_EQ(t.max_bytes, 2147483648);
  ASSERT_EQ(t.rows.size(), 29u);
  EXPECT_EQ(t.rows[0].size_bytes, 8);
  EXPECT_EQ(t.rows[0].redop, "sum");
  EXPECT_EQ(t.rows[0].root, -1);
  EXPECT_EQ(t.out_of_bounds, 0);
  EXPECT_DOUBLE_EQ(*t.avg_busbw_gbps, 108.423);
  EXPECT_TRUE(t.concluded);

  BenchMetrics m = ComputeBenchMetrics(t);
  // 348 GB/s at 512 MiB as the corpus README says; the sweep goes on to 360.01 at 2 GiB.
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 360.01);
  EXPECT_EQ(m.peak_size_bytes, 2147483648);
  EXPECT_FALSE(m.peak_in_place);
  EXPECT_DOUBLE_EQ(*t.rows[26].out_of_place.busbw_gbps, 348.01);
  EXPECT_EQ(m.saturation_size_bytes, 134217728);  // 328.98 >= 0.9 * 360.01
  EXPECT_EQ(m.wrong_total, 0);
}

TEST(ParseBenchText, AllGatherPeaksAt332InPlace) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allgather.txt");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].name, "all_gather_perf");
  EXPECT_EQ(tests[0].rows[0].size_bytes, 0);
  EXPECT_EQ(tests[0].rows[0].redop, "none");
  BenchMetrics m = ComputeBenchMetrics(tests[0]);
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 332.37);
  EXPECT_TRUE(m.peak_in_place);
  EXPECT_EQ(m.saturation_size_bytes, 268435456);  // 305.82 >= 299.13
  EXPECT_DOUBLE_EQ(*tests[0].avg_busbw_gbps, 81.2322);
}

TEST(ParseBenchText, SendrecvInPlaceWrongIsNotAvailable) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_sendrecv.txt");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].name, "sendrecv_perf");
  ASSERT_EQ(tests[0].rows.size(), 12u);
  EXPECT_EQ(tests[0].rows[0].in_place.wrong, std::nullopt);
  EXPECT_EQ(tests[0].rows[0].out_of_place.wrong, 0);
  BenchMetrics m = ComputeBenchMetrics(tests[0]);
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 148.37);
  EXPECT_EQ(m.peak_size_bytes, 33554432);
}

TEST(ParseBenchText, ShmRunPeaksAt31) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allreduce_shm.txt");
  ASSERT_EQ(tests.size(), 1u);
  BenchMetrics m = ComputeBenchMetrics(tests[0]);
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 31.35);
  EXPECT_EQ(m.peak_size_bytes, 8388608);
  EXPECT_DOUBLE_EQ(*tests[0].avg_busbw_gbps, 11.0841);
}

TEST(ParseBenchText, SocketRunPeaksAt3p65) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allreduce_net.txt");
  ASSERT_EQ(tests.size(), 1u);
  ASSERT_EQ(tests[0].rows.size(), 13u);
  BenchMetrics m = ComputeBenchMetrics(tests[0]);
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 3.65);
  EXPECT_EQ(m.peak_size_bytes, 134217728);
}

TEST(ParseBenchText, InfoLogLinesAreSkipped) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allreduce_info.log");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].devices.size(), 4u);
  EXPECT_EQ(tests[0].rows.size(), 28u);
  EXPECT_TRUE(tests[0].errors.empty());
  EXPECT_DOUBLE_EQ(ComputeBenchMetrics(tests[0]).peak_busbw_gbps, 354.56);
}

TEST(ParseBenchText, ConcatenatedFilesGiveOneTestEach) {
  std::string text = ReadFileOrDie(TestData("corpus/nccl-tests/h200x4-nccltests_allreduce.txt")) +
                     ReadFileOrDie(TestData("corpus/nccl-tests/h200x4-nccltests_allgather.txt")) +
                     ReadFileOrDie(TestData("corpus/nccl-tests/h200x4-nccltests_sendrecv.txt"));
  std::vector<BenchTest> tests;
  ASSERT_TRUE(ParseBenchText(text, &tests).ok());
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].name, "all_reduce_perf");
  EXPECT_EQ(tests[1].name, "all_gather_perf");
  EXPECT_EQ(tests[2].name, "sendrecv_perf");
  EXPECT_EQ(tests[1].first_line, 49);
  EXPECT_EQ(tests[1].rows.size(), 28u);
}

TEST(ParseBenchText, OldFormatWithoutVersionOrNameParses) {
  // nccl-tests before 2.19 print neither the version nor the test name, and no Group.
  std::string text =
      "# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5\n"
      "#   Rank  0 Pid  42 on host-a device  0 [0x10] Tesla V100-SXM2-32GB\n"
      "           8             2     float     sum    18.13    0.00    0.00  0e+00    17.85 "
      "   0.00    0.00  0e+00\n"
      "# Out of bounds values : 0 OK\n";
  std::vector<BenchTest> tests;
  ASSERT_TRUE(ParseBenchText(text, &tests).ok());
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_TRUE(tests[0].name.empty());
  EXPECT_EQ(tests[0].Ranks(), 8);
  EXPECT_EQ(tests[0].devices[0].name, "Tesla V100-SXM2-32GB");
  ASSERT_EQ(tests[0].rows.size(), 1u);
  EXPECT_EQ(tests[0].rows[0].redop, "sum");
  EXPECT_EQ(tests[0].rows[0].root, std::nullopt);
  EXPECT_EQ(tests[0].rows[0].out_of_place.wrong, 0);
}

TEST(ParseBenchText, WrongValuesAreSummedAsCorruption) {
  std::vector<BenchTest> tests;
  ASSERT_TRUE(ParseBenchText(kCorruptRun, &tests).ok());
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].out_of_bounds, 15);
  EXPECT_EQ(tests[0].devices[1].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(ComputeBenchMetrics(tests[0]).wrong_total, 15);
}

TEST(ParseBenchText, TestFailureLineIsRecorded) {
  std::string text =
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 128 step: 2(factor)\n"
      "node1: Test NCCL failure common.cu:1279 'unhandled system error'\n";
  std::vector<BenchTest> tests;
  ASSERT_TRUE(ParseBenchText(text, &tests).ok());
  ASSERT_EQ(tests.size(), 1u);
  ASSERT_EQ(tests[0].errors.size(), 1u);
  EXPECT_FALSE(tests[0].concluded);
}

TEST(ParseBenchText, GarbageIsInvalidInput) {
  std::vector<BenchTest> tests;
  Status st = ParseBenchOutput("hello\nworld 1 2 3\n# just a comment\n", &tests);
  EXPECT_EQ(st.code(), Status::Code::kInvalidInput);
  EXPECT_NE(st.message().find("no nccl-tests output"), std::string::npos);
  EXPECT_FALSE(ParseBenchOutput("", &tests).ok());
  EXPECT_FALSE(ParseBenchOutput(std::string("\0\x1b[\xff", 4), &tests).ok());
  // A row with a non-numeric bandwidth is not a row.
  EXPECT_FALSE(ParseBenchOutput("8 2 float sum -1 1.0 x 0.0 0 1.0 0.0 0.0 0\n", &tests).ok());
}

TEST(ParseBenchJson, AllReduceJsonHasResultsAndSummary) {
  std::vector<BenchTest> tests = ParseFileOrFail("h200x4-nccltests_allreduce.json");
  ASSERT_EQ(tests.size(), 1u);
  const BenchTest& t = tests[0];
  EXPECT_EQ(t.name, "all_reduce_perf");
  EXPECT_EQ(t.source_format, "json");
  EXPECT_EQ(t.Ranks(), 4);
  EXPECT_EQ(t.max_bytes, 67108864);
  ASSERT_EQ(t.rows.size(), 12u);
  EXPECT_EQ(t.rows[0].root, -1);
  EXPECT_EQ(t.rows.back().size_bytes, 33554432);
  EXPECT_EQ(t.out_of_bounds, 0);
  EXPECT_DOUBLE_EQ(*t.avg_busbw_gbps, 51.597198);
  EXPECT_TRUE(t.errors.empty());  // the file holds "errors": [""]
  BenchMetrics m = ComputeBenchMetrics(t);
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 289.238574);
  EXPECT_TRUE(m.peak_in_place);
}

TEST(ParseBenchJson, MalformedOrForeignJsonIsInvalidInput) {
  std::vector<BenchTest> tests;
  EXPECT_EQ(ParseBenchOutput("{\"results\": [", &tests).code(), Status::Code::kInvalidInput);
  EXPECT_EQ(ParseBenchOutput("{\"a\": 1}", &tests).code(), Status::Code::kInvalidInput);
  EXPECT_EQ(ParseBenchJson("[]", &tests).code(), Status::Code::kInvalidInput);
  // Wrong types and huge numbers are tolerated, not trusted.
  ASSERT_TRUE(
      ParseBenchJson("{\"results\": [{\"size\": 1e300, \"out_of_place\": 3}, 7]}", &tests).ok());
  EXPECT_EQ(tests[0].rows.size(), 2u);
  EXPECT_EQ(tests[0].rows[0].size_bytes, 0);
}

}  // namespace
}  // namespace ncclscope
