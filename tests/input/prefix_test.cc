#include "ncclscope/input/prefix.h"

#include <gtest/gtest.h>

#include <string>

namespace ncclscope {
namespace {

constexpr std::string_view kNccl = "vm:1998:1998 [0] NCCL INFO Bootstrap: Using eth0:192.0.2.2<0>";

struct Stripped {
  std::string text;
  LineMeta meta;
  std::string timestamp, pod, service;  // Copies: meta's views may point into the scratch.
};

Stripped Strip(std::string_view raw) {
  std::string scratch;
  Stripped s;
  s.text = std::string(StripPrefixes(raw, &s.meta, &scratch));
  s.timestamp = std::string(s.meta.timestamp);
  s.pod = std::string(s.meta.pod);
  s.service = std::string(s.meta.service);
  return s;
}

void ExpectUnchanged(std::string_view raw) {
  Stripped s = Strip(raw);
  EXPECT_EQ(s.text, raw);
  EXPECT_EQ(s.meta.launcher_rank, -1) << raw;
  EXPECT_TRUE(s.timestamp.empty()) << raw;
  EXPECT_TRUE(s.pod.empty()) << raw;
  EXPECT_TRUE(s.service.empty()) << raw;
  EXPECT_FALSE(s.meta.had_ansi) << raw;
}

TEST(StripPrefixes, PlainNcclLineIsUnchangedAndNotCopied) {
  std::string scratch;
  LineMeta meta;
  std::string_view out = StripPrefixes(kNccl, &meta, &scratch);
  EXPECT_EQ(out.data(), kNccl.data());
  EXPECT_EQ(out.size(), kNccl.size());
  EXPECT_TRUE(scratch.empty());
}

TEST(StripPrefixes, NcclOwnTimestampIsKeptInTheText) {
  ExpectUnchanged(
      "[2026-11-21 13:43:25] vm:851:879 [3] misc/shmutils.cc:87 NCCL WARN Error: failed to "
      "extend /dev/shm/nccl-cjyKEg to 9637892 bytes");
}

TEST(StripPrefixes, LinesWithoutPrefixesAreUnchanged) {
  for (std::string_view raw : {
           std::string_view(""),
           std::string_view("10:123:456 [0] NCCL INFO hostname is all digits"),
           std::string_view("10.0.0.1:123:456 [0] NCCL INFO ip as hostname"),
           std::string_view("ip-10-0-1-23:77:77 [1] NCCL INFO NET/Socket"),
           std::string_view("[Rank 0] Watchdog caught collective operation timeout"),
           std::string_view("[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0]"),
           std::string_view("2025-05-16 16:39:55,123 INFO python logging line"),
           std::string_view("2025-05-16T16:39:55Zno space after the timestamp"),
           std::string_view("Traceback (most recent call last):"),
           std::string_view("  File \"train.py\", line 3, in <module>"),
           std::string_view("           8             2     float     sum      -1"),
           std::string_view("#  Rank  0 Group  0 Pid   1012 on         vm device  0"),
           std::string_view("[1,3] not an mpirun tag"),
           std::string_view("[pod/no-closing-bracket"),
           std::string_view("[default0] missing colon"),
           std::string_view("svc-1 |no space after pipe"),
           std::string_view("NCCL_DEBUG=INFO"),
           std::string_view("ReduceScatter |        0         0         1   |             1"),
           std::string_view("     Function |       LL     LL128    Simple   |          Tree"),
           std::string_view("    AllReduce |        0         0         1   |             1"),
           std::string_view("svc | single space without replica index"),
       }) {
    ExpectUnchanged(raw);
  }
}

TEST(StripPrefixes, KubectlTimestampGoesToMeta) {
  Stripped s = Strip(std::string("2025-05-16T16:39:55.218123456Z ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55.218123456Z");
}

TEST(StripPrefixes, KubectlTimestampWithOffsetAndNoFraction) {
  Stripped s = Strip("2025-05-16T16:39:55+02:00 hello");
  EXPECT_EQ(s.text, "hello");
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55+02:00");
}

TEST(StripPrefixes, KubectlTimestampOfEmptyLineLeavesEmptyText) {
  Stripped s = Strip("2025-05-16T16:39:55.1Z");
  EXPECT_EQ(s.text, "");
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55.1Z");
}

TEST(StripPrefixes, KubectlPodPrefixGoesToMeta) {
  Stripped s = Strip(std::string("[pod/trainer-0/pytorch] ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.pod, "trainer-0/pytorch");
}

TEST(StripPrefixes, KubectlPodPrefixWithoutContainer) {
  Stripped s = Strip("[pod/trainer-0] hello");
  EXPECT_EQ(s.text, "hello");
  EXPECT_EQ(s.pod, "trainer-0");
}

TEST(StripPrefixes, TorchrunTeePrefixGivesLauncherRank) {
  Stripped s = Strip(std::string("[default3]:") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.meta.launcher_rank, 3);
}

TEST(StripPrefixes, TorchrunTeeKeepsTheTextVerbatimAfterTheColon) {
  Stripped s = Strip("[default12]:  File \"x.py\"");
  EXPECT_EQ(s.text, "  File \"x.py\"");
  EXPECT_EQ(s.meta.launcher_rank, 12);
}

TEST(StripPrefixes, TorchrunCustomRoleName) {
  Stripped s = Strip("[trainer_a7]:hello");
  EXPECT_EQ(s.text, "hello");
  EXPECT_EQ(s.meta.launcher_rank, 7);
}

TEST(StripPrefixes, PytorchRankPrefixLeavesTheC10Header) {
  Stripped s =
      Strip("[rank0]:[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught");
  EXPECT_EQ(s.text, "[E1121 13:39:41.727410739 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught");
  EXPECT_EQ(s.meta.launcher_rank, 0);
  EXPECT_TRUE(s.meta.launcher_rank_global);  // PyTorch's own prefix: the global rank
}

TEST(StripPrefixes, PytorchRankInsideALaunchersTaskTagWins) {
  // nccl#1176: `srun -l torchrun` tags every worker of node 3 with `3: `; PyTorch's prefix
  // inside it names the process.
  Stripped s = Strip("3: [rank24]:[W ProcessGroupNCCL.cpp:2302] Warning: x");
  EXPECT_EQ(s.text, "[W ProcessGroupNCCL.cpp:2302] Warning: x");
  EXPECT_EQ(s.meta.launcher_rank, 24);
  EXPECT_TRUE(s.meta.launcher_rank_global);
  Stripped m = Strip("[1,0]<stderr>:[rank5]: Traceback (most recent call last):");
  EXPECT_EQ(m.meta.launcher_rank, 5);
  EXPECT_TRUE(m.meta.launcher_rank_global);
  // The other way round, a launcher's tag inside PyTorch's prefix does not replace it.
  Stripped t = Strip("[rank2]:[default0]:x");
  EXPECT_EQ(t.meta.launcher_rank, 2);
  EXPECT_TRUE(t.meta.launcher_rank_global);
}

TEST(StripPrefixes, RoleRankPrefixIsNotKnownToBeGlobal) {
  // torchrun --tee's `[default3]:` may be the local rank; a role named like "ranker" is no
  // `[rankN]:` either.
  Stripped s = Strip("[default3]:hello");
  EXPECT_EQ(s.meta.launcher_rank, 3);
  EXPECT_FALSE(s.meta.launcher_rank_global);
  Stripped r = Strip("[ranker2]:hello");
  EXPECT_EQ(r.meta.launcher_rank, 2);
  EXPECT_FALSE(r.meta.launcher_rank_global);
}

TEST(StripPrefixes, MpirunTagOutputGivesLauncherRank) {
  Stripped s = Strip(std::string("[1,3]<stdout>:") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.meta.launcher_rank, 3);
  Stripped e = Strip("[12,15]<stderr>: warning");
  EXPECT_EQ(e.text, "warning");
  EXPECT_EQ(e.meta.launcher_rank, 15);
}

TEST(StripPrefixes, SrunLabelGivesLauncherRank) {
  Stripped s = Strip(std::string("12: ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.meta.launcher_rank, 12);
  Stripped padded = Strip(" 3: hello");
  EXPECT_EQ(padded.text, "hello");
  EXPECT_EQ(padded.meta.launcher_rank, 3);
}

TEST(StripPrefixes, SrunLabelBeforeAllDigitHostnameStripsOnlyTheLabel) {
  Stripped s = Strip("0: 10:123:456 [0] NCCL INFO x");
  EXPECT_EQ(s.text, "10:123:456 [0] NCCL INFO x");
  EXPECT_EQ(s.meta.launcher_rank, 0);
}

TEST(StripPrefixes, CloudWatchExportWithLeadingPipe) {
  Stripped s = Strip(std::string("  | 2025-05-16T16:39:55.218-07:00 | ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55.218-07:00");
}

TEST(StripPrefixes, CloudWatchConsoleCopyWithTheTimeGluedToTheMessage) {
  // aws-ofi-nccl#889: the console's copy of an expanded row.
  Stripped s = Strip(std::string("  | 2025-05-16T16:39:51.208-07:00") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:51.208-07:00");
  Stripped fabric = Strip("  | 2025-05-16T16:39:51.208-07:00libfabric:85:1747438790::core:core:"
                          "fi_getinfo_():1392<warn> x");
  EXPECT_EQ(fabric.text.substr(0, 13), "libfabric:85:");
  // A time followed by a blank and no second pipe is no CloudWatch row.
  ExpectUnchanged("  | 2025-05-16T16:39:51.208-07:00 done");
}

TEST(StripPrefixes, CloudWatchExportWithoutLeadingPipe) {
  Stripped s = Strip(std::string("2025-05-16T16:39:55.218-07:00 | ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55.218-07:00");
}

TEST(StripPrefixes, DockerComposeServiceGoesToMeta) {
  Stripped s = Strip(std::string("svc-1  | ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.service, "svc-1");
  Stripped one = Strip("proj_worker_12 | x");
  EXPECT_EQ(one.text, "x");
  EXPECT_EQ(one.service, "proj_worker_12");
  Stripped padded = Strip("db    | ready");
  EXPECT_EQ(padded.text, "ready");
  EXPECT_EQ(padded.service, "db");
  Stripped empty = Strip("svc-1  |");
  EXPECT_EQ(empty.text, "");
  EXPECT_EQ(empty.service, "svc-1");
}

TEST(StripPrefixes, AnsiColourIsRemovedAnywhere) {
  Stripped s = Strip("\x1b[36mvm:1998:1998\x1b[0m [0] NCCL \x1b[1;31mWARN\x1b[m boom");
  EXPECT_EQ(s.text, "vm:1998:1998 [0] NCCL WARN boom");
  EXPECT_TRUE(s.meta.had_ansi);
}

TEST(StripPrefixes, AnsiOscAndUnterminatedSequencesAreRemoved) {
  EXPECT_EQ(Strip("\x1b]0;title\x07text").text, "text");
  EXPECT_EQ(Strip("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\").text, "link");
  EXPECT_EQ(Strip("\x1b(Bplain").text, "plain");
  EXPECT_EQ(Strip("end\x1b[").text, "end");
  EXPECT_EQ(Strip("end\x1b").text, "end");
}

TEST(StripPrefixes, ColouredComposePrefixIsStripped) {
  Stripped s = Strip(std::string("\x1b[36msvc-1  |\x1b[0m ") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.service, "svc-1");
  EXPECT_TRUE(s.meta.had_ansi);
}

TEST(StripPrefixes, KubectlTimestampPodAndTeeStack) {
  Stripped s = Strip("2025-05-16T16:39:55.218123456Z [pod/job-worker-0/pytorch] [default2]:" +
                     std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55.218123456Z");
  EXPECT_EQ(s.pod, "job-worker-0/pytorch");
  EXPECT_EQ(s.meta.launcher_rank, 2);
}

TEST(StripPrefixes, PodBeforeTimestampStacksToo) {
  Stripped s = Strip("[pod/a/b] 2025-05-16T16:39:55Z 3: " + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.pod, "a/b");
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55Z");
  EXPECT_EQ(s.meta.launcher_rank, 3);
}

TEST(StripPrefixes, StackWithAnsiKeepsMetaValid) {
  Stripped s = Strip(
      "2025-05-16T16:39:55Z [pod/p/c] \x1b[32m[default1]:\x1b[0m[rank5]:[W1121 12:00:00.1 "
      "x.cpp:1] warn");
  EXPECT_EQ(s.text, "[W1121 12:00:00.1 x.cpp:1] warn");
  EXPECT_EQ(s.timestamp, "2025-05-16T16:39:55Z");
  EXPECT_EQ(s.pod, "p/c");
  // PyTorch's global rank wins over torchrun's local one outside it (node 2 of 4 GPUs).
  EXPECT_EQ(s.meta.launcher_rank, 5);
  EXPECT_TRUE(s.meta.launcher_rank_global);
  EXPECT_TRUE(s.meta.had_ansi);
}

TEST(StripPrefixes, NcclTimestampAfterLauncherPrefixIsKept) {
  Stripped s = Strip("[default3]:[2026-11-21 13:43:25] vm:851:879 [3] x.cc:87 NCCL WARN y");
  EXPECT_EQ(s.text, "[2026-11-21 13:43:25] vm:851:879 [3] x.cc:87 NCCL WARN y");
  EXPECT_EQ(s.meta.launcher_rank, 3);
}

TEST(StripPrefixes, ManyStackedPrefixesStopAfterABoundedNumber) {
  std::string raw;
  for (int i = 0; i < 100; ++i) raw += "0: ";
  raw += "x";
  Stripped s = Strip(raw);
  EXPECT_LT(s.text.size(), raw.size());
  EXPECT_EQ(s.meta.launcher_rank, 0);
}

TEST(StripPrefixes, MetaIsResetBetweenLines) {
  std::string scratch;
  LineMeta meta;
  StripPrefixes("[default1]:\x1b[0mx", &meta, &scratch);
  StripPrefixes("plain", &meta, &scratch);
  EXPECT_EQ(meta.launcher_rank, -1);
  EXPECT_FALSE(meta.had_ansi);
}

TEST(StripPrefixes, RankWithTooManyDigitsIsNotAPrefix) {
  ExpectUnchanged("[default123456789]:x");
  ExpectUnchanged("123456789012: x");
}

TEST(StripPrefixes, BuildServerClockIsATimestamp) {
  // TeamCity (PaddlePaddle/Paddle#9367): `[11:00:17]` and a tab before every line.
  Stripped s = Strip(std::string("[11:00:17]\t") + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "11:00:17");
  // A clock without its separator, or not a clock, stays.
  ExpectUnchanged("[11:00:17]vm:1998:1998 [0] NCCL INFO x");
  ExpectUnchanged("[11:0a:17] vm:1998:1998 [0] NCCL INFO x");
}

TEST(StripPrefixes, TestRunnerStreamTagIsStripped) {
  // accelerate's `accelerate test` (huggingface/accelerate#1473, #1209) tags a child's lines.
  EXPECT_EQ(Strip(std::string("stderr: ") + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip(std::string("stdout: ") + std::string(kNccl)).text, kNccl);
  // Only the two stream names, with their blank: other words stay.
  ExpectUnchanged("stdin: vm:1998:1998 [0] NCCL INFO x");
  ExpectUnchanged("stderr:vm:1998:1998 [0] NCCL INFO x");
}

}  // namespace
}  // namespace ncclscope
