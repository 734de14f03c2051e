// The proxy service threads' "[Service thread] Connection closed by localRank N" lines: parsed
// into ProxyPeerClosed, kept as witnesses, and read by the root-cause analysis as the local peer
// that went away first when every witness of a host names it — and not when the lines are an
// orderly end or a process's own connection. Lines quoted from public threads.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/analysis/analyze.h"
#include "parse/parse_test_util.h"
#include "rules/finding_lookup.h"
#include "test_util.h"

namespace ncclscope {
namespace {

// sgl-project/sglang#5013 (a segfault on node 0 of a TP16 job): the seven other local
// processes each see local rank 7 leave, once per communicator; nothing else is in the excerpt.
constexpr std::string_view kLocalRank7Gone =
    "A100-GPU-50:343:1213 [5] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:344:1208 [6] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:341:1216 [3] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:340:1215 [2] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:339:1212 [1] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:342:1214 [4] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:338:1220 [0] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:344:1083 [6] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:343:1084 [5] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:342:1082 [4] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:341:1085 [3] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:339:1081 [1] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:340:1091 [2] NCCL INFO [Service thread] Connection closed by localRank 7\n"
    "A100-GPU-50:338:1092 [0] NCCL INFO [Service thread] Connection closed by localRank 7\n";

const RootCause& CauseOf(const AnalysisResult& r) { return r.root_cause.cause; }

TEST(ProxyPeerClosed, ServiceThreadLineGivesThePeersLocalRank) {
  const auto e = testing::ParseAs<ProxyPeerClosed>(
      "A100-GPU-50:343:1213 [5] NCCL INFO [Service thread] Connection closed by localRank 7");
  EXPECT_EQ(e.local_rank, 7);
  // A pasted line with trailing bytes still names its peer.
  EXPECT_EQ(testing::ParseAs<ProxyPeerClosed>(
                "vm:789:808 [0] NCCL INFO [Service thread] Connection closed by localRank 12\r")
                .local_rank,
            12);
}

TEST(ProxyPeerClosed, OtherServiceThreadMessagesStayWhatTheyWere) {
  const testing::Parsed p = testing::ParseOne(
      "node1:5:9 [0] NCCL INFO [Service thread] Connection closed by localRank x");
  EXPECT_EQ(EventTypeName(p.event.data), "known_noise");
}

TEST(PeerCloses, EveryLocalWitnessNamingOnePeerNamesItAsWhatWentAway) {
  const AnalysisResult r = AnalyzeText(std::string(kLocalRank7Gone));
  const RootCause& c = CauseOf(r);
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  EXPECT_EQ(ConfidenceName(c.confidence), "low");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].host, "A100-GPU-50");
  EXPECT_NE(c.what.find("local rank 7"), std::string::npos) << c.what;
  EXPECT_NE(c.reasoning.find("7 processes"), std::string::npos) << c.reasoning;
  // Fourteen NCCL INFO lines: NCCL_DEBUG=INFO was set, whatever the model kept of them.
  EXPECT_EQ(testing::FindingOf(r, "debug-info-missing"), nullptr);
}

TEST(PeerCloses, OwnConnectionsClosingAtTheEndNameNobody) {
  // ecmwf/WeatherGenerator#1404: at the end of training each process's proxy sees its own
  // connection close, then the communicators are aborted.
  const AnalysisResult r = AnalyzeText(
      "gcn66:1772561:1773212 [2] NCCL INFO [Service thread] Connection closed by localRank 2\n"
      "gcn66:1772560:1773211 [1] NCCL INFO [Service thread] Connection closed by localRank 1\n"
      "gcn66:1772561:1960261 [2] NCCL INFO comm 0xf1a9890 rank 2 nranks 4 cudaDev 2 busId ca000 "
      "- Abort COMPLETE\n"
      "gcn66:1772560:1960263 [1] NCCL INFO comm 0xe19c410 rank 1 nranks 4 cudaDev 1 busId 32000 "
      "- Abort COMPLETE\n");
  EXPECT_FALSE(CauseOf(r).job_failed);
}

