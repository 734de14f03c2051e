// Folding of ended communicators that repeat an earlier one's shape (src/model/comm_folding.cc):
// a job that creates communicators again and again keeps one record per shape and a count, and
// the rules and counts read the same as from the model that keeps every communicator.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/rules/registry.h"
#include "model/comm_rounds.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::Round;
using testing::TestData;
using testing::Without;
using testing::WithoutProcessBanner;

Job Build(const std::string& text, size_t fold_from) {
  BuilderTuning tuning;
  tuning.fold_from = fold_from;
  return testing::BuildJob(text, tuning);
}

/// `rounds` rounds of the corpus log whose communicators are all destroyed.
std::string Rounds(const char* rel, int rounds, int first = 0) {
  const std::string log = ReadFileOrDie(TestData(rel));
  std::string text = first == 0 ? log : Round(WithoutProcessBanner(log), first);
  for (int r = first + 1; r < first + rounds; ++r) text += Round(WithoutProcessBanner(log), r);
  return text;
}

uint64_t Communicators(const Job& job) {
  uint64_t n = 0;
  for (const Communicator& c : job.comms) n += 1 + c.repeats;
  return n;
}

/// Per transport class: links and connection lines, every folded communicator counted.
std::map<TransportClass, std::pair<uint64_t, uint64_t>> ClassTotals(const Job& job) {
  std::map<TransportClass, std::pair<uint64_t, uint64_t>> m;
  for (const Link& l : job.links) {
    auto& [links, lines] = m[l.cls];
    links += l.comm >= 0 ? 1 + job.comms[l.comm].repeats : 1;
    lines += l.lines;
  }
  return m;
}

/// Links per attribution certainty, every folded communicator counted.
std::map<Attribution, uint64_t> AttributionTotals(const Job& job) {
  std::map<Attribution, uint64_t> m;
  for (const Link& l : job.links) m[l.attribution] += l.comm >= 0 ? 1 + job.comms[l.comm].repeats : 1;
  return m;
}

/// Findings as (rule, severity, message): counts in messages weigh folded communicators.
std::set<std::tuple<std::string, Severity, std::string>> Rules(const Job& job) {
  std::set<std::tuple<std::string, Severity, std::string>> out;
  for (const Finding& f : RunRules(job, RuleOptions{})) out.emplace(f.rule, f.severity, f.message);
  return out;
}

TEST(CommFoldingTest, RepeatedCommunicatorsFoldIntoOnePerShapeWithTheSameTotals) {
  const std::string text = Rounds("corpus/h200x4/default.log", 40);
  const Job all = Build(text, 0);
  const Job folded = Build(text, 8);
  ASSERT_EQ(all.comms.size(), 200u);  // 5 communicators per round (the world and 4 splits)
  EXPECT_EQ(all.stats.folded_comms, 0u);
  EXPECT_GT(folded.stats.folded_comms, 0u);
  // At most fold_from ended ones are kept before folding starts, then one per shape (5).
  EXPECT_LE(folded.comms.size(), 8u + 5u);
  EXPECT_EQ(folded.comms.size() + folded.stats.folded_comms, all.comms.size());
  EXPECT_EQ(Communicators(folded), Communicators(all));
  EXPECT_EQ(ClassTotals(folded), ClassTotals(all));
  EXPECT_EQ(Rules(folded), Rules(all));
  // The kept communicators are in creation order: a subsequence of the full model's.
  size_t at = 0;
  for (const Communicator& c : folded.comms) {
    while (at < all.comms.size() && all.comms[at].id != c.id) ++at;
    ASSERT_LT(at, all.comms.size()) << c.id << " out of order";
  }
  for (const Link& l : folded.links) {
    ASSERT_GE(l.comm, 0);
    ASSERT_LT(static_cast<size_t>(l.comm), folded.comms.size());
  }
  EXPECT_EQ(AttributionTotals(folded), AttributionTotals(all));
}

