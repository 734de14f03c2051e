// Container records: CRI files, docker json-file, JSON exports. Decoded when valid, counted as
// malformed (and passed through) when they look like JSON but are not.
#include "ncclscope/input/container_record.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

using Result = ContainerDecoder::Result;

TEST(ContainerRecord, CriFullLine) {
  ContainerRecord r;
  ASSERT_TRUE(DecodeCriRecord(
      "2024-11-22T10:00:01.123456789Z stderr F vm:1:2 [0] NCCL INFO Using network Socket", &r));
  EXPECT_EQ(r.format, RecordFormat::kCri);
  EXPECT_EQ(r.text, "vm:1:2 [0] NCCL INFO Using network Socket");
  EXPECT_EQ(r.time, "2024-11-22T10:00:01.123456789Z");
  EXPECT_EQ(r.stream, "stderr");
  EXPECT_FALSE(r.partial);
}

TEST(ContainerRecord, CriPartialAndEmpty) {
  ContainerRecord r;
  ASSERT_TRUE(DecodeCriRecord("2024-11-22T10:00:01Z stdout P first half ", &r));
  EXPECT_TRUE(r.partial);
  EXPECT_EQ(r.text, "first half ");
  ASSERT_TRUE(DecodeCriRecord("2024-11-22T10:00:01Z stdout F", &r));
  EXPECT_EQ(r.text, "");
}

TEST(ContainerRecord, NotCri) {
  ContainerRecord r;
  for (std::string_view raw : {"2024-11-22T10:00:01Z hello", "2024-11-22T10:00:01Z stdout X y",
                               "2024-11-22T10:00:01Z stdoutF y", "10:1:2 [0] NCCL INFO x"}) {
    EXPECT_FALSE(DecodeCriRecord(raw, &r)) << raw;
  }
}

TEST(ContainerRecord, DockerJsonFileWithEscapes) {
  ContainerDecoder d;
  ContainerRecord r;
  ASSERT_EQ(d.Decode(R"({"log":"\u001b[36mvm:1:2 [0] NCCL INFO say \"hi\"\\ok\n","stream":"stderr","time":"2024-11-22T10:00:01.5Z"})",
                     &r),
            Result::kRecord);
  EXPECT_EQ(r.format, RecordFormat::kJson);
  EXPECT_EQ(r.text, "\x1b[36mvm:1:2 [0] NCCL INFO say \"hi\"\\ok");
  EXPECT_EQ(r.stream, "stderr");
  EXPECT_EQ(r.time, "2024-11-22T10:00:01.5Z");
  EXPECT_FALSE(r.partial);
}

TEST(ContainerRecord, DockerLineWithoutNewlineIsPartial) {
  ContainerDecoder d;
  ContainerRecord r;
  ASSERT_EQ(d.Decode(R"({"log":"part one","stream":"stdout","time":"2024-11-22T10:00:01Z"})", &r),
            Result::kRecord);
  EXPECT_TRUE(r.partial);
}

TEST(ContainerRecord, JsonExportsOfLokiElasticJournald) {
  ContainerDecoder d;
  ContainerRecord r;
  ASSERT_EQ(d.Decode(R"({"@timestamp":"2024-11-22T10:00:01Z","message":"hello","kubernetes":{"pod_name":"train-0","namespace_name":"ml"}})",
                     &r),
            Result::kRecord);
  EXPECT_EQ(r.text, "hello");
  EXPECT_EQ(r.pod, "train-0");
  EXPECT_FALSE(r.partial);  // only docker's "log" marks parts by a missing newline
  ASSERT_EQ(d.Decode(R"({"MESSAGE":"x","_HOSTNAME":"gpu7","_PID":"4242","__CURSOR":"s=1;i=2"})", &r),
            Result::kRecord);
  EXPECT_EQ(r.text, "x");
  EXPECT_EQ(r.host, "gpu7");
  EXPECT_EQ(r.pid, 4242u);
  ASSERT_EQ(d.Decode(R"({"time":"t","stream":"stderr","logtag":"P","log":"a"})", &r),
            Result::kRecord);
  EXPECT_TRUE(r.partial);
}

TEST(ContainerRecord, UnicodeEscapesBecomeUtf8) {
  ContainerDecoder d;
  ContainerRecord r;
  ASSERT_EQ(d.Decode(R"({"msg":"caf\u00e9 \ud83d\ude00 \u2502"})", &r), Result::kRecord);
  EXPECT_EQ(r.text, "caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x94\x82");
}

TEST(ContainerRecord, ValidJsonWithoutATextFieldIsAPlainLine) {
  ContainerDecoder d;
  ContainerRecord r;
  EXPECT_EQ(d.Decode(R"({"rank": 3, "loss": 0.25})", &r), Result::kPlain);
  EXPECT_EQ(d.Decode("{}", &r), Result::kPlain);
}

TEST(ContainerRecord, MalformedJsonIsReportedNotDecoded) {
  ContainerDecoder d;
  ContainerRecord r;
  for (std::string_view raw :
       {R"({"log":"unterminated)", R"({"log":"x"} trailing)", R"({"log":"bad \q escape"})",
        R"({"log": "x",})", R"({"log" "x"})", R"({"log":"\ud800 lone surrogate"})", "{",
        R"({"a":[1,2,}})", R"({"log":"x","n":tru})"}) {
    EXPECT_EQ(d.Decode(raw, &r), Result::kMalformed) << raw;
  }
}

TEST(ContainerRecord, DeepNestingIsMalformedNotACrash) {
  std::string deep = R"({"log":"x","a":)";
  for (int i = 0; i < 10000; ++i) deep += '[';
  ContainerDecoder d;
  ContainerRecord r;
  EXPECT_EQ(d.Decode(deep, &r), Result::kMalformed);
}

TEST(ContainerRecord, LinesThatAreNotRecordsArePlain) {
  ContainerDecoder d;
  ContainerRecord r;
  for (std::string_view raw : {"", "vm:1:2 [0] NCCL INFO x", "[0] NCCL INFO x", "42"}) {
    EXPECT_EQ(d.Decode(raw, &r), Result::kPlain) << raw;
  }
}

}  // namespace
}  // namespace ncclscope
