// DiffRuns on hand-made snapshots: each kind of change is found with the right verdict,
// identical runs give nothing, and --fail-on decides the exit.
#include "ncclscope/diff/run_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ncclscope {
namespace {

/// A ring 0 → 1 → 2 → 3 → 0: each pair's link class.
void SetRing(CommSnapshot* c, const char* c01, const char* c12, const char* c23, const char* c30,
             bool p2p_path_unknown = false) {
  const char* classes[] = {c01, c12, c23, c30};
  c->pairs.clear();
  for (int r = 0; r < 4; ++r) {
    const std::string cls = classes[r];
    c->pairs[{r, (r + 1) % 4}] = PairLink{cls, p2p_path_unknown && cls == "P2P"};
  }
}

/// A healthy 4-rank single-node run: one world communicator over P2P, NCCL 2.28.9.
RunSnapshot Baseline() {
  RunSnapshot s;
  s.label = "before.log";
  s.kind = "log";
  s.nccl_lines = 400;
  s.hosts = 1;
  s.processes = 4;
  s.nccl_versions = {"2.28.9"};
  s.has_configuration = true;
  s.configuration.processes = 4;
  s.configuration.nccl_versions = {{"2.28.9", 4}};
  s.configuration.bootstrap_interfaces = {{"eth0", 4}};
  s.configuration.networks = {{"IB", 4}};
  s.configuration.settings = {{"NCCL_DEBUG", "INFO", "environment", 4}};
  CommSnapshot c;
  c.id = "0xaaaa";
  c.nranks = 4;
  c.nnodes = 1;
  c.local_ranks = 4;
  c.nchannels = 24;
  c.global_ranks = {0, 1, 2, 3};
  c.bottleneck = "P2P";
  c.links = {{"P2P", 4}};
  c.intra_links = {{"P2P", 4}};
  c.has_locality_counts = true;
  c.p2p_path_unknown = 0;
  c.init_complete = true;
  SetRing(&c, "P2P", "P2P", "P2P", "P2P");
  s.comms.push_back(c);
  return s;
}

const DiffItem* Find(const RunDiff& d, DiffTopic topic, std::string_view subject = "") {
  for (const auto& i : d.items) {
    if (i.topic == topic && (subject.empty() || i.subject == subject)) return &i;
  }
  return nullptr;
}

TEST(RunDiffTest, IdenticalRunsHaveNoDifferencesAndNeverFail) {
  const RunSnapshot a = Baseline();
  const RunDiff d = DiffRuns(a, a);
  EXPECT_TRUE(d.items.empty());
  for (auto f : {DiffFailOn::kRegression, DiffFailOn::kChange, DiffFailOn::kAny})
    EXPECT_FALSE(DiffFails(d, f));
}

TEST(RunDiffTest, NewSettingIsAChangeNotARegression) {
  RunSnapshot b = Baseline();
  b.configuration.settings.push_back({"NCCL_P2P_DISABLE", "1", "environment", 4});
  const RunDiff d = DiffRuns(Baseline(), b);
  ASSERT_EQ(d.items.size(), 1u);
  const DiffItem& i = d.items[0];
  EXPECT_EQ(i.topic, DiffTopic::kSettings);
  EXPECT_EQ(i.verdict, DiffVerdict::kChange);
  EXPECT_EQ(i.subject, "NCCL_P2P_DISABLE");
  EXPECT_EQ(i.before, "unset");
  EXPECT_EQ(i.after, "1");
  EXPECT_FALSE(DiffFails(d, DiffFailOn::kRegression));
  EXPECT_TRUE(DiffFails(d, DiffFailOn::kChange));
}

TEST(RunDiffTest, SettingOnSomeProcessesSaysHowMany) {
  RunSnapshot b = Baseline();
  b.configuration.settings.push_back({"NCCL_IB_HCA", "mlx5_0", "environment", 2});
  const RunDiff d = DiffRuns(Baseline(), b);
  const DiffItem* i = Find(d, DiffTopic::kSettings, "NCCL_IB_HCA");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->after, "mlx5_0 on 2 of 4 processes");
}

