// The prefix families met in real logs beyond the first version's list: Ray and SkyPilot workers,
// pdsh / DeepSpeed hosts, syslog / journald, CI job logs, Loki, horovod, markdown quotes, pasted
// line numbers, colour codes that lost their ESC byte, and loggers' timestamps. Each one: what it
// says is kept, and the lines it must not touch stay as they are.
#include <gtest/gtest.h>

#include <string>

#include "strip_prefixes_helper.h"

namespace ncclscope {
namespace {

using testing::Strip;
using testing::Stripped;

constexpr std::string_view kNccl =
    "node-3:909608:910000 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";

TEST(PrefixFamilies, RayWorkerGivesPidIpAndActor) {
  Stripped s = Strip("(RayWorkerWrapper pid=909608, ip=10.0.0.3) " + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.origin_pid, 909608u);
  EXPECT_EQ(s.origin_host, "10.0.0.3");
  EXPECT_EQ(s.origin_name, "RayWorkerWrapper");
}

TEST(PrefixFamilies, RayPidOnlyAndStackedActorsKeepTheInnermost) {
  Stripped s = Strip("(pid=34272) NCCL DEBUG SET");
  EXPECT_EQ(s.text, "NCCL DEBUG SET");
  EXPECT_EQ(s.origin_pid, 34272u);
  Stripped stacked = Strip(
      "(EngineCore_DP0 pid=1088) (RayWorkerWrapper pid=285, ip=192.168.177.12) " +
      std::string(kNccl));
  EXPECT_EQ(stacked.text, kNccl);
  EXPECT_EQ(stacked.origin_pid, 285u);
  EXPECT_EQ(stacked.origin_host, "192.168.177.12");
  EXPECT_EQ(stacked.origin_name, "RayWorkerWrapper");
}

TEST(PrefixFamilies, RayWithAnsiColourAndWithEscLost) {
  Stripped esc = Strip("\x1b[36m(RayWorkerWrapper pid=641)\x1b[0m " + std::string(kNccl));
  EXPECT_EQ(esc.text, kNccl);
  EXPECT_EQ(esc.origin_pid, 641u);
  Stripped lost = Strip("[36m(RayWorkerWrapper pid=641)[0m " + std::string(kNccl));
  EXPECT_EQ(lost.text, kNccl);
  EXPECT_EQ(lost.origin_pid, 641u);
  EXPECT_TRUE(lost.had_ansi);
  Stripped spelled = Strip("ESC[36m(RayWorkerVllm pid=4095)ESC[0m " + std::string(kNccl));
  EXPECT_EQ(spelled.text, kNccl);
  EXPECT_EQ(spelled.origin_pid, 4095u);
}

TEST(PrefixFamilies, BracketedWordStartingWithMIsNotAnEscLostColourReset) {
  // Open MPI's handler on a host named m... (NVIDIA/nccl#1363): the bracket stays.
  Stripped host = Strip("[mbay-csp2:627483] *** Process received signal ***");
  EXPECT_EQ(host.text, "[mbay-csp2:627483] *** Process received signal ***");
  EXPECT_FALSE(host.had_ansi);
  // The reset itself, ESC lost, before text or another bracket, is still removed.
  Stripped reset = Strip("[m" + std::string(kNccl));
  EXPECT_EQ(reset.text, kNccl);
  EXPECT_TRUE(reset.had_ansi);
}

TEST(PrefixFamilies, RayDedupSuffixIsRemoved) {
  Stripped s = Strip("(pid=302, ip=10.37.8.78) " + std::string(kNccl) +
                     " [repeated 3x across cluster]");
  EXPECT_EQ(s.text, kNccl);
}

TEST(PrefixFamilies, SkyPilotWorkerGivesRankPidAndIp) {
  Stripped s = Strip("(worker1, rank=1, pid=2396, ip=10.0.0.2) " + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.rank, 1);
  EXPECT_EQ(s.origin_pid, 2396u);
  EXPECT_EQ(s.origin_host, "10.0.0.2");
  Stripped named = Strip("(en-hi-spot, pid=18593) x");
  EXPECT_EQ(named.text, "x");
  EXPECT_EQ(named.origin_name, "en-hi-spot");
}

TEST(PrefixFamilies, ParenthesesWithoutIdentityStay) {
  for (std::string_view raw : {"(autoscaler +1m2s) Resized to 4 CPUs.", "(raylet) A worker died",
                               "(most recent call last):", "(pid=) x", "(pid=12x) y"}) {
    EXPECT_EQ(Strip(raw).text, raw);
  }
}

TEST(PrefixFamilies, PdshHostsSingleAndDouble) {
  Stripped s = Strip("10.0.87.143: " + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.origin_host, "10.0.87.143");
  Stripped two = Strip("10.0.87.143: 10.0.89.236: " + std::string(kNccl));
  EXPECT_EQ(two.text, kNccl);
  EXPECT_EQ(two.origin_host, "10.0.89.236");  // the host closest to the text printed it
  EXPECT_EQ(Strip("worker-0: hello").origin_host, "worker-0");
  EXPECT_EQ(Strip("localhost: hello").text, "hello");
  EXPECT_EQ(Strip("compute-dy-p4d24xlarge-5: hello").origin_host, "compute-dy-p4d24xlarge-5");
}

TEST(PrefixFamilies, PdshAndSkyPilotNodePrefixesSayTheLaunchSpansNodes) {
  // deepspeed#2632: DeepSpeed's pdsh runner prefixes every line with the host.
  EXPECT_EQ(Strip("ddp-0: ddp-0:8381:8381 [0] NCCL INFO Using network Socket").multi_node,
            MultiNodePrefix::kPdsh);
  // skypilot#4448: the head node of a multi-node cluster.
  Stripped head = Strip("(head, rank=0, pid=5634) [nccl-e9ef-7d4f-0:2]:nccl-e9ef-7d4f-0:11171:11240 "
                        "[2] NCCL INFO Using network Socket");
  EXPECT_EQ(head.multi_node, MultiNodePrefix::kSkyPilotNode);
  EXPECT_EQ(Strip("(worker1, rank=1, pid=2396, ip=10.0.0.2) x").multi_node,
            MultiNodePrefix::kSkyPilotNode);
}

TEST(PrefixFamilies, RayAndSingleNodeSkyPilotPrefixesSayNothingAboutNodes) {
  // Ray's `ip=` names the worker's node, not the job's spread; SkyPilot's single-node prefix has
  // the task name and no rank.
  EXPECT_EQ(Strip("(RayWorkerWrapper pid=909608, ip=10.0.0.3) " + std::string(kNccl)).multi_node,
            MultiNodePrefix::kNone);
  EXPECT_EQ(Strip("(en-hi-spot, pid=18593) x").multi_node, MultiNodePrefix::kNone);
  EXPECT_EQ(Strip("(task, pid=18593) x").multi_node, MultiNodePrefix::kNone);
  EXPECT_EQ(Strip("3: " + std::string(kNccl)).multi_node, MultiNodePrefix::kNone);  // srun
  EXPECT_EQ(Strip(std::string(kNccl)).multi_node, MultiNodePrefix::kNone);
}

TEST(PrefixFamilies, WordsBeforeAColonAreNotHosts) {
  for (std::string_view raw :
       {"RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275",
        "torch.distributed.DistBackendError: NCCL error", "srun: error: node7: task 3: Killed",
        "slurmstepd: error: Detected 1 oom_kill event", "error: something", "Traceback: x",
        "ValueError2: not a host either"}) {
    EXPECT_EQ(Strip(raw).text, raw) << raw;
  }
}

TEST(PrefixFamilies, SyslogAndJournaldGiveHostPidAndTime) {
  Stripped s = Strip("Nov 22 10:00:01 gpu-node-7 python3[1234]: " + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "Nov 22 10:00:01");
  EXPECT_EQ(s.origin_host, "gpu-node-7");
  EXPECT_EQ(s.origin_name, "python3");
  EXPECT_EQ(s.origin_pid, 1234u);
  Stripped padded = Strip("Nov  2 10:00:01.123456 host kernel: Out of memory: Killed process 7");
  EXPECT_EQ(padded.text, "Out of memory: Killed process 7");
  EXPECT_EQ(padded.origin_name, "kernel");
  Stripped iso = Strip("2024-11-22T10:00:01+0000 gpu-node-7 python3[1234]: hello");
  EXPECT_EQ(iso.text, "hello");
  EXPECT_EQ(iso.timestamp, "2024-11-22T10:00:01+0000");
  EXPECT_EQ(iso.origin_pid, 1234u);
}

TEST(PrefixFamilies, CiJobLogTimestamps) {
  Stripped gh = Strip("2024-03-01T10:00:00.1234567Z " + std::string(kNccl));
  EXPECT_EQ(gh.text, kNccl);
  EXPECT_EQ(gh.timestamp, "2024-03-01T10:00:00.1234567Z");
  Stripped gl = Strip("2024-03-01T10:00:00.123456Z 01E+ " + std::string(kNccl));
  EXPECT_EQ(gl.text, kNccl);
  EXPECT_EQ(gl.timestamp, "2024-03-01T10:00:00.123456Z");
}

TEST(PrefixFamilies, LokiLabelsGiveThePod) {
  Stripped s = Strip(R"(2024-03-01T10:00:00Z {container="trainer", pod="job-worker-1"} )" +
                     std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.pod, "job-worker-1");
}

TEST(PrefixFamilies, HorovodAndTorchxRankTags) {
  Stripped h = Strip("[3]<stdout>:" + std::string(kNccl));
  EXPECT_EQ(h.text, kNccl);
  EXPECT_EQ(h.rank, 3);
  Stripped t = Strip("[trainer3]:" + std::string(kNccl));
  EXPECT_EQ(t.text, kNccl);
  EXPECT_EQ(t.rank, 3);
}

TEST(PrefixFamilies, MarkdownQuotesAndLineNumbers) {
  EXPECT_EQ(Strip("> " + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip("> > " + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip("   459\t" + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip("459\t" + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip("459 " + std::string(kNccl)).text, kNccl);
  EXPECT_EQ(Strip("12 [rank0]:[E ProcessGroupNCCL.cpp:1] x").text, "[E ProcessGroupNCCL.cpp:1] x");
}

TEST(PrefixFamilies, NumbersThatAreContentStay) {
  for (std::string_view raw : {"459 steps done", "8 GPUs found", "2025-05-16 16:39:55,123 INFO x",
                               ">>> import torch"}) {
    EXPECT_EQ(Strip(raw).text, raw) << raw;
  }
}

TEST(PrefixFamilies, LeadingClockIsACiTimestampNotAnSrunLabel) {
  // Jenkins' timestamper (pytorch/pytorch#67154) and CircleCI's clock (pytorch/pytorch#32505).
  const auto jenkins = Strip("02:56:49 RuntimeError: Process 1 terminated or timed out");
  EXPECT_EQ(jenkins.text, "RuntimeError: Process 1 terminated or timed out");
  EXPECT_EQ(jenkins.timestamp, "02:56:49");
  EXPECT_EQ(jenkins.rank, -1);
  const auto circle = Strip("Jan 22 20:25:11 RuntimeError: NCCL error: unhandled system error");
  EXPECT_EQ(circle.text, "RuntimeError: NCCL error: unhandled system error");
  EXPECT_EQ(circle.timestamp, "Jan 22 20:25:11");
  // A clock with nothing after it, or a blank run after it (a table's cell), stays.
  EXPECT_EQ(Strip("12:34:56").text, "12:34:56");
  EXPECT_EQ(Strip("12:34:56   3.2 GB/s").text, "12:34:56   3.2 GB/s");
}

TEST(PrefixFamilies, LoggerTimestampBeforeAnotherPrefix) {
  Stripped s = Strip("2020-11-08 20:25:49 [1,0]<stdout>:" + std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.timestamp, "2020-11-08 20:25:49");
  EXPECT_EQ(s.rank, 0);
}

TEST(PrefixFamilies, KubectlPrefixAndTimestampsTogether) {
  Stripped s = Strip("2025-05-16T16:39:55.218123456Z [pod/train-0/pytorch] (pid=7) 10.0.0.9: " +
                     std::string(kNccl));
  EXPECT_EQ(s.text, kNccl);
  EXPECT_EQ(s.pod, "train-0/pytorch");
  EXPECT_EQ(s.origin_pid, 7u);
  EXPECT_EQ(s.origin_host, "10.0.0.9");
}

TEST(PrefixFamilies, BareNcclLinesSkipTheMatchers) {
  EXPECT_TRUE(HasNoPrefix(kNccl));
  EXPECT_FALSE(HasNoPrefix("node7: x:1:2 [0] NCCL INFO y"));
  EXPECT_FALSE(HasNoPrefix("svc:abc def"));
}

TEST(PrefixFamilies, SglangLoggerGivesTheTimeAndTheTensorParallelRank) {
  // sgl-project/sglang#3820.
  const Stripped s = Strip(
      "[2025-02-24 14:09:34 TP14] Scheduler hit an exception: Traceback (most recent call last):");
  EXPECT_EQ(s.text, "Scheduler hit an exception: Traceback (most recent call last):");
  EXPECT_EQ(s.timestamp, "2025-02-24 14:09:34");
  EXPECT_EQ(s.rank, 14);
  const Stripped ep = Strip("[2025-06-01 10:00:00.123 TP3 EP3] Load weight end.");
  EXPECT_EQ(ep.text, "Load weight end.");
  EXPECT_EQ(ep.rank, 3);
}

TEST(PrefixFamilies, SglangDataParallelRankIsNotTheJobsRank) {
  // With DP (or PP) the TP rank is a rank within one replica: the time is kept, no rank.
  const Stripped s = Strip("[2025-04-21 07:28:41 DP1 TP3] Scheduler hit an exception:");
  EXPECT_EQ(s.text, "Scheduler hit an exception:");
  EXPECT_EQ(s.timestamp, "2025-04-21 07:28:41");
  EXPECT_EQ(s.rank, -1);
}

TEST(PrefixFamilies, BracketedTimeWithoutRanksOrWithOtherWordsIsLeftAlone) {
  // NCCL's own `[%F %T] ` timestamp is read by the NCCL head parser; other words are not ranks.
  EXPECT_EQ(Strip("[2025-04-08 08:39:46] x").text, "[2025-04-08 08:39:46] x");
  EXPECT_EQ(Strip("[2025-04-08 08:39:46 INFO] x").text, "[2025-04-08 08:39:46 INFO] x");
  EXPECT_EQ(Strip("[2025-04-08 08:39:46 TPx] x").text, "[2025-04-08 08:39:46 TPx] x");
}

}  // namespace
}  // namespace ncclscope
