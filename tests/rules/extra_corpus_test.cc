// Rules over the real logs made during development (testdata/corpus/h200x4-extra/README.md).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

AnalysisResult AnalyzeExtra(const std::string& name) {
  AnalyzeOptions opts;
  opts.inputs = {testing::TestData("corpus/h200x4-extra/" + name)};
  AnalysisResult r;
  EXPECT_TRUE(Analyze(opts, &r).ok());
  return r;
}

std::set<std::string> Rules(const AnalysisResult& r, Severity at_least = Severity::kInfo) {
  std::set<std::string> ids;
  for (const auto& f : r.findings) {
    if (f.severity >= at_least) ids.insert(f.rule);
  }
  return ids;
}

TEST(ExtraCorpus, ShmCopyEngineJobThatHungIsSuspectedOfHanging) {
  auto r = AnalyzeExtra("shm_ce.log");
  EXPECT_TRUE(Rules(r).count("hang-suspected"));
  EXPECT_TRUE(Rules(r).count("p2p-disabled"));
  for (const auto& l : r.job.links) {
    EXPECT_EQ(l.cls, TransportClass::kSHM);
    EXPECT_TRUE(l.ce) << l.raw;
  }
}

TEST(ExtraCorpus, P2pLevelLocIsShmAndNamedAsTheCause) {
  auto r = AnalyzeExtra("p2p_level_loc.log");
  EXPECT_TRUE(Rules(r).count("p2p-disabled"));
  bool named = false;
  for (const auto& f : r.findings) {
    named |= f.message.find("NCCL_P2P_LEVEL") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(ExtraCorpus, ForcedAlgorithmAndProtocolAreListedButNotErrors) {
  auto r = AnalyzeExtra("env_overrides.log");
  EXPECT_TRUE(Rules(r, Severity::kError).empty());
  bool listed = false;
  for (const auto& f : r.findings) {
    if (f.rule == "env-override")
      listed = f.message.find("NCCL_ALGO=Ring") != std::string::npos &&
               f.message.find("NCCL_PROTO=Simple") != std::string::npos;
  }
  EXPECT_TRUE(listed);
}

TEST(ExtraCorpus, WarnLevelLogAsksForNcclDebugInfo) {
  auto r = AnalyzeExtra("warn_only.log");
  EXPECT_TRUE(Rules(r).count("debug-info-missing"));
  EXPECT_TRUE(r.job.links.empty());
}

TEST(ExtraCorpus, GraphInitEnvLogProvesNvlinkFromGraphLines) {
  auto r = AnalyzeExtra("graph_init_env.log");
  ASSERT_FALSE(r.job.links.empty());
  for (const auto& l : r.job.links) EXPECT_EQ(l.cls, TransportClass::kNVL) << l.raw;
}

TEST(ExtraCorpus, TwoSimulatedHostsWithoutP2pAreShmInsideAndSocketBetween) {
  auto r = AnalyzeExtra("two_nodes_shm.log");
  for (const auto& l : r.job.links) {
    ASSERT_TRUE(l.intra_node.has_value());
    EXPECT_EQ(l.cls, *l.intra_node ? TransportClass::kSHM : TransportClass::kNetSocket) << l.raw;
  }
  EXPECT_TRUE(Rules(r, Severity::kError).count("socket-fallback"));
}

}  // namespace
}  // namespace ncclscope