TEST(RunDiffTest, VersionChangeIsInfoOnly) {
  RunSnapshot b = Baseline();
  b.nccl_versions = {"2.29.2"};
  b.configuration.nccl_versions = {{"2.29.2", 4}};
  b.configuration.plugin_versions = {{"aws-ofi-nccl 1.16.2", 4}};
  const RunDiff d = DiffRuns(Baseline(), b);
  ASSERT_EQ(d.items.size(), 2u);
  for (const auto& i : d.items) {
    EXPECT_EQ(i.topic, DiffTopic::kVersions);
    EXPECT_EQ(i.verdict, DiffVerdict::kInfo);
  }
  EXPECT_EQ(d.items[0].before, "2.28.9");
  EXPECT_EQ(d.items[0].after, "2.29.2");
  EXPECT_FALSE(DiffFails(d, DiffFailOn::kRegression));
  EXPECT_FALSE(DiffFails(d, DiffFailOn::kChange));
  EXPECT_TRUE(DiffFails(d, DiffFailOn::kAny));
  EXPECT_FALSE(DiffFails(d, DiffFailOn::kNever));
}

TEST(RunDiffTest, NetworkFactsAreChanges) {
  RunSnapshot b = Baseline();
  b.configuration.bootstrap_interfaces = {{"ens5", 4}};
  b.configuration.networks = {{"Socket", 4}};
  b.configuration.ib_devices = {{"none", 4}};
  const RunDiff d = DiffRuns(Baseline(), b);
  ASSERT_EQ(d.items.size(), 3u);
  for (const auto& i : d.items) {
    EXPECT_EQ(i.topic, DiffTopic::kNetwork);
    EXPECT_EQ(i.verdict, DiffVerdict::kChange);
  }
  EXPECT_EQ(d.items[0].before, "eth0");
  EXPECT_EQ(d.items[0].after, "ens5");
}

TEST(RunDiffTest, IntraNodeP2pToShmIsARegression) {
  RunSnapshot b = Baseline();
  b.comms[0].id = "0xbbbb";  // Another commId: matched by layout, not by id.
  b.comms[0].links = {{"SHM", 4}};
  b.comms[0].intra_links = {{"SHM", 4}};
  b.comms[0].bottleneck = "SHM";
  SetRing(&b.comms[0], "SHM", "SHM", "SHM", "SHM");
  const RunDiff d = DiffRuns(Baseline(), b);
  const DiffItem* i = Find(d, DiffTopic::kCommunicators, "ranks 0-3");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->verdict, DiffVerdict::kRegression);
  EXPECT_EQ(i->aspect, "links");
  EXPECT_EQ(i->before, "intra-node P2P×4");
  EXPECT_EQ(i->after, "intra-node SHM×4");
  EXPECT_EQ(i->note, "4 rank pairs slower (P2P → SHM ×4)");
  EXPECT_EQ(i->before_ref, "0xaaaa");
  EXPECT_EQ(i->after_ref, "0xbbbb");
  EXPECT_TRUE(DiffFails(d, DiffFailOn::kRegression));
  // The other way round: an improvement, which the default --fail-on does not count.
  const RunDiff back = DiffRuns(b, Baseline());
  ASSERT_NE(Find(back, DiffTopic::kCommunicators), nullptr);
  EXPECT_EQ(Find(back, DiffTopic::kCommunicators)->verdict, DiffVerdict::kImprovement);
  EXPECT_FALSE(DiffFails(back, DiffFailOn::kRegression));
}

/// Two nodes of two ranks: NVL inside, IB between.
RunSnapshot TwoNodes(const char* inter_class) {
  RunSnapshot s = Baseline();
  CommSnapshot& c = s.comms[0];
  c.nnodes = 2;
  c.local_ranks = 2;
  c.links = {{"NVL", 2}, {inter_class, 4}};
  c.intra_links = {{"NVL", 2}};
  c.inter_links = {{inter_class, 4}};
  c.bottleneck = inter_class;
  SetRing(&c, "NVL", inter_class, "NVL", inter_class);
  return s;
}

TEST(RunDiffTest, InterNodeIbToSocketIsARegression) {
  const RunDiff d = DiffRuns(TwoNodes("NET/IB"), TwoNodes("NET/Socket"));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kRegression);
  EXPECT_EQ(d.items[0].before, "intra-node NVL×2; inter-node NET/IB×4");
  EXPECT_EQ(d.items[0].after, "intra-node NVL×2; inter-node NET/Socket×4");
}

