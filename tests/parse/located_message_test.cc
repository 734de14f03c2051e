// LineParser with the locator: NCCL messages behind unknown prefixes, glued on one line, without a
// head, cut and continued later, from NCCL <= 2.2; other lines that mention NCCL are never lost.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ncclscope/parse/line_parser.h"

namespace ncclscope {
namespace {

struct Out {
  std::string type, host, body, text;
  uint32_t pid = 0;
  int dev = -1;
  Level level = Level::kNone;
  bool headless = false;
  bool mention = false;
  uint64_t line = 0;
};

/// Parses `lines` as one stream and returns every event with its copies.
std::vector<Out> ParseLines(const std::vector<std::string>& lines) {
  LineParser parser;
  std::vector<Out> out;
  Event e;
  for (size_t i = 0; i < lines.size(); ++i) {
    Line line;
    line.text = lines[i];
    line.number = i + 1;
    if (parser.Parse(line, &e) != ParseOutcome::kEvent) continue;
    do {
      Out o{std::string(EventTypeName(e.data)), std::string(e.ctx.host), std::string(e.ctx.body),
            std::string(e.ctx.text), e.ctx.pid, e.ctx.dev, e.ctx.level, e.ctx.headless};
      if (const auto* u = std::get_if<Unrecognized>(&e.data)) o.mention = u->mention;
      o.line = e.ctx.line;
      out.push_back(o);
    } while (parser.ParseMore(&e));
  }
  return out;
}

TEST(LocatedMessage, BehindAPrefixNobodyPlannedFor) {
  auto got = ParseLines({"(worker-1 q=3f) |12| vm:1998:2000 [1] NCCL INFO Channel 00/0 : 0[0] -> "
                         "1[1] via P2P/CUMEM"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "connection");
  EXPECT_EQ(got[0].host, "vm");
  EXPECT_EQ(got[0].pid, 1998u);
  EXPECT_EQ(got[0].dev, 1);
  EXPECT_FALSE(got[0].headless);
}

TEST(LocatedMessage, GluedLineGivesTwoEvents) {
  auto got = ParseLines({"vm:10:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>vm:12:13 [1] "
                         "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "bootstrap_interface");
  EXPECT_EQ(got[0].pid, 10u);
  EXPECT_EQ(got[1].type, "connection");
  EXPECT_EQ(got[1].pid, 12u);
  EXPECT_EQ(got[1].text, "vm:12:13 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC");
  EXPECT_EQ(got[1].line, 1u);
}

TEST(LocatedMessage, HeadlessMessagesKeepTheDevice) {
  auto got = ParseLines({"[1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                         "NCCL INFO Using network Socket",
                         "[0] transport/net_ib.cc:115 NCCL WARN Could not find real path of rxe0"});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].type, "connection");
  EXPECT_TRUE(got[0].headless);
  EXPECT_EQ(got[0].dev, 1);
  EXPECT_TRUE(got[0].host.empty());
  EXPECT_EQ(got[1].type, "using_network");
  EXPECT_EQ(got[1].dev, -1);
  EXPECT_EQ(got[2].level, Level::kWarn);
  EXPECT_EQ(got[2].dev, 0);
}

TEST(LocatedMessage, CutMessageIsCompletedByItsContinuation) {
  auto got = ParseLines({
      "learnfair062:40515:40655 [6] NCCL INFO learnfair062:40517:40631 [7] NCCL INFO Ring 04 : "
      "7[7] -> 3[3] via P2P/IPC",
      "Ring 04 : 6[6] -> 5[5] via P2P/IPC",
  });
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].type, "known_noise");  // the cut head
  EXPECT_EQ(got[1].type, "connection");
  EXPECT_EQ(got[1].pid, 40517u);
  EXPECT_EQ(got[2].type, "connection");
  EXPECT_EQ(got[2].pid, 40515u);
  EXPECT_EQ(got[2].dev, 6);
  EXPECT_EQ(got[2].line, 2u);
}

TEST(LocatedMessage, TerminalWrapAfterViaIsJoined) {
  auto got = ParseLines({
      "host:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via",
      " NET/IBext/4/GDRDMA",
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].type, "connection");
  EXPECT_NE(got[1].body.find("NET/IBext/4/GDRDMA"), std::string::npos);
}

TEST(LocatedMessage, AContinuationMustParse) {
  auto got = ParseLines({"host:1:2 [0] NCCL INFO ", "Epoch 1: loss 0.25"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "known_noise");
}

TEST(LocatedMessage, Nccl22LinesWithoutTheWordNccl) {
  auto got = ParseLines({"seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by "
                         "remote peer",
                         "docker-100-88-66-138:19123:19123 [2] INFO NET/IB: [0] mlx4_0:2/RoCE "});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "warning");
  EXPECT_EQ(got[0].level, Level::kWarn);
  EXPECT_EQ(got[1].level, Level::kInfo);
}

TEST(LocatedMessage, VersionLineBehindAPrefixAndAScriptsPackedVersion) {
  auto got = ParseLines({"(RayWorkerWrapper pid=1) NCCL version 2.20.5+cuda12.4",
                         "NCCL version 21.1.4"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "nccl_version");
  EXPECT_EQ(got[1].type, "unrecognized");
  EXPECT_TRUE(got[1].mention);
}

TEST(LocatedMessage, LinesThatOnlyMentionNcclAreCountedNotLost) {
  auto got = ParseLines({"(pid=34272) NCCL DEBUG SET", "loss 0.1"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "unrecognized");
  EXPECT_TRUE(got[0].mention);
  EXPECT_EQ(got[0].level, Level::kNone);
}

TEST(LocatedMessage, CommandLinesSettingNcclVariablesAreSettings) {
  auto got = ParseLines({"export NCCL_DEBUG=INFO",
                         "root@h:/x# NCCL_P2P_DISABLE=0 NCCL_P2P_LEVEL=SYS ./all_reduce_perf -g 8",
                         "NCCL_DEBUG= ./all_reduce_perf",
                         "NCCL_DEBUG is set but NCCL_SOCKET_IFNAME=eth0 is not"});
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].type, "env_setting");
  EXPECT_EQ(got[1].type, "env_setting");  // one per assignment, all of line 2
  EXPECT_EQ(got[2].type, "env_setting");
  EXPECT_EQ(got[2].line, 2u);
  EXPECT_EQ(got[3].type, "known_noise");   // an empty assignment unsets
  EXPECT_EQ(got[4].type, "unrecognized");  // "NCCL_DEBUG is" is no assignment
}

TEST(LocatedMessage, MarkdownAutolinksInAPastedLineAreRemoved) {
  auto got = ParseLines({"node023:10214:10303 [0] NCCL INFO transport/[net.cc:1137](http://net.cc:1137/) -> 6"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "error_trail");
}

TEST(LocatedMessage, AnInitLineCutByATerminalWrapIsJoined) {
  auto got = ParseLines({"lax-0:272:272 [2] NCCL INFO comm 0xc60d380 rank 2 nranks 4 cudaDev 2 "
                         "nvmlDev 2 busId 1d0 commId 0xca78aff2cc1a9f9c",
                         " - Init START"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "known_noise");
  EXPECT_EQ(got[1].type, "comm_init");
}

TEST(LocatedMessage, ExceptionLinePastedWithALeadingBlank) {
  auto got = ParseLines({" torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/"
                         "distributed/c10d/ProcessGroupNCCL.cpp:3699, remote process exited or "
                         "there was a network error, NCCL version 2.27.3"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "framework_nccl_error");
}

TEST(LocatedMessage, OldAwsOfiNcclPrintfLines) {
  auto got = ParseLines({"INFO: Function: ofi_init Line: 1076: NET/OFI Running on P4d platform, "
                         "Setting NCCL_TOPO_FILE environment variable to /x/p4d-24xl-topo.xml",
                         "WARN: Function: main Line: 66: NET/OFI OFI NCCL failure: 2"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].level, Level::kInfo);
  EXPECT_TRUE(got[0].headless);
  EXPECT_EQ(got[1].level, Level::kWarn);
}

TEST(LocatedMessage, OldAwsOfiNcclPrintfLinesWithoutTheWordNccl) {
  // aws/aws-ofi-nccl#22: the plugin's own test says "NET/OFI" only; not reading these lines
  // left the AV failure unseen.
  auto got = ParseLines({"INFO: Function: ofi_init Line: 686: NET/OFI Selected Provider is efa",
                         "WARN: Function: create_nccl_ofi_component Line: 459: NET/OFI Couldn't "
                         "open AV. RC: -22, ERROR: Invalid argument",
                         "INFO: Function: main Line: 57: Listening on dev 0"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].level, Level::kInfo);
  EXPECT_EQ(got[1].level, Level::kWarn);
  EXPECT_TRUE(got[1].headless);
}

TEST(LocatedMessage, ProgressBarGluedToTheEndIsCut) {
  // NVIDIA/nccl#1101: another process's tqdm bar, drawn with carriage returns, pasted onto the
  // line.
  auto got = ParseLines({"cs-project:2748:2748 [0] NCCL INFO cudaDriverVersion 12020" +
                         std::string(60, ' ') + "| 0/100 [00:00<?, ?it/s]"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "cuda_driver_version");
}

TEST(LocatedMessage, TopologyAttributeAndCommIdBootstrapLinesAreKnownNoise) {
  // NVIDIA/nccl-tests#100 (XML topology) and NVIDIA/nccl#2047 (2.29, NCCL_COMM_ID).
  auto got = ParseLines({"node2:1208:1249 [0] NCCL INFO Attribute coll of node net not found",
                         "VM-16-2-ubuntu:20184:20184 [0] NCCL INFO Bootstrap: env 172.17.16.2:12340"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "known_noise");
  EXPECT_EQ(got[1].type, "known_noise");
}

TEST(LocatedMessage, PytorchLogLinesNoParserReadsAreKnown) {
  // The exit warning of ProcessGroupNCCL's destructor is read (framework_event
  // exit_without_destroy: the process is leaving); the C++ stack's head is known noise.
  auto got = ParseLines({"[W1121 13:40:45.840050764 ProcessGroupNCCL.cpp:1575] Warning: WARNING: "
                         "destroy_process_group() was not called before program exit",
                         "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/"
                         "ProcessGroupNCCL.cpp:1418 (most recent call first):"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].type, "framework_event");
  EXPECT_EQ(got[0].level, Level::kTorch);
  EXPECT_EQ(got[1].type, "known_noise");
}

TEST(LocatedMessage, FrameworkLineBehindAnUnknownPrefix) {
  auto got = ParseLines({"master: [rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught "
                         "collective operation timeout: WorkNCCL(SeqNum=6, OpType=ALLREDUCE, "
                         "NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800013 "
                         "milliseconds before timing out."});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "watchdog_timeout");
}

}  // namespace
}  // namespace ncclscope
