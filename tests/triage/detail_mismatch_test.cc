// PyTorch's collective check (TORCH_DISTRIBUTED_DEBUG=DETAIL): every rank raises "Detected
// mismatch between collectives on ranks. Rank R is running collective: ..., but Rank P is
// running ...". Real jobs of testdata/corpus/h200x1-failures (batch 8): 4 ranks, one of which
// all-reduces another dtype (dtype_detail_rank1_of4) or calls all-to-all
// (mismatch_detail_rank2_of4).
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

std::vector<std::string> Lines(const std::string& path) {
  std::istringstream in(testing::ReadFileOrDie(path));
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::set<int> CulpritRanks(const RootCause& c) {
  std::set<int> out;
  for (const Culprit& k : c.culprits) out.insert(k.rank);
  return out;
}

/// torchelastic's failure-table entry of `rank` ("[N]:" up to the next entry or rule), alone.
std::string TableEntryOf(const std::vector<std::string>& lines, int rank) {
  const std::string rank_field = "  rank      : " + std::to_string(rank) + " ";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(rank_field, 0) != 0) continue;
    size_t begin = i;
    while (begin > 0 &&
           !(lines[begin].size() > 1 && lines[begin][0] == '[' && lines[begin].back() == ':')) {
      --begin;
    }
    std::string out;
    for (size_t j = begin; j < lines.size(); ++j) {
      if (j > begin && (lines[j].rfind("[", 0) == 0 || lines[j].rfind("---", 0) == 0)) break;
      out += lines[j] + "\n";
    }
    return out;
  }
  return {};
}

TEST(DetailMismatch, TheMinorityRankIsNamedNotTheFirstTracebackPrinted) {
  // Rank 3's traceback is printed first; ranks 0, 2 and 3 all-reduce float, rank 1 half.
  const AnalysisResult r = AnalyzeText(testing::ReadFileOrDie(
      testing::TestData("corpus/h200x1-failures/dtype_detail_rank1_of4.log")));
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "collective-mismatch");
  EXPECT_EQ(CulpritRanks(r.root_cause.cause), std::set<int>{1}) << r.root_cause.cause.reasoning;
}

TEST(DetailMismatch, AFailureTableEntryAloneNamesThePeerItReportsWithoutHighConfidence) {
  // A ticket that pastes only torchelastic's table: rank 2's entry quotes its check, "Rank 2 is
  // running ... Float, but Rank 1 is running ... Half". One report cannot say which of the two
  // deviated; the rank it names as running another collective is the suspect, at medium.
  const std::vector<std::string> lines =
      Lines(testing::TestData("corpus/h200x1-failures/dtype_detail_rank1_of4.log"));
  const std::string entry = TableEntryOf(lines, 2);
  ASSERT_NE(entry.find("Detected mismatch between collectives"), std::string::npos) << entry;
  const AnalysisResult r = AnalyzeText(entry);
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "collective-mismatch");
  EXPECT_EQ(CulpritRanks(c), std::set<int>{1}) << c.reasoning;
  EXPECT_NE(c.confidence, Confidence::kHigh) << c.reasoning;
}

TEST(DetailMismatch, TableEntriesOfThreeRanksOutvoteTheOddOne) {
  // The table entries of ranks 0, 1 and 3 (rank 2 called all-to-all): each quotes its own
  // collective, and rank 2's is not among them; the ones that name rank 2 decide.
  const std::vector<std::string> lines =
      Lines(testing::TestData("corpus/h200x1-failures/mismatch_detail_rank2_of4.log"));
  std::string text;
  for (int rank : {0, 1, 3}) text += TableEntryOf(lines, rank);
  const AnalysisResult r = AnalyzeText(text);
  EXPECT_EQ(CauseClassName(r.root_cause.cause.cls), "collective-mismatch");
  EXPECT_EQ(CulpritRanks(r.root_cause.cause), std::set<int>{2}) << r.root_cause.cause.reasoning;
}

}  // namespace
}  // namespace ncclscope