TEST(RunDiffTest, SlowerIntraNodeLinksBehindASlowerNetworkStillRegress) {
  RunSnapshot b = TwoNodes("NET/Socket");
  b.comms[0].links = {{"SHM", 2}, {"NET/Socket", 4}};
  b.comms[0].intra_links = {{"SHM", 2}};
  SetRing(&b.comms[0], "SHM", "NET/Socket", "SHM", "NET/Socket");
  // The bottleneck (NET/Socket) is the same: the intra-node links alone got slower.
  const RunDiff d = DiffRuns(TwoNodes("NET/Socket"), b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kRegression);
  EXPECT_EQ(d.items[0].note, "2 rank pairs slower (NVL → SHM ×2)");
}

TEST(RunDiffTest, PodPerGpuMovesLinksOntoTheNetworkAndRegresses) {
  RunSnapshot b = Baseline();
  CommSnapshot& c = b.comms[0];
  c.nnodes = 4;
  c.local_ranks = 1;
  c.links = {{"NET/Socket", 4}};
  c.intra_links = {};
  c.inter_links = {{"NET/Socket", 4}};
  SetRing(&c, "NET/Socket", "NET/Socket", "NET/Socket", "NET/Socket");
  const RunDiff d = DiffRuns(Baseline(), b);
  const DiffItem* links = Find(d, DiffTopic::kCommunicators);
  ASSERT_NE(links, nullptr);
  EXPECT_EQ(links->verdict, DiffVerdict::kRegression);
  ASSERT_EQ(d.items.size(), 2u);
  EXPECT_EQ(d.items[1].aspect, "nodes");
  EXPECT_EQ(d.items[1].before, "1 node, 4 local ranks");
  EXPECT_EQ(d.items[1].after, "4 nodes, 1 local rank");
}

TEST(RunDiffTest, NvlinkProvenOnlyOnOneSideIsInfo) {
  RunSnapshot a = Baseline();
  a.comms[0].links = {{"NVL", 4}};
  a.comms[0].intra_links = {{"NVL", 4}};
  SetRing(&a.comms[0], "NVL", "NVL", "NVL", "NVL");
  RunSnapshot b = Baseline();
  b.comms[0].p2p_path_unknown = 4;  // P2P links whose path the log does not show.
  SetRing(&b.comms[0], "P2P", "P2P", "P2P", "P2P", /*p2p_path_unknown=*/true);
  const RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
  EXPECT_NE(d.items[0].note.find("BEFORE only"), std::string::npos);
  // P2P proven to run over PCIe instead of NVLink: a real regression.
  b.comms[0].p2p_path_unknown = 0;
  SetRing(&b.comms[0], "P2P", "P2P", "P2P", "P2P");
  EXPECT_EQ(DiffRuns(a, b).items.at(0).verdict, DiffVerdict::kRegression);
}

TEST(RunDiffTest, ChannelsAndInitAreChanges) {
  RunSnapshot b = Baseline();
  b.comms[0].nchannels = 4;
  b.comms[0].init_complete = false;
  const RunDiff d = DiffRuns(Baseline(), b);
  ASSERT_EQ(d.items.size(), 2u);
  EXPECT_EQ(d.items[0].aspect, "channels");
  EXPECT_EQ(d.items[0].before, "ring 24");
  EXPECT_EQ(d.items[0].after, "ring 4");
  EXPECT_EQ(d.items[1].aspect, "init");
  EXPECT_EQ(d.items[1].after, "incomplete");
  for (const auto& i : d.items) EXPECT_EQ(i.verdict, DiffVerdict::kChange);
}

TEST(RunDiffTest, ChannelsLoggedOnOneSideOnlyAreInfo) {
  RunSnapshot b = Baseline();
  b.comms[0].nchannels = -1;
  const RunDiff d = DiffRuns(Baseline(), b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
  EXPECT_EQ(d.items[0].before, "ring 24");
  EXPECT_EQ(d.items[0].after, "not logged");
}

TEST(RunDiffTest, RankPairThatGotFasterIsAnImprovement) {
  RunSnapshot a = Baseline();
  SetRing(&a.comms[0], "P2P", "SHM", "P2P", "P2P");
  a.comms[0].links = {{"P2P", 3}, {"SHM", 1}};
  a.comms[0].intra_links = a.comms[0].links;
  const RunDiff d = DiffRuns(a, Baseline());
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kImprovement);
  EXPECT_EQ(d.items[0].note, "1 rank pair faster (SHM → P2P ×1)");
}

FindingSnapshot MakeFinding(const char* rule, const char* severity) {
  return FindingSnapshot{rule, severity, std::string("title of ") + rule, "message"};
}

