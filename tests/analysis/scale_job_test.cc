// The synthetic scale job (bench/gen_job.py) analysed end to end: every rank, node and link
// found and classified, and a text report that stays readable at 128 ranks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/report/json_report.h"
#include "ncclscope/report/text_report.h"
#include "test_util.h"

namespace ncclscope {
namespace {

constexpr int kNodes = 16;
constexpr int kGpus = 8;

std::string Generator() {
  return (std::filesystem::path(testing::TestData("")) / ".." / "bench" / "gen_job.py").string();
}

/// Runs the generator with `args`; false when python3 is missing or the script fails.
bool Generate(const std::string& args) {
  if (std::system("python3 -c 'import sys' >/dev/null 2>&1") != 0) return false;
  std::string cmd = "python3 '" + Generator() + "' " + args;
  return std::system(cmd.c_str()) == 0;
}

class ScaleJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests of this fixture in parallel.
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("ncclscope_scale_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    log_ = (dir_ / "job.log").string();
    if (!Generate("--nodes " + std::to_string(kNodes) + " --gpus-per-node " +
                  std::to_string(kGpus) + " --coll-lines 20 --seed 7 -o '" + log_ + "'"))
      GTEST_SKIP() << "python3 not available";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string log_;
};

TEST_F(ScaleJobTest, EveryRankNodeAndLinkIsFoundAndClassified) {
  AnalyzeOptions o;
  o.inputs = {log_};
  AnalysisResult r;
  ASSERT_TRUE(Analyze(o, &r).ok());
  const Job& job = r.job;
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(job.processes.size(), size_t{kNodes * kGpus});
  EXPECT_EQ(job.hosts.size(), size_t{kNodes});
  EXPECT_EQ(job.stats.unrecognized, 0u);
  // World + one TP communicator per node + one DP communicator per local GPU.
  ASSERT_EQ(job.comms.size(), size_t{1 + kNodes + kGpus});
  const Communicator& world = job.comms[0];
  EXPECT_EQ(world.nranks, kNodes * kGpus);
  EXPECT_EQ(world.nnodes, kNodes);
  EXPECT_EQ(world.ranks.size(), size_t{kNodes * kGpus});
  for (const auto& c : job.comms) {
    for (const auto& [rank, cr] : c.ranks) EXPECT_TRUE(cr.completed) << c.id << " rank " << rank;
  }
  size_t intra = 0, inter = 0;
  for (const Link& l : job.links) {
    SCOPED_TRACE(l.first.text);
    EXPECT_GE(l.comm, 0);
    EXPECT_NE(l.cls, TransportClass::kUnknown);
    ASSERT_TRUE(l.intra_node.has_value());
    if (*l.intra_node) {
      ++intra;
      EXPECT_EQ(l.cls, TransportClass::kNVL);
      EXPECT_EQ(l.path, P2pPath::kNvlink);
    } else {
      ++inter;
      EXPECT_EQ(l.cls, TransportClass::kNetIB);
      EXPECT_TRUE(l.gdrdma);
    }
  }
  // Rings: world 112 links within nodes and 16 between them (the [send] and [receive] lines
  // name each side's own NIC: 2 links), TP 16 × 8 within nodes, DP 8 × 16 between nodes.
  EXPECT_EQ(intra, size_t{kNodes * (kGpus - 1) + kNodes * kGpus});
  EXPECT_EQ(inter, size_t{2 * kNodes + kGpus * kNodes});
}

TEST_F(ScaleJobTest, TextReportStaysReadable) {
  AnalyzeOptions o;
  o.inputs = {log_};
  AnalysisResult r;
  ASSERT_TRUE(Analyze(o, &r).ok());
  std::ostringstream out;
  WriteTextReport(ReportInput{r.job, r.findings, r.problems}, ReportOptions{}, out);
  const std::string text = out.str();
  // The world communicator (128 ranks) is shown host × host, not rank × rank.
  EXPECT_NE(text.find("hosts (slowest class between each pair"), std::string::npos);
  std::istringstream in(text);
  std::string line;
  size_t lines = 0;
  bool in_findings = false;  // Findings carry prose (fix text) on one line.
  while (std::getline(in, line)) {
    ++lines;
    if (line.starts_with("Findings")) in_findings = true;
    if (!in_findings) {
      EXPECT_LT(line.size(), 200u) << line.substr(0, 80);
    }
  }
  // Same-shape communicators (16 TP groups, 8 DP groups) are shown once each with a count.
  EXPECT_NE(text.find("more communicators of the same shape"), std::string::npos);
  EXPECT_LT(lines, 150u);
}

TEST_F(ScaleJobTest, OneFilePerRankInParallelEqualsSerial) {
  const std::string split = (dir_ / "ranks").string();
  ASSERT_TRUE(
      Generate("--nodes 4 --gpus-per-node 8 --coll-lines 50 --seed 7 --split '" + split + "'"));
  auto json = [](const std::string& input, unsigned jobs) {
    AnalyzeOptions o;
    o.inputs = {input};
    o.jobs = jobs;
    AnalysisResult r;
    EXPECT_TRUE(Analyze(o, &r).ok());
    EXPECT_EQ(r.job.processes.size(), 32u);
    for (const Link& l : r.job.links) EXPECT_NE(l.cls, TransportClass::kUnknown);
    return JsonReport(ReportInput{r.job, r.findings, r.problems}).dump();
  };
  EXPECT_EQ(json(split, 2), json(split, 1));
}

}  // namespace
}  // namespace ncclscope
