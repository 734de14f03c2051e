// LineStream over container records and damaged pastes: CRI partial records joined, docker lines
// split in parts joined, JSON messages holding several lines split, CR-only progress bars split,
// malformed JSON counted and passed through.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/input/line_stream.h"

namespace ncclscope {
namespace {

struct Got {
  std::string text, timestamp, pod;
  uint64_t number = 0;
  bool truncated = false;
};

std::vector<Got> ReadAll(const std::string& data, InputDiagnostics* diag = nullptr,
                         size_t max_line = LineReader::kDefaultMaxLine) {
  LineStream stream(MemoryByteSource(data.data(), data.size()), 0, max_line);
  std::vector<Got> out;
  Line line;
  while (stream.Next(&line)) {
    out.push_back(Got{std::string(line.text), std::string(line.meta.timestamp),
                      std::string(line.meta.pod), line.number, line.truncated});
  }
  if (diag) *diag = stream.diagnostics();
  return out;
}

TEST(LineStreamRecords, CriPartialRecordsAreJoined) {
  InputDiagnostics d;
  auto got = ReadAll(
      "2024-11-22T10:00:01Z stderr P vm:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] \n"
      "2024-11-22T10:00:02Z stderr P via P2P/\n"
      "2024-11-22T10:00:03Z stderr F IPC\n"
      "2024-11-22T10:00:04Z stdout F next\n",
      &d);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].text, "vm:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC");
  EXPECT_EQ(got[0].number, 1u);
  EXPECT_EQ(got[1].text, "next");
  EXPECT_EQ(got[1].timestamp, "2024-11-22T10:00:04Z");
  EXPECT_EQ(got[1].number, 4u);
  EXPECT_EQ(d.container_records, 4u);
  EXPECT_EQ(d.joined_records, 2u);
  EXPECT_EQ(d.lines, 4u);
}

TEST(LineStreamRecords, PartialRecordAtEndOfInputIsKept) {
  auto got = ReadAll("2024-11-22T10:00:01Z stderr P cut at the end");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].text, "cut at the end");
}

TEST(LineStreamRecords, PartialRecordFollowedByAPlainLineYieldsBoth) {
  auto got = ReadAll("2024-11-22T10:00:01Z stderr P half\nplain line\n");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].text, "half");
  EXPECT_EQ(got[1].text, "plain line");
  EXPECT_EQ(got[1].number, 2u);
}

TEST(LineStreamRecords, DockerJsonLinesAndSplitParts) {
  auto got = ReadAll(
      R"({"log":"vm:1:2 [0] NCCL INFO Using ","stream":"stderr","time":"2024-11-22T10:00:01Z"})"
      "\n"
      R"({"log":"network Socket\n","stream":"stderr","time":"2024-11-22T10:00:01Z"})"
      "\n"
      R"({"log":"\u001b[32m[default1]:\u001b[0mhello\n","stream":"stdout","time":"2024-11-22T10:00:02Z"})"
      "\n");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].text, "vm:1:2 [0] NCCL INFO Using network Socket");
  EXPECT_EQ(got[1].text, "hello");
  EXPECT_EQ(got[1].timestamp, "2024-11-22T10:00:02Z");
}

TEST(LineStreamRecords, JsonMessageWithSeveralLinesIsSplit) {
  InputDiagnostics d;
  auto got = ReadAll(
      R"({"message":"Traceback (most recent call last):\n  File \"x.py\", line 1\nRuntimeError: boom","kubernetes":{"pod_name":"w-1"}})"
      "\n",
      &d);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].text, "Traceback (most recent call last):");
  EXPECT_EQ(got[1].text, "  File \"x.py\", line 1");
  EXPECT_EQ(got[2].text, "RuntimeError: boom");
  for (const auto& g : got) {
    EXPECT_EQ(g.number, 1u);
    EXPECT_EQ(g.pod, "w-1");
  }
  EXPECT_EQ(d.split_lines, 1u);
}

TEST(LineStreamRecords, CarriageReturnProgressBarsAreSplit) {
  InputDiagnostics d;
  auto got = ReadAll(
      "  0%|          | 0/70 [00:00<?, ?it/s]\r 50%|#####     | 35/70\rvm:1:2 [0] NCCL INFO "
      "Bootstrap : Using eth0:10.0.0.1<0>\r\nnext\n",
      &d);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2].text, "vm:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>");
  EXPECT_EQ(got[3].text, "next");
  EXPECT_EQ(got[3].number, 2u);
  EXPECT_EQ(d.split_lines, 1u);
}

TEST(LineStreamRecords, CrlfLinesAreNotSplit) {
  InputDiagnostics d;
  auto got = ReadAll("a\r\nb\r\n", &d);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].text, "a");
  EXPECT_EQ(d.split_lines, 0u);
}

TEST(LineStreamRecords, MalformedJsonIsCountedAndPassedThrough) {
  InputDiagnostics d;
  auto got = ReadAll("{\"log\":\"vm:1:2 [0] NCCL INFO x\n{not json at all\n", &d);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].text, "{\"log\":\"vm:1:2 [0] NCCL INFO x");
  EXPECT_EQ(d.malformed_records, 2u);
  EXPECT_EQ(d.container_records, 0u);
}

TEST(LineStreamRecords, JoinedPartsAreCappedAtTheLineLimit) {
  std::string data;
  for (int i = 0; i < 50; ++i) data += "2024-11-22T10:00:01Z stderr P 0123456789\n";
  data += "2024-11-22T10:00:01Z stderr F end\n";
  auto got = ReadAll(data, nullptr, /*max_line=*/100);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].text.size(), 100u);
  EXPECT_TRUE(got[0].truncated);
}

}  // namespace
}  // namespace ncclscope