TEST(RunDiffTest, FindingsAddedGoneAndEscalated) {
  RunSnapshot a = Baseline(), b = Baseline();
  a.findings = {MakeFinding("p2p-path-unknown", "info"), MakeFinding("slow-init", "warning"),
                MakeFinding("socket-fallback", "warning")};
  b.findings = {MakeFinding("p2p-disabled", "warning"), MakeFinding("env-override", "info"),
                MakeFinding("socket-fallback", "error")};
  const RunDiff d = DiffRuns(a, b);
  auto verdict = [&](const char* rule) {
    const DiffItem* i = Find(d, DiffTopic::kFindings, rule);
    EXPECT_NE(i, nullptr) << rule;
    return i ? i->verdict : DiffVerdict::kInfo;
  };
  EXPECT_EQ(verdict("p2p-disabled"), DiffVerdict::kRegression);     // new warning
  EXPECT_EQ(verdict("env-override"), DiffVerdict::kChange);         // new info
  EXPECT_EQ(verdict("slow-init"), DiffVerdict::kImprovement);       // warning gone
  EXPECT_EQ(verdict("p2p-path-unknown"), DiffVerdict::kChange);     // info gone
  EXPECT_EQ(verdict("socket-fallback"), DiffVerdict::kRegression);  // warning → error
  EXPECT_EQ(d.items.size(), 5u);
}

TEST(RunDiffTest, SameFindingsInBothRunsAreNoDifference) {
  RunSnapshot a = Baseline();
  a.findings = {MakeFinding("socket-fallback", "error")};
  RunSnapshot b = a;
  b.findings[0].message = "other numbers";  // Same rule and title: still the same finding.
  EXPECT_TRUE(DiffRuns(a, b).items.empty());
}

BenchSnapshot Bench(double peak, double avg) {
  BenchSnapshot t;
  t.name = "all_reduce_perf";
  t.ranks = 4;
  t.peak_busbw_gbps = peak;
  t.avg_busbw_gbps = avg;
  return t;
}

TEST(RunDiffTest, BusbwDropBeyondToleranceIsARegression) {
  RunSnapshot a = Baseline(), b = Baseline();
  a.bench = {Bench(348.0, 99.4)};
  b.bench = {Bench(21.0, 8.0)};
  const RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 2u);
  EXPECT_EQ(d.items[0].aspect, "peak busbw");
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kRegression);
  EXPECT_EQ(d.items[0].before, "348.00 GB/s");
  EXPECT_EQ(d.items[0].note, "-94 %");
  EXPECT_EQ(d.items[0].subject, "all_reduce_perf (4 ranks)");
  // Within the tolerance: nothing.
  b.bench = {Bench(340.0, 97.0)};
  EXPECT_TRUE(DiffRuns(a, b).items.empty());
  DiffOptions strict;
  strict.busbw_tolerance = 0.01;
  EXPECT_EQ(DiffRuns(a, b, strict).items.size(), 2u);
}

TEST(RunDiffTest, WrongResultsAreARegression) {
  RunSnapshot a = Baseline(), b = Baseline();
  a.bench = {Bench(348.0, 99.4)};
  b.bench = {Bench(348.0, 99.4)};
  b.bench[0].wrong_total = 12;
  const RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].aspect, "#wrong");
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kRegression);
}

TEST(RunDiffTest, BenchOnlyRunComparesOnlyTheBenchmarks) {
  RunSnapshot a = Baseline();
  a.bench = {Bench(348.0, 99.4)};
  a.findings = {MakeFinding("p2p-path-unknown", "info")};
  RunSnapshot b;
  b.label = "after.txt";
  b.bench = {Bench(20.0, 8.0)};
  b.findings = {MakeFinding("debug-info-missing", "warning")};
  const RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 3u);
  EXPECT_EQ(d.items[0].subject, "NCCL log");
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
  EXPECT_EQ(Find(d, DiffTopic::kFindings), nullptr);
  EXPECT_EQ(Find(d, DiffTopic::kCommunicators), nullptr);
}

TEST(RunDiffTest, ReportWithoutConfigurationSaysWhatIsNotCompared) {
  RunSnapshot a = Baseline();
  a.has_configuration = false;
  a.tool_version = "0.1.0";
  a.configuration = {};
  RunSnapshot b = Baseline();
  b.configuration.settings.push_back({"NCCL_P2P_DISABLE", "1", "environment", 4});
  const RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
  EXPECT_EQ(d.items[0].subject, "configuration");
  EXPECT_NE(d.items[0].note.find("0.1.0"), std::string::npos);
}

