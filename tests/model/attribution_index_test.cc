// Connection attribution through the membership index: the held-connection counts give the same
// model as plain walks over every membership, on the corpus and on jobs that create communicators
// again and again (live, destroyed, restarted processes); destroyed communicators and those of a
// restarted process are no longer candidates.
#include <gtest/gtest.h>

#include <climits>
#include <map>

#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/report/json_report.h"
#include "model/comm_rounds.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::Round;
using testing::TestData;
using testing::Without;
using testing::WithoutProcessBanner;

/// The model of `text` built with the given tuning, as the JSON report of its links,
/// communicators and processes (no rules).
std::string ModelJson(const std::string& text, BuilderTuning tuning) {
  const Job job = testing::BuildJob(text, tuning);
  return JsonReport(ReportInput{job, {}, {}}).dump(1);
}

Job BuildModel(const std::string& text) { return testing::BuildJob(text); }

std::map<Attribution, int> AttributionCounts(const Job& job) {
  std::map<Attribution, int> m;
  for (const auto& l : job.links) ++m[l.attribution];
  return m;
}

TEST(AttributionIndexTest, CountedAndWalkedAttributionAgree) {
  const std::string def = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  const std::string live_round = WithoutProcessBanner(Without(def, "Destroy COMPLETE"));
  std::string live = Without(def, "Destroy COMPLETE");  // communicators never destroyed
  std::string destroyed = def;
  std::string restarts = def;  // the same processes (pids) start again, new commIds
  for (int r = 1; r < 14; ++r) {
    live += Round(live_round, r);
    destroyed += Round(WithoutProcessBanner(def), r);
    restarts += Round(ReadFileOrDie(TestData(r % 2 ? "corpus/h200x4/p2p_read.log"
                                                   : "corpus/h200x4/default.log")),
                      r, /*new_pointers=*/false);
  }
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"live", live}, {"destroyed", destroyed}, {"restarts", restarts}};
  for (const char* rel : {"corpus/h200x4/default.log", "corpus/h200x4/subsys_all.log",
                          "corpus/h200x4/two_nodes.log", "corpus/h200x4/pod_per_gpu.log",
                          "corpus/seeds/seed001-4pods-x4gpu-shm-socket.log",
                          "corpus/nccl-tests/h200x4-nccltests_allreduce_info.log"}) {
    inputs.emplace_back(rel, ReadFileOrDie(TestData(rel)));
  }
  for (const auto& [name, text] : inputs) {
    SCOPED_TRACE(name);
    const std::string walked = ModelJson(text, BuilderTuning{INT_MAX});
    EXPECT_EQ(ModelJson(text, BuilderTuning{1}), walked);
    EXPECT_EQ(ModelJson(text, BuilderTuning{3}), walked);
    EXPECT_EQ(ModelJson(text, BuilderTuning{}), walked);
  }
}

TEST(AttributionIndexTest, DestroyedCommunicatorsAreNoLongerCandidates) {
  const std::string def = ReadFileOrDie(TestData("corpus/h200x4/default.log"));
  const Job one = BuildModel(def);
  std::string text = def;
  const int rounds = 6;
  for (int r = 1; r < rounds; ++r) text += Round(WithoutProcessBanner(def), r);
  const Job many = BuildModel(text);
  ASSERT_EQ(many.links.size(), one.links.size() * rounds);
  // Every round reads like the single log: same links per communicator, same certainty.
  for (size_t i = 0; i < many.links.size(); ++i) {
    const Link& want = one.links[i % one.links.size()];
    const Link& got = many.links[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(got.comm % static_cast<int>(one.comms.size()), want.comm);
    EXPECT_EQ(got.attribution, want.attribution);
    EXPECT_EQ(got.lines, want.lines);
    EXPECT_EQ(got.channels, want.channels);
  }
}

TEST(AttributionIndexTest, RestartedProcessLeavesItsCommunicatorsBehind) {
  // The same pids print the NCCL banner again: a new process. Its lines belong to its own
  // communicators only, even though the old ones (same pointers, never destroyed) still fit.
  const std::string log =
      Without(ReadFileOrDie(TestData("corpus/h200x4/default.log")), "Destroy COMPLETE");
  const Job one = BuildModel(log);
  const Job twice = BuildModel(log + Round(log, 1, /*new_pointers=*/false));
  ASSERT_EQ(twice.processes.size(), one.processes.size());
  ASSERT_EQ(twice.links.size(), 2 * one.links.size());
  EXPECT_EQ(AttributionCounts(twice)[Attribution::kCertain],
            2 * AttributionCounts(one)[Attribution::kCertain]);
  for (size_t i = 0; i < one.links.size(); ++i) {
    const Link& second = twice.links[one.links.size() + i];
    EXPECT_EQ(second.comm, one.links[i].comm + static_cast<int>(one.comms.size()));
    EXPECT_EQ(second.lines, one.links[i].lines);
  }
}

/// The lines of `log` that hold `needle`.
std::string Only(const std::string& log, const std::string& needle) {
  std::string out;
  size_t pos = 0;
  while (pos < log.size()) {
    const size_t nl = log.find('\n', pos);
    const size_t end = nl == std::string::npos ? log.size() : nl + 1;
    if (log.compare(pos, end - pos, needle) != 0 &&
        log.substr(pos, end - pos).find(needle) != std::string::npos) {
      out += log.substr(pos, end - pos);
    }
    pos = end;
  }
  return out;
}

TEST(AttributionIndexTest, RememberedCommPointersGiveTheModelOfFreshLookups) {
  // Each process of coll_heavy.log has three communicators; three rounds of them stay open
  // without their connection lines, then COLL lines touch one round's communicators and that
  // round's connection lines follow: they go to the most recently active candidate, so the model
  // depends on every COLL line finding its own membership. Also with pointers reused after a
  // destroy (restarts of the same pids).
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/coll_heavy.log"));
  const std::string setup = Without(Without(Without(log, "opCount"), " via "), "Destroy COMPLETE");
  std::string cycling;
  for (int r = 0; r < 3; ++r) cycling += Round(r == 0 ? setup : WithoutProcessBanner(setup), r);
  std::string without_coll = cycling;
  for (int r : {1, 0, 2, 1}) {
    const std::string round = Round(log, r);
    const std::string colls = Only(round, "opCount");
    cycling += colls.substr(0, colls.size() / 4) + Only(round, " via ");
    without_coll += Only(round, " via ");
  }
  std::string reused = log;
  for (int r = 1; r < 4; ++r) reused += Round(log, r, /*new_pointers=*/false);
  BuilderTuning fresh;
  fresh.remember_pointers = false;
  ASSERT_NE(ModelJson(cycling, BuilderTuning{}), ModelJson(without_coll, BuilderTuning{}))
      << "the COLL lines must decide the attribution for this test to mean anything";
  for (const auto& [name, text] :
       std::vector<std::pair<std::string, std::string>>{{"cycling", cycling}, {"reused", reused}}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(ModelJson(text, BuilderTuning{}), ModelJson(text, fresh));
  }
}

}  // namespace
}  // namespace ncclscope
