// The triage of a hang of thousands of ranks: every rank's failure lines are kept (the cap on
// incidents grows with the job), so the stuck rank is named and no rank that timed out is taken
// for silent. Built from corpus/h200x4/hang.log: its Init lines and PyTorch's watchdog lines of
// its rank 0 (timed out) and rank 3 (stuck), renumbered for a 2,048-rank job.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "ncclscope/analysis/analyze.h"
#include "ncclscope/model/incident.h"
#include "test_util.h"

namespace ncclscope::testing {
namespace {

constexpr int kRanks = 2048;
constexpr int kStuck = 1024;

/// The [rankN]: lines of hang.log for rank `n`, with the stack frames and blank line after one.
std::string BlockOf(const std::string& log, int n) {
  std::istringstream in(log);
  std::string out, line;
  const std::string tag = "[rank" + std::to_string(n) + "]:";
  bool own = false;
  while (std::getline(in, line)) {
    if (line.rfind("[rank", 0) == 0) {
      own = line.rfind(tag, 0) == 0;
    } else if (!(line.rfind("#", 0) == 0 || line.empty())) {
      own = false;
    }
    if (own) out += line + "\n";
  }
  return out;
}

std::string Renumbered(const std::string& block, int from, int to) {
  const std::regex re("(\\[rank|Rank )" + std::to_string(from) + "\\b");
  return std::regex_replace(block, re, "$01" + std::to_string(to));
}

/// hang.log's Init START / COMPLETE line of rank 0, for rank `r` of a kRanks-rank job.
std::string InitLine(int r, const char* what) {
  const int dev = r % 8;
  return "node" + std::to_string(r / 8) + ":" + std::to_string(3886 + dev) + ":" +
         std::to_string(3886 + dev) + " [" + std::to_string(dev) +
         "] NCCL INFO ncclCommInitRankConfig comm 0x235113b0 rank " + std::to_string(r) +
         " nranks " + std::to_string(kRanks) + " cudaDev " + std::to_string(dev) + " nvmlDev " +
         std::to_string(dev) + " busId 60 commId 0xe0cc1c7f6e2a9119 - " + what + "\n";
}

std::string HangOfManyRanks() {
  const std::string log = ReadFileOrDie(TestData("corpus/h200x4/hang.log"));
  const std::string timed_out = BlockOf(log, 0), stuck = BlockOf(log, 3);
  std::string out;
  for (int r = 0; r < kRanks; ++r) out += InitLine(r, "Init START");
  for (int r = 0; r < kRanks; ++r) out += InitLine(r, "Init COMPLETE");
  for (int r = 0; r < kRanks; ++r) {
    out += r == kStuck ? Renumbered(stuck, 3, r) : Renumbered(timed_out, 0, r);
  }
  return out;
}

TEST(LargeJobTriage, MoreFailureLinesThanTheSharedBudgetAreKept) {
  const AnalysisResult r = AnalyzeText(HangOfManyRanks());
  EXPECT_GT(r.job.incidents.incidents.size(), kMaxIncidents);
}

TEST(LargeJobTriage, TheStuckRankOfAHangOfThousandsIsNamed) {
  const AnalysisResult r = AnalyzeText(HangOfManyRanks());
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "stuck-rank");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, kStuck);
  EXPECT_EQ(c.reasoning.find("printed nothing"), std::string::npos) << c.reasoning;
}

TEST(LargeJobTriage, PastTheSharedBudgetEveryProcessKeepsItsFirstFew) {
  const AnalysisResult r = AnalyzeText(HangOfManyRanks());
  // Ranks near the end of the input still have their timeout and progress lines.
  int last_ranks = 0;
  for (const Incident& i : r.job.incidents.incidents) {
    last_ranks += i.rank == kRanks - 1 ? 1 : 0;
  }
  EXPECT_EQ(last_ranks, static_cast<int>(kIncidentsPerProcess));
  EXPECT_LE(r.job.incidents.incidents.size(), IncidentCap(kRanks));
}

}  // namespace
}  // namespace ncclscope::testing