TEST(CommFoldingTest, ReusedSlotsAttributeLaterConnectionsLikeTheFullModel) {
  // Two shapes (P2P and P2P/read) one after the other: the slots freed by one shape's folds hold
  // the other's communicators next; every link still lands on a communicator of its own shape.
  std::string text = Rounds("corpus/h200x4/default.log", 12);
  const std::string read = ReadFileOrDie(TestData("corpus/h200x4/p2p_read.log"));
  for (int r = 12; r < 30; ++r) {
    text += Round(WithoutProcessBanner(r % 2 ? read : ReadFileOrDie(TestData(
                                                          "corpus/h200x4/default.log"))),
                  r);
  }
  const Job all = Build(text, 0);
  const Job folded = Build(text, 4);
  EXPECT_GT(folded.stats.folded_comms, 0u);
  EXPECT_EQ(Communicators(folded), Communicators(all));
  EXPECT_EQ(ClassTotals(folded), ClassTotals(all));
  EXPECT_EQ(AttributionTotals(folded), AttributionTotals(all));
  EXPECT_EQ(Rules(folded), Rules(all));
  for (const Link& l : folded.links) {
    SCOPED_TRACE(l.first.text);
    ASSERT_GE(l.comm, 0);
    // A communicator's links are all read or all not: shapes were not mixed.
    for (const Link& other : folded.links) {
      if (other.comm == l.comm && other.cls == l.cls) {
        EXPECT_EQ(other.read, l.read);
      }
    }
  }
}

TEST(CommFoldingTest, RuleMessagesCountEveryFoldedCommunicatorAndLink) {
  // Two simulated nodes over sockets on one physical host, and SHM with P2P disabled: the
  // messages of socket-fallback's neighbours (intra-node-net, p2p-disabled, p2p-path-unknown)
  // count links and communicators as the full model does; socket-fallback names its repeats.
  for (const char* rel : {"corpus/h200x4/two_nodes.log", "corpus/h200x4/p2p_disable.log"}) {
    SCOPED_TRACE(rel);
    const std::string text = Rounds(rel, 20);
    const Job all = Build(text, 0);
    const Job folded = Build(text, 4);
    ASSERT_GT(folded.stats.folded_comms, 0u);
    std::map<std::string, std::string> want, got;
    for (const auto& [rule, severity, message] : Rules(all)) want[rule] = message;
    for (const auto& [rule, severity, message] : Rules(folded)) got[rule] = message;
    ASSERT_EQ(got.size(), want.size());
    for (const auto& [rule, message] : want) {
      SCOPED_TRACE(rule);
      ASSERT_EQ(got.count(rule), 1u);
      if (rule == "socket-fallback") {
        EXPECT_NE(got[rule].find("repeats"), std::string::npos) << got[rule];
        // What follows the per-communicator counts (the cause, the links on one host) agrees.
        const auto tail = [](const std::string& m) { return m.substr(m.find(" run over ")); };
        EXPECT_EQ(tail(got[rule]), tail(message));
      } else if (rule != "slow-init") {
        EXPECT_EQ(got[rule], message);
      }
    }
  }
}

TEST(CommFoldingTest, FoldingNextToLiveCommunicatorsAndCountedListsKeepsAttribution) {
  // Odd rounds never destroy their communicators (they stay open and are candidates for every
  // later connection line), even rounds do and are folded; with count_from 1 every membership
  // list keeps held-connection counts, which the freed and reused slots must not disturb.
  const std::string def = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  const std::string live = WithoutProcessBanner(Without(def, "Destroy COMPLETE"));
  std::string text = def;
  for (int r = 1; r < 24; ++r) text += Round(r % 2 ? live : WithoutProcessBanner(def), r);
  BuilderTuning keep_all, fold;
  keep_all.count_from = fold.count_from = 1;
  keep_all.fold_from = 0;
  fold.fold_from = 8;
  const Job all = testing::BuildJob(text, keep_all);
  const Job folded = testing::BuildJob(text, fold);
  EXPECT_GT(folded.stats.folded_comms, 0u);
  EXPECT_EQ(Communicators(folded), Communicators(all));
  EXPECT_EQ(ClassTotals(folded), ClassTotals(all));
  EXPECT_EQ(AttributionTotals(folded), AttributionTotals(all));
  EXPECT_EQ(Rules(folded), Rules(all));
}

