// NCCL line prefix: every level and version form (nccl-log-formats.md §1).
#include <gtest/gtest.h>

#include "parse/parse_test_util.h"

namespace ncclscope {
namespace {

using testing::ParseOne;

TEST(NcclPrefix, InfoLineFillsHostPidTidDevAndBody) {
  auto p = ParseOne("vm:1998:1999 [2] NCCL INFO Using network Socket");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  const EventContext& c = p.event.ctx;
  EXPECT_EQ(c.host, "vm");
  EXPECT_EQ(c.pid, 1998u);
  EXPECT_EQ(c.tid, 1999u);
  EXPECT_EQ(c.dev, 2);
  EXPECT_EQ(c.level, Level::kInfo);
  EXPECT_EQ(c.body, "Using network Socket");
  EXPECT_EQ(c.text, "vm:1998:1999 [2] NCCL INFO Using network Socket");
  EXPECT_EQ(c.line, 7u);
  EXPECT_EQ(c.source, 3u);
  EXPECT_EQ(c.meta, &p.line.meta);
  EXPECT_TRUE(c.timestamp.empty());
  EXPECT_TRUE(c.location.empty());
}

TEST(NcclPrefix, DeviceNumbersAndPidsOfEveryWidthParseAlike) {
  // One- and two-digit devices take the fast path, wider ones and short lines the general one;
  // pids and tids from one digit to seven (Linux's largest) are read as words or byte by byte.
  struct Case {
    const char* line;
    uint32_t pid, tid;
    int dev;
    const char* body;
  };
  const Case cases[] = {
      {"vm:7:8 [0] NCCL INFO x", 7, 8, 0, "x"},
      {"host-with-a-long-name.example:4194304:4194303 [15] NCCL INFO Using network IB", 4194304,
       4194303, 15, "Using network IB"},
      {"vm:1998:1999 [123] NCCL INFO Using network Socket", 1998, 1999, 123,
       "Using network Socket"},
      {"vm:1:2 [3] NCCL INFO", 1, 2, 3, ""},
      {"vm:12345678:2 [3] NCCL INFO y", 12345678, 2, 3, "y"},
  };
  for (const Case& k : cases) {
    auto p = ParseOne(k.line);
    ASSERT_EQ(p.outcome, ParseOutcome::kEvent) << k.line;
    EXPECT_EQ(p.event.ctx.pid, k.pid) << k.line;
    EXPECT_EQ(p.event.ctx.tid, k.tid) << k.line;
    EXPECT_EQ(p.event.ctx.dev, k.dev) << k.line;
    EXPECT_EQ(p.event.ctx.level, Level::kInfo) << k.line;
    EXPECT_EQ(p.event.ctx.body, k.body) << k.line;
  }
  // A head that is not NCCL's (a pid of 10 digits, letters in it) is no head: the message is
  // still read, headless, never dropped.
  for (std::string_view bad : {"vm:1234567890:2 [3] NCCL INFO z", "vm:12a:2 [3] NCCL INFO z"}) {
    auto p = ParseOne(bad);
    EXPECT_EQ(p.outcome, ParseOutcome::kEvent) << bad;
    EXPECT_TRUE(p.event.ctx.headless) << bad;
    EXPECT_TRUE(p.event.ctx.host.empty()) << bad;
    EXPECT_EQ(p.event.ctx.body, "z") << bad;
  }
}

TEST(NcclPrefix, TimestampedWarnFrom226HasTimestampAndLocation) {
  auto p = ParseOne(
      "[2026-11-21 13:43:25] vm:848:880 [0] misc/shmutils.cc:87 NCCL WARN Error: failed to extend "
      "/dev/shm/nccl-mQ3C7G to 9637892 bytes, error: No space left on device (28)");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.timestamp, "2026-11-21 13:43:25");
  EXPECT_EQ(p.event.ctx.level, Level::kWarn);
  EXPECT_EQ(p.event.ctx.location, "misc/shmutils.cc:87");
  EXPECT_TRUE(p.event.ctx.function.empty());
  auto* w = std::get_if<Warning>(&p.event.data);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->category, WarnCategory::kShm);
  EXPECT_EQ(w->message, p.event.ctx.body);
}

TEST(NcclPrefix, Warn230FunctionIsSplitFromLocation) {
  auto p = ParseOne(
      "[2026-01-02 03:04:05] node1:10:11 [3] misc/socket.cc:120 (ncclSocketConnect) NCCL WARN "
      "socketProgress: Connection closed by remote peer node2<34567>");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.location, "misc/socket.cc:120");
  EXPECT_EQ(p.event.ctx.function, "ncclSocketConnect");
  EXPECT_EQ(std::get<Warning>(p.event.data).category, WarnCategory::kSocket);
}