TEST(RunDiffTest, AlgorithmChoicesCompareOnlyWhenBothRunsLoggedThem) {
  RunSnapshot a = Baseline(), b = Baseline();
  a.configuration.coll_algos = {{"AllReduce RING/SIMPLE", 1}, {"Broadcast RING/SIMPLE", 1}};
  b.configuration.coll_algos = {
      {"AllReduce RING/LL", 1}, {"AllReduce TREE/LL", 1}, {"Broadcast RING/SIMPLE", 1}};
  RunDiff d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].subject, "AllReduce");
  EXPECT_EQ(d.items[0].before, "RING/SIMPLE");
  EXPECT_EQ(d.items[0].after, "RING/LL, TREE/LL");
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kChange);
  b.configuration.coll_algos.clear();
  d = DiffRuns(a, b);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
}

TEST(RunDiffTest, JobShapeChanges) {
  RunSnapshot b = Baseline();
  b.hosts = 2;
  b.processes = 8;
  b.configuration.processes = 8;
  b.configuration.nccl_versions = {{"2.28.9", 8}};
  b.configuration.bootstrap_interfaces = {{"eth0", 8}};
  b.configuration.networks = {{"IB", 8}};
  b.configuration.settings = {{"NCCL_DEBUG", "INFO", "environment", 8}};
  const RunDiff d = DiffRuns(Baseline(), b);
  // Facts that hold on every process of both runs are no change, whatever the run sizes.
  ASSERT_EQ(d.items.size(), 2u);
  EXPECT_EQ(d.items[0].subject, "hosts");
  EXPECT_EQ(d.items[1].subject, "processes");
}

/// An excerpt: links, but no communicator (the init lines were not pasted).
RunSnapshot Excerpt(const char* intra_cls, int intra, const char* inter_cls, int inter) {
  RunSnapshot s;
  s.label = "excerpt.log";
  s.kind = "log";
  s.nccl_lines = 30;
  s.hosts = 2;
  s.processes = 4;
  s.all_links.id = "all links";
  s.all_links.has_locality_counts = true;
  s.all_links.p2p_path_unknown = 0;
  s.all_links.links[intra_cls] += intra;
  s.all_links.intra_links[intra_cls] += intra;
  s.all_links.links[inter_cls] += inter;
  s.all_links.inter_links[inter_cls] += inter;
  return s;
}

TEST(RunDiffTest, ExcerptsWithoutCommunicatorsCompareTheLinksOfTheWholeRun) {
  const RunDiff d = DiffRuns(Excerpt("P2P", 4, "NET/IB", 2), Excerpt("P2P", 4, "NET/Socket", 2));
  const DiffItem* links =
      Find(d, DiffTopic::kCommunicators, "all links (no communicator pair to compare)");
  ASSERT_NE(links, nullptr);
  EXPECT_EQ(links->verdict, DiffVerdict::kRegression);
  EXPECT_EQ(links->before, "intra-node P2P×4; inter-node NET/IB×2");
  EXPECT_EQ(links->after, "intra-node P2P×4; inter-node NET/Socket×2");
  EXPECT_TRUE(DiffFails(d, DiffFailOn::kRegression));
  // The way back is an improvement; the same links are no difference.
  const RunDiff back =
      DiffRuns(Excerpt("P2P", 4, "NET/Socket", 2), Excerpt("P2P", 4, "NET/IB", 2));
  ASSERT_NE(Find(back, DiffTopic::kCommunicators), nullptr);
  EXPECT_EQ(Find(back, DiffTopic::kCommunicators)->verdict, DiffVerdict::kImprovement);
  EXPECT_EQ(Find(DiffRuns(Excerpt("P2P", 4, "NET/IB", 2), Excerpt("P2P", 4, "NET/IB", 2)),
                 DiffTopic::kCommunicators),
            nullptr);
}

TEST(RunDiffTest, WholeRunLinksAreNotComparedWhenCommunicatorsPair) {
  RunSnapshot a = Baseline(), b = Baseline();
  a.all_links = a.comms[0];
  b.all_links = b.comms[0];
  b.all_links.links = {{"SHM", 4}};  // Would be a regression if it were compared.
  b.all_links.intra_links = {{"SHM", 4}};
  EXPECT_TRUE(DiffRuns(a, b).items.empty());
}

OutcomeSnapshot Completed() {
  OutcomeSnapshot o;
  o.cls = "none";
  return o;
}

