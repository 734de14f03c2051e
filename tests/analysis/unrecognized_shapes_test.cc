// `ncclscope events --unrecognized`: shapes of lines nothing understood, their grouping and the
// text/JSON listing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "ncclscope/analysis/unrecognized_shapes.h"
#include "ncclscope/report/unrecognized_report.h"

namespace ncclscope {
namespace {

Event UnrecognizedAt(uint64_t line, std::string_view text, std::string_view message,
                     bool mention = false) {
  Event e;
  e.ctx.line = line;
  e.ctx.text = text;
  e.data = Unrecognized{message, mention};
  return e;
}

TEST(LineShape, NumbersPointersAndBlanksCollapse) {
  EXPECT_EQ(LineShape("connect to 10.29.224.148<52333> returned Connection refused, retrying "
                      "(18/34) after sleep for 1800 msec"),
            "connect to N.N.N.N<N> returned Connection refused, retrying (N/N) after sleep for "
            "N msec");
  EXPECT_EQ(LineShape("comm 0x7bf8870  rank 13\tnranks 16"), "comm 0x… rank N nranks N");
}

TEST(LineShape, DigitsInsideAWordAreKept) {
  EXPECT_EQ(LineShape("Could not enable P2P between dev 1(=90) and dev 0(=80)"),
            "Could not enable P2P between dev N(=N) and dev N(=N)");
  EXPECT_EQ(LineShape("NET/IB : mlx5_0:1 sm90"), "NET/IB : mlx5_N:N sm90");
}

TEST(LineShape, IsCappedAt200Characters) {
  EXPECT_EQ(LineShape(std::string(5000, 'a')).size(), 200u);
}

TEST(UnrecognizedShapes, GroupsBySameShapeLargestFirstWithThreeExamples) {
  UnrecognizedShapes shapes;
  shapes.Add(UnrecognizedAt(1, "h:1:2 [0] NCCL INFO once 1", "once 1"));
  for (uint64_t i = 0; i < 5; ++i)
    shapes.Add(UnrecognizedAt(10 + i, "h:1:2 [0] NCCL INFO retry 7", "retry 7"));
  Event other;
  other.data = KnownNoise{"env"};
  shapes.Add(other);  // Not an Unrecognized event: not counted.
  const auto groups = shapes.Groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(shapes.total(), 6u);
  EXPECT_EQ(groups[0].shape, "retry N");
  EXPECT_EQ(groups[0].count, 5u);
  EXPECT_EQ(groups[0].examples.size(), UnrecognizedShapes::kExamples);
  EXPECT_EQ(groups[0].examples[0].line, 10u);
  EXPECT_EQ(groups[1].shape, "once N");
}

TEST(UnrecognizedShapes, MessagesAndMentionsOfOneShapeStaySeparate) {
  UnrecognizedShapes shapes;
  shapes.Add(UnrecognizedAt(1, "h:1:2 [0] NCCL INFO odd 1", "odd 1"));
  shapes.Add(UnrecognizedAt(2, "odd 2", "", /*mention=*/true));
  const auto groups = shapes.Groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_NE(groups[0].mention, groups[1].mention);
}

TEST(UnrecognizedReport, JsonListsGroupsWithExamplesAndCoverage) {
  UnrecognizedShapes shapes;
  shapes.Add(UnrecognizedAt(4, "h:1:2 [0] NCCL INFO odd 1", "odd 1"));
  LineCoverage coverage;
  coverage.read = coverage.messages = 10;
  coverage.understood = 9;
  coverage.unrecognized_messages = 1;
  SourceInfo source;
  source.name = "pod.log";
  std::ostringstream os;
  WriteUnrecognizedJson(shapes.Groups(), coverage, {source}, os);
  const auto j = nlohmann::json::parse(os.str());
  EXPECT_EQ(j["coverage"]["nccl_lines_read"], 10);
  EXPECT_EQ(j["coverage"]["not_understood"], 1);
  ASSERT_EQ(j["groups"].size(), 1u);
  EXPECT_EQ(j["groups"][0]["shape"], "odd N");
  EXPECT_EQ(j["groups"][0]["kind"], "message");
  EXPECT_EQ(j["groups"][0]["examples"][0]["input"], "pod.log");
  EXPECT_EQ(j["groups"][0]["examples"][0]["line"], 4);
}

TEST(UnrecognizedReport, TextSaysSoWhenEverythingWasUnderstood) {
  LineCoverage coverage;
  coverage.read = coverage.understood = coverage.messages = 3;
  std::ostringstream os;
  WriteUnrecognizedText({}, coverage, {}, os);
  EXPECT_NE(os.str().find("3 read, 3 understood"), std::string::npos) << os.str();
}

}  // namespace
}  // namespace ncclscope
