// The model keeps one copy of a line that several records quote (LineQuotes), and one copy of a
// link text that thousands of links repeat (TextPool): the memory of a job of thousands of ranks
// depends on it (docs/performance.md, fifteenth pass). Real corpus runs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::TestData;

AnalysisResult AnalyzeCorpus(const std::string& rel) {
  AnalyzeOptions opts;
  opts.inputs = {TestData(rel)};
  opts.run_rules = false;
  AnalysisResult r;
  EXPECT_TRUE(Analyze(opts, &r).ok());
  return r;
}

TEST(SharedEvidence, AnInitLineIsOneTextForTheRankAndForItsProcessInstance) {
  const AnalysisResult r = AnalyzeCorpus("corpus/h200x4/default.log");
  const Job& job = r.job;
  ASSERT_FALSE(job.incidents.instances.empty());
  int shared = 0;
  for (const ProcessInstance& pi : job.incidents.instances) {
    ASSERT_FALSE(pi.world_init.text.empty()) << pi.host << ":" << pi.pid;
    for (const Communicator& c : job.comms) {
      for (const auto& [rank, cr] : c.ranks) {
        if (cr.start_evidence.source != pi.world_init.source ||
            cr.start_evidence.line != pi.world_init.line) {
          continue;
        }
        EXPECT_EQ(cr.start_evidence.text, pi.world_init.text);
        EXPECT_TRUE(cr.start_evidence.text.SharesBufferWith(pi.world_init.text))
            << "line " << cr.start_evidence.line << " is kept twice";
        ++shared;
      }
    }
  }
  EXPECT_EQ(shared, static_cast<int>(job.incidents.instances.size()));
}

TEST(SharedEvidence, LinksOfOneTransportShareItsText) {
  const AnalysisResult r = AnalyzeCorpus("corpus/h200x4/default.log");
  std::map<std::string, const Link*> first_of;
  int links = 0;
  for (const Link& l : r.job.links) {
    ++links;
    auto [it, fresh] = first_of.emplace(l.raw.str(), &l);
    if (!fresh) {
      EXPECT_TRUE(l.raw.SharesBufferWith(it->second->raw)) << l.raw;
    }
  }
  EXPECT_GT(links, static_cast<int>(first_of.size()));  // some transport repeats
}

TEST(SharedEvidence, AWatchdogLineIsOneTextForTheTorchStateAndTheIncident) {
  const AnalysisResult r = AnalyzeCorpus("corpus/h200x2-failures/stuck_p2p.log");
  const Job& job = r.job;
  int checked = 0;
  for (const TorchRankState& s : job.torch_ranks) {
    for (const Evidence& e : s.evidence) {
      for (const Incident& i : job.incidents.incidents) {
        if (i.evidence.source != e.source || i.evidence.line != e.line) continue;
        EXPECT_TRUE(i.evidence.text.SharesBufferWith(e.text)) << e.text;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0) << "no watchdog line is both a PyTorch state and an incident";
}

}  // namespace
}  // namespace ncclscope
