// Root cause from Kubernetes' own account of how pods ended (`kubectl describe pod`-shaped lines
// behind each pod's `kubectl logs --prefix --timestamps` output, as kubectl-ncclscope and
// `ncclscope kube-status` write them; node events as `kubectl get events` lines). The pod logs
// are the real per-process logs of testdata/corpus/h200x4/debug_file (ranks 0-3 of one job).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "ncclscope/analysis/analyze.h"
#include "test_util.h"

namespace ncclscope {
namespace {

const char* const kRankLogs[] = {"nccl.vm.3692.log", "nccl.vm.3693.log", "nccl.vm.3694.log",
                                 "nccl.vm.3695.log"};

/// `kubectl logs --prefix --timestamps` of the given rank logs, as the pod NAME's container.
std::string PodLog(const std::string& pod, const std::vector<int>& ranks) {
  std::string out;
  int n = 0;
  for (int rank : ranks) {
    std::istringstream lines(
        testing::ReadFileOrDie(testing::TestData(std::string("corpus/h200x4/debug_file/") +
                                                 kRankLogs[rank])));
    for (std::string line; std::getline(lines, line); ++n) {
      char stamp[40];
      std::snprintf(stamp, sizeof stamp, "2026-11-21T13:40:%02d.%03d000000Z ", (n / 1000) % 60,
                    n % 1000);
      out += "[pod/" + pod + "/trainer] " + stamp + line + "\n";
    }
  }
  return out;
}

/// Status lines of a pod, each behind the pod's prefix.
std::string Status(const std::string& pod, const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += "[pod/" + pod + "/trainer] " + l + "\n";
  return out;
}

std::vector<std::string> OomKilledBlock() {
  return {"Name:             train-2",
          "Status:           Running",
          "Containers:",
          "  trainer:",
          "2026-11-21T13:41:20Z     State:          Running",
          "2026-11-21T13:41:12Z     Last State:     Terminated",
          "2026-11-21T13:41:12Z       Reason:       OOMKilled",
          "2026-11-21T13:41:12Z       Exit Code:    137",
          "2026-11-21T13:41:12Z       Finished:     2026-11-21T13:41:12Z",
          "    Restart Count:  1"};
}

std::string Job(const std::string& extra_for_train2) {
  return PodLog("train-0", {0}) + PodLog("train-1", {1}) + PodLog("train-2", {2}) +
         extra_for_train2 + PodLog("train-3", {3});
}

std::vector<int> Ranks(const RootCause& c) {
  std::vector<int> r;
  for (const Culprit& k : c.culprits) r.push_back(k.rank);
  return r;
}

bool HasEvidence(const RootCause& c, const std::string& text) {
  for (const Evidence& e : c.evidence) {
    if (e.text.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(KubernetesRootCause, OomKilledPodNamesTheRankOfItsLog) {
  const AnalysisResult r = AnalyzeText(Job(Status("train-2", OomKilledBlock())), "<stdin>");
  const RootCause& c = r.root_cause.cause;
  EXPECT_TRUE(c.job_failed);
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  EXPECT_EQ(Ranks(c), std::vector<int>{2}) << c.reasoning;
  ASSERT_FALSE(c.culprits.empty());
  EXPECT_EQ(c.culprits[0].pid, 3694);
  EXPECT_NE(c.what.find("out of host memory"), std::string::npos) << c.what;
  EXPECT_EQ(c.time_text.substr(0, 19), "2026-11-21 13:41:12");
  EXPECT_TRUE(HasEvidence(c, "OOMKilled"));
}

TEST(KubernetesRootCause, TwoProcessesInOnePodAreNotGuessedBetween) {
  // One pod runs ranks 2 and 3 (torchrun inside the container): the OOM kill is the pod's, and
  // which process the kernel chose is not in the lines.
  const std::string text = PodLog("train-0", {0}) + PodLog("train-1", {1}) +
                           PodLog("train-2", {2, 3}) + Status("train-2", OomKilledBlock());
  const AnalysisResult r = AnalyzeText(text, "<stdin>");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  EXPECT_EQ(Ranks(c), std::vector<int>{-1}) << c.reasoning;
  EXPECT_TRUE(HasEvidence(c, "OOMKilled"));
}

TEST(KubernetesRootCause, EvictedPodReasonJoinsItsContainerStateAndItsTime) {
  // The pod's own `Reason: Evicted` is unindented and has no time; its container's state a few
  // lines on has both the exit code and the time.
  const std::string evicted = Status(
      "train-2", {"Status:           Failed", "Reason:           Evicted",
                  "Message:          The node was low on resource: memory. Threshold quantity: "
                  "100Mi, available: 91340Ki.",
                  "Containers:", "  trainer:", "2026-11-21T13:41:30Z     State:          Terminated",
                  "2026-11-21T13:41:30Z       Reason:       ContainerStatusUnknown",
                  "2026-11-21T13:41:30Z       Exit Code:    137"});
  const AnalysisResult r = AnalyzeText(Job(evicted), "<stdin>");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  EXPECT_EQ(Ranks(c), std::vector<int>{2}) << c.reasoning;
  EXPECT_NE(c.what.find("evicted"), std::string::npos) << c.what;
  EXPECT_EQ(c.time_text.substr(0, 19), "2026-11-21 13:41:30") << c.time_text;
  int exits = 0;
  for (const Incident& i : r.job.incidents.incidents) {
    if (i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kKubernetes) ++exits;
  }
  EXPECT_EQ(exits, 1) << "the pod's reason and its container's state are one end";
}

TEST(KubernetesRootCause, NodeOomEventOfAContainerPidJoinsTheOomKilledRank) {
  // The node's OOMKilling event names the pid as the node sees it (not the container's pid that
  // NCCL prints): at the moment train-2 was OOMKilled it is that kill, not a second culprit.
  const std::string node_event =
      "2026-11-21T13:41:12Z Warning  OOMKilling         node/gpu-node-b  Memory cgroup out of "
      "memory: Killed process 4242 (python) total-vm:98765432kB, anon-rss:61234567kB\n";
  const AnalysisResult r =
      AnalyzeText(Job(Status("train-2", OomKilledBlock())) + node_event, "<stdin>");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(Ranks(c), std::vector<int>{2}) << c.reasoning;
  EXPECT_TRUE(HasEvidence(c, "Killed process 4242"));
  EXPECT_NE(c.what.find("kernel's OOM killer"), std::string::npos) << c.what;
}

TEST(KubernetesRootCause, NodeOomEventAloneStaysItsOwnProcess) {
  // Without a pod that Kubernetes says was OOMKilled, the node's kill is not pinned on a rank.
  const std::string node_event =
      "2026-11-21T13:41:12Z Warning  OOMKilling         node/gpu-node-b  Memory cgroup out of "
      "memory: Killed process 4242 (python) total-vm:98765432kB, anon-rss:61234567kB\n";
  const AnalysisResult r = AnalyzeText(Job("") + node_event, "<stdin>");
  const RootCause& c = r.root_cause.cause;
  EXPECT_EQ(CauseClassName(c.cls), "process-killed");
  ASSERT_EQ(c.culprits.size(), 1u);
  EXPECT_EQ(c.culprits[0].rank, -1);
  EXPECT_EQ(c.culprits[0].pid, 4242);
}

}  // namespace
}  // namespace ncclscope
