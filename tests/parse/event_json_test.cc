// Event -> JSON line: field names, escaping and invalid UTF-8 handling.
#include "ncclscope/parse/event_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

nlohmann::json ToJson(std::string_view text) {
  auto p = testing::ParseOne(text);
  std::string out;
  AppendEventJson(p.event, "job.log", &out);
  EXPECT_EQ(out.back(), '\n');
  EXPECT_EQ(out.find('\n'), out.size() - 1);
  return nlohmann::json::parse(out);
}

TEST(EventJson, ConnectionHasContextRawAndTransportParts) {
  auto j = ToJson(
      "vm:1998:1999 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[0] [send] via NET/AWS "
      "Libfabric/0(3)/GDRDMA");
  EXPECT_EQ(j["source"], "job.log");
  EXPECT_EQ(j["line"], 7);
  EXPECT_EQ(j["host"], "vm");
  EXPECT_EQ(j["pid"], 1998);
  EXPECT_EQ(j["tid"], 1999);
  EXPECT_EQ(j["dev"], 0);
  EXPECT_EQ(j["level"], "info");
  EXPECT_EQ(j["type"], "connection");
  EXPECT_EQ(j["raw"], "NET/AWS Libfabric/0(3)/GDRDMA");
  EXPECT_EQ(j["transport"], "NET");
  EXPECT_EQ(j["net"], "AWS Libfabric");
  EXPECT_EQ(j["net_dev"], 0);
  EXPECT_EQ(j["proxy_rank"], 3);
  EXPECT_EQ(j["gdrdma"], true);
  EXPECT_EQ(j["direction"], "send");
}

TEST(EventJson, CommInitHexCommIdAndOptionalSplitFields) {
  auto j = ToJson(
      "vm:1:1 [0] NCCL INFO ncclCommSplit comm 0x4f rank 1 nranks 2 cudaDev 1 nvmlDev "
      "1 busId 70 parent 0x21 splitCount 1 color 5 key 1- Init START");
  EXPECT_EQ(j["type"], "comm_init");
  EXPECT_EQ(j["phase"], "start");
  EXPECT_EQ(j["color"], 5);
  EXPECT_FALSE(j.contains("comm_id"));
  auto k = ToJson(
      "vm:1:1 [0] NCCL INFO ncclCommInitRank comm 0x4f rank 1 nranks 2 cudaDev 1 "
      "nvmlDev 1 busId 70 commId 0xe9089ab3dce6b312 - Init COMPLETE");
  EXPECT_EQ(k["comm_id"], "0xe9089ab3dce6b312");
}

TEST(EventJson, InvalidUtf8AndControlCharactersAreEscaped) {
  std::string line = "vm:1:1 [0] NCCL INFO Weird \"msg\" \t bad\xff\xfe ok\xc3\xa9";
  auto j = ToJson(line);
  EXPECT_EQ(j["type"], "unrecognized");
  EXPECT_EQ(j["message"], "Weird \"msg\" \t bad\xef\xbf\xbd\xef\xbf\xbd ok\xc3\xa9");
}

TEST(EventJson, WarnHasTimestampLocationAndCategory) {
  auto j = ToJson(
      "[2026-11-21 13:40:45] vm:4040:4040 [0] bootstrap.cc:114 NCCL WARN Bootstrap : "
      "no socket interface found");
  EXPECT_EQ(j["level"], "warn");
  EXPECT_EQ(j["timestamp"], "2026-11-21 13:40:45");
  EXPECT_EQ(j["location"], "bootstrap.cc:114");
  EXPECT_EQ(j["category"], "bootstrap");
}

TEST(EventJson, WatchdogTimeoutHasTorchRankAndTypeNames) {
  // Type names are unique and snake_case.
  EXPECT_EQ(EventTypeName(EventData{NcclVersion{}}), "nccl_version");
  EXPECT_EQ(EventTypeName(EventData{Unrecognized{}}), "unrecognized");
  auto j = ToJson(
      "[rank1]:[E1121 13:39:41.760765142 ProcessGroupNCCL.cpp:689] [Rank 1] Watchdog "
      "caught collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, "
      "NumelIn=1, NumelOut=1, Timeout(ms)=25000) ran for 25055 milliseconds before "
      "timing out.");
  EXPECT_EQ(j["type"], "watchdog_timeout");
  EXPECT_EQ(j["torch_rank"], 1);
  EXPECT_EQ(j["level"], "torch");
  EXPECT_EQ(j["seq"], 6);
}

}  // namespace
}  // namespace ncclscope
