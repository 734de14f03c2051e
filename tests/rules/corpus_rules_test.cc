// Rules over the real corpus logs, through the whole pipeline (AnalyzeText).
#include <gtest/gtest.h>

#include "job_fixtures.h"
#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

std::vector<Finding> Findings(const std::string& rel) {
  return AnalyzeText(ReadFileOrDie(TestData("corpus/" + rel)), rel).findings;
}

const Finding* First(const std::vector<Finding>& all, const std::string& rule) {
  for (const Finding& f : all) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

TEST(CorpusRules, DefaultIsHealthy) {
  auto all = Findings("h200x4/default.log");
  for (const Finding& f : all)
    EXPECT_EQ(f.severity, Severity::kInfo) << f.rule << ": " << f.message;
}

TEST(CorpusRules, CumemOffNotesOverrideOnly) {
  auto all = Findings("h200x4/cumem_off.log");
  EXPECT_TRUE(NoErrors(all));
  const Finding* f = First(all, "env-override");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("NCCL_CUMEM_ENABLE=0"), std::string::npos);
}

TEST(CorpusRules, SocketOnlyIsIntraNodeNet) {
  EXPECT_NE(First(Findings("h200x4/socket_only.log"), "intra-node-net"), nullptr);
}

TEST(CorpusRules, PodPerGpuIsIntraNodeNet) {
  EXPECT_NE(First(Findings("h200x4/pod_per_gpu.log"), "intra-node-net"), nullptr);
}

TEST(CorpusRules, P2pDisable) {
  EXPECT_NE(First(Findings("h200x4/p2p_disable.log"), "p2p-disabled"), nullptr);
}

TEST(CorpusRules, ShmSmall) {
  auto all = Findings("h200x4/shm_small.log");
  const Finding* f = First(all, "shm-failure");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(First(all, "nccl-warn"), nullptr);
}

TEST(CorpusRules, BadIfname) {
  auto all = Findings("h200x4/bad_ifname.log");
  const Finding* f = First(all, "bootstrap-interface");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
}

TEST(CorpusRules, ForceIb) {
  auto all = Findings("h200x4/force_ib.log");
  EXPECT_NE(First(all, "net-plugin-failed"), nullptr);
  EXPECT_NE(First(all, "nccl-error"), nullptr);
  EXPECT_EQ(First(all, "nccl-warn"), nullptr);
}

TEST(CorpusRules, BadPlugin) {
  auto all = Findings("h200x4/bad_plugin.log");
  const Finding* f = First(all, "net-plugin-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
}

TEST(CorpusRules, HangWatchdogSuspectsRank3) {
  auto all = Findings("h200x4/hang.log");
  const Finding* f = First(all, "watchdog-timeout");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->suspect_ranks, std::vector<int>{3});
}

TEST(CorpusRules, P2pRead) {
  EXPECT_NE(First(Findings("h200x4/p2p_read.log"), "p2p-read-mode"), nullptr);
}

TEST(CorpusRules, P2pCeHangSuspected) {
  EXPECT_NE(First(Findings("h200x4/p2p_ce.log"), "hang-suspected"), nullptr);
}

TEST(CorpusRules, Seed004OfiFailedSocketSlowInit) {
  auto all = Findings("seeds/seed004-g6e-ofi-init-failed-socket.log");
  EXPECT_NE(First(all, "net-plugin-failed"), nullptr);
  const Finding* s = First(all, "socket-fallback");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->severity, Severity::kError);
  EXPECT_NE(First(all, "slow-init"), nullptr);
}

TEST(CorpusRules, Seed002PodsShareP4d) {
  EXPECT_NE(First(Findings("seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log"), "intra-node-net"),
            nullptr);
}

}  // namespace
}  // namespace ncclscope::testing