TEST(NcclPrefix, PluginWarnWithCxxSignatureLocationKeepsWholeSignature) {
  auto p = ParseOne(
      "[2025-12-28 16:04:25] llama-3-8b-node-0-0:152:386 [0] int "
      "nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):352 NCCL WARN NET/OFI aws-ofi-nccl "
      "initialization failed");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.host, "llama-3-8b-node-0-0");
  EXPECT_EQ(p.event.ctx.location, "int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):352");
  EXPECT_TRUE(p.event.ctx.function.empty());
  auto* o = std::get_if<OfiEvent>(&p.event.data);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->kind, OfiKind::kInitFailed);
}

TEST(NcclPrefix, PluginWarnWithCFunctionLocation) {
  auto p = ParseOne(
      "ip-10-0-0-1:42:42 [0] nccl_net_ofi_init:1234 NCCL WARN NET/OFI OFI fi_getinfo() call "
      "failed: No data available");
  EXPECT_EQ(p.event.ctx.location, "nccl_net_ofi_init:1234");
  EXPECT_EQ(std::get<OfiEvent>(p.event.data).kind, OfiKind::kInitFailed);
}

TEST(NcclPrefix, OldWarnWithoutTimestamp) {
  auto p = ParseOne(
      "host:1:2 [0] include/socket.h:403 NCCL WARN Net : Connect to 10.0.0.2<4567> "
      "failed : Connection refused");
  EXPECT_EQ(p.event.ctx.level, Level::kWarn);
  EXPECT_EQ(p.event.ctx.location, "include/socket.h:403");
  EXPECT_EQ(std::get<Warning>(p.event.data).category, WarnCategory::kSocket);
}

TEST(NcclPrefix, TraceLineSkipsElapsedMilliseconds) {
  auto p = ParseOne("host:1:2 [0] 1234.567890 ncclProxyProgress:456 NCCL TRACE some progress");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.level, Level::kTrace);
  EXPECT_EQ(p.event.ctx.location, "ncclProxyProgress:456");
  EXPECT_EQ(p.event.ctx.body, "some progress");
  EXPECT_TRUE(std::holds_alternative<KnownNoise>(p.event.data));
}

TEST(NcclPrefix, CallLineHasNoDevice) {
  auto p = ParseOne("host:1:2 NCCL CALL ncclGroupStart()");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.level, Level::kCall);
  EXPECT_EQ(p.event.ctx.dev, -1);
  EXPECT_EQ(p.event.ctx.body, "ncclGroupStart()");
}

TEST(NcclPrefix, BareVersionLineIsVersionLevel) {
  auto p = ParseOne("NCCL version 2.21.5+cuda12.4");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(p.event.ctx.level, Level::kVersion);
  auto v = std::get<NcclVersion>(p.event.data);
  EXPECT_EQ(v.version, "2.21.5");
  EXPECT_EQ(v.cuda, "12.4");
  EXPECT_TRUE(v.suffix.empty());
}

TEST(NcclPrefix, InfoVersionLineWithSuffix) {
  auto v = testing::ParseAs<NcclVersion>("h:1:1 [0] NCCL INFO NCCL version 2.18.5a0+cuda12.2");
  EXPECT_EQ(v.version, "2.18.5");
  EXPECT_EQ(v.suffix, "a0");
  EXPECT_EQ(v.cuda, "12.2");
}

TEST(NcclPrefix, NonNcclLinesAreNotNccl) {
  // ("Traceback (most recent call last):" is a traceback event: process_end_parser_test.cc.)
  for (const char* t : {"", "workload finished",
                        "[rank0]:W1228 16:05:29.287000 152 site-packages/torch/utils/"
                        "cpp_extension.py:2425] TORCH_CUDA_ARCH_LIST is not set",
                        "host: not a pid", "a:1:2 no level", "    raise ChildFailedError("}) {
    EXPECT_EQ(ParseOne(t).outcome, ParseOutcome::kNotNccl) << t;
  }
}

TEST(NcclPrefix, UnknownNcclMessageIsUnrecognized) {
  auto p = ParseOne("h:1:1 [0] NCCL INFO Frobnicating the quux");
  ASSERT_EQ(p.outcome, ParseOutcome::kEvent);
  EXPECT_EQ(std::get<Unrecognized>(p.event.data).message, "Frobnicating the quux");
}

}  // namespace
}  // namespace ncclscope
