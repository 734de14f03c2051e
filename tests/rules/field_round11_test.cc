// The families the eleventh held-out round of public logs exposed (docs/triage.md): hangs;
// lines verbatim from the threads named, each with the case where the tool must conclude
// otherwise.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::FindingOf;

// hiyouga/LlamaFactory#6269: PyTorch 2.5+ prints where the watchdog timed out; the excerpt has
// no "Watchdog caught collective operation timeout" line.
constexpr std::string_view kTimeoutAtWork =
    "[rank0]:[E1206 18:44:16.994932383 ProcessGroupNCCL.cpp:1709] [PG 1 Rank 0] Timeout at NCCL "
    "work: 7753, last enqueued NCCL work: 7755, last completed NCCL work: 7752.\n"
    "[rank2]:[E1206 18:44:16.994961143 ProcessGroupNCCL.cpp:1709] [PG 1 Rank 2] Timeout at NCCL "
    "work: 7753, last enqueued NCCL work: 7755, last completed NCCL work: 7752.\n";

TEST(FieldRound11, TimeoutAtNcclWorkIsAWatchdogTimeout) {
  AnalysisResult r = AnalyzeText(kTimeoutAtWork);
  EXPECT_NE(FindingOf(r, "watchdog-timeout"), nullptr);
  EXPECT_TRUE(r.root_cause.cause.job_failed);
  // Ranks 0 and 2 waited in the same work; rank 1, between them, said nothing.
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kStuckRank);
  EXPECT_TRUE(testing::OneCulprit(r, 1));
}

TEST(FieldRound11, TheWatchdogLineAndItsTimeoutAtWorkLineAreOneTimeout) {
  // The usual order: "Watchdog caught ..." first, then "Timeout at NCCL work" of the same work.
  AnalysisResult r = AnalyzeText(
      "[rank1]:[E314 14:33:45.172185860 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, "
      "NumelOut=1, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n"
      "[rank1]:[E314 14:33:45.173272575 ProcessGroupNCCL.cpp:1709] [PG 0 (default_pg) Rank 1] "
      "Timeout at NCCL work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1.\n");
  int timed_out = 0;
  for (const TorchRankState& s : r.job.torch_ranks) timed_out += s.timed_out;
  EXPECT_EQ(timed_out, 1);
  int timeouts = 0;
  for (const Incident& i : r.job.incidents.incidents) {
    timeouts += i.kind == IncidentKind::kWatchdogTimeout;
  }
  EXPECT_EQ(timeouts, 1);
}

TEST(FieldRound11, AStuckWatchdogOnEveryRankIsAHangWithoutACulprit) {
  // facebookresearch/dinov2#447.
  AnalysisResult r = AnalyzeText(
      "[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Heartbeat monitor timed out! Process "
      "will be terminated after dumping debug info. workMetaList_.size()=1\n"
      "[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 1] Heartbeat monitor timed out! Process "
      "will be terminated after dumping debug info. workMetaList_.size()=1\n");
  const RootCause& rc = r.root_cause.cause;
  EXPECT_TRUE(rc.job_failed);
  EXPECT_EQ(rc.cls, CauseClass::kTimeoutUnknown);
  EXPECT_TRUE(rc.culprits.empty());
  EXPECT_NE(rc.reasoning.find("rank(s) 0,1"), std::string::npos) << rc.reasoning;
}

TEST(FieldRound11, AnNcclErrorOutranksAStuckWatchdog) {
  AnalysisResult r = AnalyzeText(
      "nodeA:83:2526 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 10.0.0.9<41468> "
      "failed : Connection timed out\n"
      "[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Heartbeat monitor timed out! Process "
      "will be terminated after dumping debug info. workMetaList_.size()=1\n");
  EXPECT_EQ(r.root_cause.cause.cls, CauseClass::kNetwork);
}

}  // namespace
}  // namespace ncclscope