TEST(PeerCloses, PeersLeavingOneAfterAnotherAtTheEndNameNobody) {
  // gnosia93/training-on-eks (a DeepSpeed run that finished and saved its model): local rank 1
  // leaves first, then local rank 2; not every witness saw the same one peer.
  const AnalysisResult r = AnalyzeText(
      "llama-3-8b-node-0-0:191:637 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
      "llama-3-8b-node-0-0:193:634 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
      "llama-3-8b-node-0-0:191:1071 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
      "llama-3-8b-node-0-0:193:1069 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
      "llama-3-8b-node-0-0:194:635 [3] NCCL INFO [Service thread] Connection closed by localRank 2\n"
      "llama-3-8b-node-0-0:194:1072 [3] NCCL INFO [Service thread] Connection closed by localRank 2\n");
  EXPECT_FALSE(CauseOf(r).job_failed);
}

TEST(PeerCloses, ADestroyedCommunicatorOnTheHostMakesItAnOrderlyEnd) {
  std::string log(kLocalRank7Gone);
  log += "A100-GPU-50:338:338 [0] NCCL INFO comm 0x79ec210 rank 0 nranks 16 cudaDev 0 busId 7000 "
         "- Destroy COMPLETE\n";
  EXPECT_FALSE(CauseOf(AnalyzeText(log)).job_failed);
}

TEST(PeerCloses, TwoHostsEachLosingAPeerNameNeither) {
  std::string other(kLocalRank7Gone);
  for (size_t p = other.find("A100-GPU-50"); p != std::string::npos;
       p = other.find("A100-GPU-50", p)) {
    other.replace(p, 11, "A100-GPU-51");
  }
  const AnalysisResult r = AnalyzeText(std::string(kLocalRank7Gone) + other);
  EXPECT_FALSE(CauseOf(r).job_failed);
}

TEST(PeerCloses, AnErrorOfARankStillComesFirst) {
  // NVIDIA/nccl-tests#252: an IB completion error on kolyoz2 pid 25146 [0], then every local
  // process sees local rank 0 leave: the error, not the witnesses, is the root cause.
  const AnalysisResult r = AnalyzeText(
      "kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer "
      "10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)\n"
      "kolyoz2:25172:25848 [1] NCCL INFO [Service thread] Connection closed by localRank 0\n"
      "kolyoz2:25148:25846 [3] NCCL INFO [Service thread] Connection closed by localRank 0\n"
      "kolyoz2:25169:25849 [2] NCCL INFO [Service thread] Connection closed by localRank 0\n");
  const RootCause& c = CauseOf(r);
  EXPECT_EQ(CauseClassName(c.cls), "network");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].pid, 25146);
}

}  // namespace

// modelscope/FunASR#2006: rank 2's exception names no host; the proxy services of its host saw
// local rank 2 leave.
constexpr std::string_view kRank2OomAndWitnesses =
    "[rank2]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 336.00 MiB.\n"
    "train-w-0:15325:16199 [2] NCCL INFO [Service thread] Connection closed by localRank 2\n"
    "train-w-0:15323:16203 [0] NCCL INFO [Service thread] Connection closed by localRank 2\n"
    "train-w-0:15327:16195 [4] NCCL INFO [Service thread] Connection closed by localRank 2\n";

TEST(PeerCloses, WitnessesGiveAnUnhostedFailingRankItsHost) {
  const AnalysisResult r = AnalyzeText(std::string(kRank2OomAndWitnesses));
  EXPECT_EQ(CauseClassName(CauseOf(r).cls), "cuda-oom");
  EXPECT_TRUE(testing::OneCulprit(r, 2, "train-w-0"));
}

TEST(PeerCloses, WitnessesOfAnotherLocalRankOrOfTwoHostsGiveNoHost) {
  std::string other(kRank2OomAndWitnesses);
  for (size_t at = other.find("localRank 2"); at != std::string::npos;
       at = other.find("localRank 2", at + 1)) {
    other.replace(at, 11, "localRank 3");
  }
  EXPECT_TRUE(testing::OneCulprit(AnalyzeText(other), 2, ""));
  EXPECT_TRUE(CauseOf(AnalyzeText(other)).culprits[0].host.empty());
  const std::string two_hosts =
      std::string(kRank2OomAndWitnesses) +
      "train-m-0:2201:2301 [0] NCCL INFO [Service thread] Connection closed by localRank 2\n";
  const AnalysisResult r = AnalyzeText(two_hosts);
  ASSERT_EQ(CauseOf(r).culprits.size(), 1u);
  EXPECT_TRUE(CauseOf(r).culprits[0].host.empty());
}

}  // namespace ncclscope