OutcomeSnapshot Died(int rank, const char* cls = "process-killed") {
  OutcomeSnapshot o;
  o.cls = cls;
  o.failed = true;
  o.ranks = {rank};
  o.who = "rank " + std::to_string(rank) + " (vm pid 631)";
  o.what = "was killed by SIGKILL (signal 9)";
  return o;
}

/// Baseline() with a root cause per attempt; the job's is the last failed attempt's.
RunSnapshot Ended(std::vector<OutcomeSnapshot> attempts) {
  RunSnapshot s = Baseline();
  s.has_root_cause = true;
  s.attempts = std::move(attempts);
  s.outcome = s.attempts.back();
  for (const OutcomeSnapshot& o : s.attempts) {
    if (o.failed) s.outcome = o;
  }
  return s;
}

TEST(RunDiffTest, JobThatFailedWhereItHadCompletedIsARegression) {
  const RunDiff d = DiffRuns(Ended({Completed()}), Ended({Died(1)}));
  ASSERT_EQ(d.items.size(), 1u);
  const DiffItem& i = d.items[0];
  EXPECT_EQ(i.topic, DiffTopic::kOutcome);
  EXPECT_EQ(i.verdict, DiffVerdict::kRegression);
  EXPECT_EQ(i.before, "completed");
  EXPECT_EQ(i.after, "failed: rank 1 process-killed");
  EXPECT_EQ(i.note, "rank 1 (vm pid 631) was killed by SIGKILL (signal 9)");
  EXPECT_TRUE(DiffFails(d, DiffFailOn::kRegression));
  // The way back is an improvement.
  const RunDiff back = DiffRuns(Ended({Died(1)}), Ended({Completed()}));
  ASSERT_EQ(back.items.size(), 1u);
  EXPECT_EQ(back.items[0].verdict, DiffVerdict::kImprovement);
  EXPECT_FALSE(DiffFails(back, DiffFailOn::kRegression));
}

TEST(RunDiffTest, RestartThatRecoveredStillRegressesByItsFailedAttempt) {
  const RunDiff d = DiffRuns(Ended({Completed()}), Ended({Died(1), Completed()}));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kRegression);
  EXPECT_EQ(d.items[0].aspect, "failed attempts");
  EXPECT_EQ(d.items[0].before, "0 of 1");
  EXPECT_EQ(d.items[0].after, "1 of 2");
  EXPECT_NE(d.items[0].note.find("attempt 1: rank 1 (vm pid 631) was killed"), std::string::npos)
      << d.items[0].note;
}

TEST(RunDiffTest, AnotherRootCauseOfAFailureIsAChange) {
  const RunDiff d = DiffRuns(Ended({Died(1)}), Ended({Died(3, "stuck-rank")}));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kChange);
  EXPECT_EQ(d.items[0].aspect, "root cause");
  EXPECT_EQ(d.items[0].before, "rank 1 process-killed");
  EXPECT_EQ(d.items[0].after, "rank 3 stuck-rank");
  // The same failure twice is no difference.
  EXPECT_TRUE(DiffRuns(Ended({Died(1)}), Ended({Died(1)})).items.empty());
}

TEST(RunDiffTest, LateStartOfACompletedJobIsAChange) {
  OutcomeSnapshot late = Completed();
  late.cls = "late-start";
  late.ranks = {1};
  late.who = "rank 1 (vm pid 737)";
  late.what = "reached init about 13.6 s after the other ranks";
  const RunDiff d = DiffRuns(Ended({Completed()}), Ended({late}));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kChange);
  EXPECT_EQ(d.items[0].after, "rank 1 late-start");
}

TEST(RunDiffTest, ReportWithoutRootCauseSaysOutcomesAreNotCompared) {
  RunSnapshot a = Baseline();  // a report written before root_cause
  const RunDiff d = DiffRuns(a, Ended({Died(1)}));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].verdict, DiffVerdict::kInfo);
  EXPECT_EQ(d.items[0].before, "");
  EXPECT_EQ(d.items[0].after, "failed: rank 1 process-killed");
}

TEST(RunDiffTest, FailOnNamesRoundTrip) {
  for (auto f :
       {DiffFailOn::kRegression, DiffFailOn::kChange, DiffFailOn::kAny, DiffFailOn::kNever})
    EXPECT_EQ(ParseDiffFailOn(DiffFailOnName(f)), f);
  EXPECT_FALSE(ParseDiffFailOn("error").has_value());
}

}  // namespace
}  // namespace ncclscope
