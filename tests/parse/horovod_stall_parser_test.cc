// Horovod's stall inspector (horovod_stall_parser.cc): the ranks it lists as missing a tensor,
// in its 0.16 and 0.19+ formats, behind the prefixes real pastes carry (Horovod#1012,
// Polyaxon#657), and what is not one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/parse/line_parser.h"

namespace ncclscope {
namespace {

struct Seen {
  std::string detail;
  int rank = -1;
};

/// The stall_missing events of `lines` parsed in order by one parser.
std::vector<Seen> StallEvents(const std::vector<std::string>& lines, int launcher_rank = -1) {
  LineParser parser;
  std::vector<Seen> out;
  for (const std::string& text : lines) {
    Line line;
    line.text = text;
    line.meta.launcher_rank = launcher_rank;
    Event e;
    if (parser.Parse(line, &e) != ParseOutcome::kEvent) continue;
    const auto* f = std::get_if<FrameworkEvent>(&e.data);
    if (f != nullptr && f->kind == FrameworkKind::kStallMissing)
      out.push_back({std::string(f->detail), f->rank});
  }
  return out;
}

TEST(HorovodStall, OldFormatListsTheMissingRanksOfEachTensor) {
  const auto seen = StallEvents({
      "Stalled ops:HorovodBroadcast_dense_1_bias_0 [missing ranks: 1]",
      "[2019-04-13 14:00:31.874338: W horovod/common/operations.cc:588] "
      "HorovodBroadcast_dense_1_kernel_0 [missing ranks: 1, 3]",
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].detail, "1");
  EXPECT_EQ(seen[1].detail, "1, 3");
}

TEST(HorovodStall, NewFormatRankLinesFollowTheirHeader) {
  // Tensor names of Horovod's PyTorch API carry no "Horovod": only the header says what the
  // rank lines are; blank lines of a double-spacing collector may come between them.
  const auto seen = StallEvents({"Missing ranks:", "0: [allreduce.layer1.weight]", "",
                                 "3!: [allreduce.layer2.bias, allreduce.fc.weight ...]",
                                 "Epoch 3 done", "5: [allreduce.x]"});
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].detail, "0");
  EXPECT_EQ(seen[1].detail, "3");
}

TEST(HorovodStall, RankLineOfHorovodOpsIsReadWithoutItsHeaderAndBehindPrefixes) {
  const auto seen = StallEvents(
      {"0: [HorovodAllreduce_grads_0]",
       "2020-01-15 22:44:33 UTC master.0 -- [1,0]<stderr>:2: [HorovodAllreduce][1,0]<stderr>:"});
  ASSERT_EQ(seen.size(), 2u);
  // The first line's "0: " is taken for an srun label by the input layer in a real stream; a
  // bare parser sees it whole.
  EXPECT_EQ(seen[0].detail, "0");
  EXPECT_EQ(seen[1].detail, "2");
}

TEST(HorovodStall, RankNumberTakenForALauncherLabelStillNamesTheRank) {
  // The input layer stripped "4: " as srun's label: the text left is the tensor list.
  const auto seen = StallEvents({"Stalled ranks:", "[allreduce.noname.12]"}, /*launcher_rank=*/4);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rank, 4);
  EXPECT_TRUE(seen[0].detail.empty());
}

TEST(HorovodStall, LogHeadAfterAReportIsNotARankWhoseNumberWasALabel) {
  // mpirun's `[1,0]<stderr>:` gave launcher_rank 0; the next warning's head starts with '['.
  const auto seen = StallEvents({"Stalled ranks:", "[allreduce.x]",
                                 "[2020-01-15 22:45:33.219918: W horovod/common/"
                                 "stall_inspector.cc:105] One or more tensors were submitted",
                                 "[[1,0]<stderr>:2020-01-15 22:45:33[1,0]<stderr>:."},
                                /*launcher_rank=*/0);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rank, 0);
}

TEST(HorovodStall, NumberedListsAndOtherBracketsAreNotStallReports) {
  EXPECT_TRUE(StallEvents({"0: [allreduce.layer1.weight]", "1: [1, 2, 3]",
                           "Stalled ops: none [missing ranks: all]", "x0: [HorovodAllreduce_a]"})
                  .empty());
}

}  // namespace
}  // namespace ncclscope
