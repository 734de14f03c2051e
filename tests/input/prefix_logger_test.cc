// Python loggers' heads taken off framework messages (prefix_logger.cc). The heads are the ones
// public threads show: vLLM (vllm#4312, gpustack#2680), DeepSpeed (DeepSpeed#3232), Hugging
// Face's trainer, loguru and logging's default asctime format.
#include <gtest/gtest.h>

#include <string>

#include "ncclscope/model/log_time.h"
#include "strip_prefixes_helper.h"

namespace ncclscope {
namespace {

constexpr std::string_view kError =
    "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)";

using testing::Strip;
using testing::Stripped;

TEST(LoggerHead, VllmBracketedSourceIsTakenOffWithItsTime) {
  const Stripped s =
      Strip("ERROR 08-05 14:13:44 [multiproc_executor.py:487] " + std::string(kError));
  EXPECT_EQ(s.text, kError);
  EXPECT_EQ(s.timestamp, "08-05 14:13:44");
}

TEST(LoggerHead, VllmUnderItsWorkerPrefixKeepsTheWorkersIdentity) {
  const Stripped s = Strip(
      "(VllmWorker rank=3 pid=4665) ERROR 08-05 14:13:44.123 "
      "[multiproc_executor.py:487] " +
      std::string(kError));
  EXPECT_EQ(s.text, kError);
  EXPECT_EQ(s.timestamp, "08-05 14:13:44.123");
  EXPECT_EQ(s.origin_pid, 4665u);
}

TEST(LoggerHead, OlderVllmSourceWithoutBracket) {
  const Stripped s = Strip("(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] " +
                           std::string(kError));
  EXPECT_EQ(s.text, kError);
  EXPECT_EQ(s.timestamp, "04-07 00:57:46");
}

TEST(LoggerHead, VllmKeepsTheIndentOfTracebackLines) {
  const Stripped s = Strip(
      "ERROR 08-05 14:13:44 [multiproc_executor.py:487]   File \"/x.py\", "
      "line 257, in NCCL_CHECK");
  EXPECT_EQ(s.text, "  File \"/x.py\", line 257, in NCCL_CHECK");
}

TEST(LoggerHead, DeepSpeedLevelAndSourceFunction) {
  const Stripped s = Strip(
      "[2023-04-14 13:11:27,885] [ERROR] [launch.py:434:sigkill_handler] "
      "['/usr/bin/python3', '-u', 'main.py'] exits with return code = -9");
  EXPECT_EQ(s.text, "['/usr/bin/python3', '-u', 'main.py'] exits with return code = -9");
  EXPECT_EQ(s.timestamp, "2023-04-14 13:11:27,885");
}

TEST(LoggerHead, DeepSpeedHeadBehindPdshHost) {
  const Stripped s = Strip(
      "10.0.0.6: [2022-12-17 19:15:38,591] [INFO] "
      "[comm.py:633:init_distributed] Initializing TorchBackend");
  EXPECT_EQ(s.text, "Initializing TorchBackend");
}

TEST(LoggerHead, HuggingFaceLevelSourceThenTime) {
  const Stripped s =
      Strip("[INFO|trainer.py:123] 2024-01-02 03:04:05,678 >> " + std::string(kError));
  EXPECT_EQ(s.text, kError);
  EXPECT_EQ(s.timestamp, "2024-01-02 03:04:05,678");
}

TEST(LoggerHead, LoguruAndLoggingAsctime) {
  EXPECT_EQ(
      Strip("2024-01-01 12:00:00.123 | ERROR    | train:main:42 - " + std::string(kError)).text,
      kError);
  EXPECT_EQ(Strip("2024-01-01 12:00:00,123 - root - ERROR - " + std::string(kError)).text, kError);
  EXPECT_EQ(Strip("[2024-01-01 12:00:00,123] ERROR - " + std::string(kError)).text, kError);
}

TEST(LoggerHead, LevelWordBehindACollectorsTimestamp) {
  const Stripped s = Strip("2024-01-01T12:00:00.123Z ERROR " + std::string(kError));
  EXPECT_EQ(s.text, kError);
  EXPECT_EQ(s.timestamp, "2024-01-01T12:00:00.123Z");
}

TEST(LoggerHead, TextThatOnlyLooksLikeAHeadStays) {
  // No timestamp before it: a level word alone is the message's own text.
  EXPECT_EQ(Strip("ERROR " + std::string(kError)).text, "ERROR " + std::string(kError));
  // Python's basicConfig format is read by the framework parsers as it is.
  EXPECT_EQ(Strip("ERROR:root:" + std::string(kError)).text, "ERROR:root:" + std::string(kError));
  // A word that starts like a level, a date without a source location.
  EXPECT_EQ(Strip("INFORMATION 08-05 14:13:44 [x.py:1] y").text,
            "INFORMATION 08-05 14:13:44 [x.py:1] y");
  EXPECT_EQ(Strip("ERROR 08-05 14:13:44 no source here").text,
            "ERROR 08-05 14:13:44 no source here");
  // A plain log line's own date and level (torchelastic's and others') stay as they are.
  EXPECT_EQ(Strip("2020-11-08 20:25:49,123 INFO something").text,
            "2020-11-08 20:25:49,123 INFO something");
}

TEST(LoggerHead, NcclLineBehindAVllmHeadStillReachesItsHead) {
  const Stripped s = Strip(
      "INFO 08-05 14:13:44 [pynccl.py:70] host:1:1 [0] NCCL INFO Bootstrap : "
      "Using eth0:10.0.0.1<0>");
  EXPECT_EQ(s.text, "host:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>");
}

TEST(LogTime, VllmMonthDayClock) {
  const std::optional<LogTime> t = ParseLogTime("08-05 14:13:44.123");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->month, 8);
  EXPECT_EQ(t->day, 5);
  EXPECT_EQ(t->nanos, (14 * 3600 + 13 * 60 + 44) * 1000000000LL + 123000000LL);
  EXPECT_FALSE(ParseLogTime("13-05 14:13:44").has_value());
}

}  // namespace
}  // namespace ncclscope