TEST(CommFoldingTest, CommunicatorsNotEndedOnEveryRankAreKept) {
  // No Destroy lines: nothing ended, nothing is folded however many there are.
  const std::string log =
      Without(ReadFileOrDie(TestData("corpus/h200x4/default.log")), "Destroy COMPLETE");
  std::string text = log;
  for (int r = 1; r < 20; ++r) text += Round(WithoutProcessBanner(log), r);
  const Job job = Build(text, 4);
  EXPECT_EQ(job.stats.folded_comms, 0u);
  EXPECT_EQ(job.comms.size(), 100u);
}

TEST(CommFoldingTest, TheSlowestInitOfFoldedCommunicatorsIsKept) {
  // One late round initialises slowly: folded into an earlier fast one, its timing survives and
  // slow-init reports it as it does without folding.
  std::string text = Rounds("corpus/h200x4/default.log", 30);
  std::string slow = Round(WithoutProcessBanner(ReadFileOrDie(
                               TestData("corpus/h200x4/default.log"))),
                           30);
  const std::string fast = "rank 1 nranks 4 total 0.57 (kernels 0.32, alloc 0.04, bootstrap 0.15";
  const size_t at = slow.find(fast);
  ASSERT_NE(at, std::string::npos);
  slow.replace(at, fast.size(), "rank 1 nranks 4 total 70.57 (kernels 0.32, alloc 0.04, bootstrap 70.15");
  text += slow;
  const Job all = Build(text, 0);
  const Job folded = Build(text, 8);
  EXPECT_GT(folded.stats.folded_comms, 0u);
  double slowest = 0;
  for (const Communicator& c : folded.comms) {
    for (const auto& [r, cr] : c.ranks) {
      if (cr.init_timings) slowest = std::max(slowest, cr.init_timings->total);
    }
  }
  EXPECT_DOUBLE_EQ(slowest, 70.57);
  // The same findings; slow-init names the kept communicator, as the folded one's id is gone.
  auto slow_init = [](const Job& job) {
    std::string found;
    for (const auto& [rule, severity, message] : Rules(job)) {
      if (rule == "slow-init") found = message.substr(message.find(" took "));
    }
    return found;
  };
  EXPECT_EQ(Rules(folded).size(), Rules(all).size());
  EXPECT_EQ(slow_init(folded), slow_init(all));
  EXPECT_NE(slow_init(all).find("70.6 s on vm:1999 (rank 1)"), std::string::npos);
}

TEST(CommFoldingTest, SmallJobsAreNeverFolded) {
  // Below fold_from (1,024 by default) the model keeps every communicator: reports of ordinary
  // jobs list each one.
  const std::string text = Rounds("corpus/h200x4/default.log", 30);
  const Job job = Build(text, BuilderTuning{}.fold_from);
  EXPECT_EQ(job.stats.folded_comms, 0u);
  EXPECT_EQ(job.comms.size(), 150u);
}

TEST(CommFoldingTest, KeepAllCommsTurnsFoldingOff) {
  // `analyze --keep-all-comms` (AnalyzeOptions::keep_all_comms): every communicator is listed.
  AnalyzeOptions options;
  EXPECT_EQ(TuningOf(options).fold_from, BuilderTuning{}.fold_from);
  options.keep_all_comms = true;
  EXPECT_EQ(TuningOf(options).fold_from, 0u);
  const std::string text = Rounds("corpus/h200x4/default.log", 40);
  BuilderTuning tuning = TuningOf(options);
  EXPECT_EQ(testing::BuildJob(text, tuning).comms.size(), 200u);
}

}  // namespace
}  // namespace ncclscope
