// Pods, events and workload selectors from kubectl JSON, and the status lines written from them.
#include "ncclscope/kube/pod_status.h"

#include <gtest/gtest.h>

#include <sstream>

#include "ncclscope/kube/status_lines.h"
#include "ncclscope/kube/workload_selector.h"
#include "test_util.h"

namespace ncclscope {
namespace {

using testing::ReadFileOrDie;
using testing::TestData;

std::vector<PodStatus> Pods() {
  std::vector<PodStatus> pods;
  Status s = ParsePods(ReadFileOrDie(TestData("kube/pods.json")), "pods.json", &pods);
  EXPECT_TRUE(s.ok()) << s.message();
  return pods;
}

std::vector<KubeEvent> Events() {
  std::vector<KubeEvent> events;
  for (const char* f : {"kube/events.json", "kube/node-events.json"}) {
    Status s = ParseEvents(ReadFileOrDie(TestData(f)), f, &events);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  return events;
}

TEST(PodStatusTest, ReadsContainerStatesOfAPodList) {
  const auto pods = Pods();
  ASSERT_EQ(pods.size(), 5u);
  const PodStatus& p2 = pods[2];
  EXPECT_EQ(p2.name, "train-2");
  EXPECT_EQ(p2.namespace_name, "ml");
  EXPECT_EQ(p2.node, "gpu-node-b");
  const ContainerStatus* cs = p2.StatusOf("trainer");
  ASSERT_NE(cs, nullptr);
  EXPECT_EQ(cs->restart_count, 1);
  EXPECT_EQ(cs->state.kind, "running");
  EXPECT_EQ(cs->last_state.kind, "terminated");
  EXPECT_EQ(cs->last_state.reason, "OOMKilled");
  EXPECT_EQ(cs->last_state.exit_code, 137);
  EXPECT_EQ(cs->last_state.finished_at, "2026-11-21T13:41:12Z");
  EXPECT_EQ(pods[3].reason, "Evicted");
  EXPECT_EQ(pods[3].phase, "Failed");
  EXPECT_EQ(pods[4].containers, (std::vector<std::string>{"trainer", "metrics"}));
  EXPECT_EQ(pods[4].StatusOf("trainer"), nullptr);
}

TEST(PodStatusTest, ReadsASinglePod) {
  std::vector<PodStatus> pods;
  ASSERT_TRUE(ParsePods(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers":
                           [{"name": "c"}]}})",
                        "p.json", &pods)
                  .ok());
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].containers, (std::vector<std::string>{"c"}));
}

TEST(PodStatusTest, RefusesWhatIsNotAPod) {
  std::vector<PodStatus> pods;
  EXPECT_FALSE(ParsePods("not json", "x", &pods).ok());
  EXPECT_FALSE(ParsePods(R"({"kind": "Job"})", "x", &pods).ok());
  EXPECT_TRUE(ParsePods(R"({"kind": "List", "items": []})", "x", &pods).ok());  // No pods.
  EXPECT_TRUE(pods.empty());
}

TEST(PodStatusTest, ReadsEventsOfBothApiVersions) {
  const auto events = Events();
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[1].reason, "BackOff");
  EXPECT_EQ(events[1].field_path, "spec.containers{trainer}");
  EXPECT_EQ(events[1].time, "2026-11-21T13:41:15Z");
  EXPECT_EQ(events[3].count, 4);
  std::vector<KubeEvent> v1;
  ASSERT_TRUE(ParseEvents(R"({"kind": "Event", "apiVersion": "events.k8s.io/v1", "reason":
      "Evicted", "note": "low on memory", "type": "Warning", "eventTime":
      "2026-11-21T13:41:29.000000Z", "regarding": {"kind": "Pod", "name": "p"},
      "reportingController": "kubelet", "series": {"count": 3}})",
                          "e", &v1)
                  .ok());
  ASSERT_EQ(v1.size(), 1u);
  EXPECT_EQ(v1[0].message, "low on memory");
  EXPECT_EQ(v1[0].object_name, "p");
  EXPECT_EQ(v1[0].time, "2026-11-21T13:41:29.000000Z");
  EXPECT_EQ(v1[0].count, 3);
}

std::string StatusLines(const PodStatus& pod, const std::string& container, bool pod_level) {
  std::ostringstream out;
  WriteContainerStatusLines(pod, container, Events(), pod_level, out);
  return out.str();
}

TEST(StatusLinesTest, OomKilledContainerInDescribeShapeWithItsFinishTime) {
  const std::string text = StatusLines(Pods()[2], "trainer", true);
  EXPECT_EQ(text,
            "[pod/train-2/trainer] Name:             train-2\n"
            "[pod/train-2/trainer] Namespace:        ml\n"
            "[pod/train-2/trainer] Node:             gpu-node-b\n"
            "[pod/train-2/trainer] Start Time:       2026-11-21T13:39:51Z\n"
            "[pod/train-2/trainer] Status:           Running\n"
            "[pod/train-2/trainer] Containers:\n"
            "[pod/train-2/trainer]   trainer:\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:20Z     State:          Running\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:20Z       Started:      2026-11-21T13:41:20Z\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:12Z     Last State:     Terminated\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Reason:       OOMKilled\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Exit Code:    137\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Started:      2026-11-21T13:39:56Z\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Finished:     2026-11-21T13:41:12Z\n"
            "[pod/train-2/trainer]     Ready:          True\n"
            "[pod/train-2/trainer]     Restart Count:  1\n"
            "[pod/train-2/trainer] Events:\n"
            "[pod/train-2/trainer]   Type     Reason             Count  From       Message\n"
            "[pod/train-2/trainer]   ----     ------             -----  ----       -------\n"
            "[pod/train-2/trainer] 2026-11-21T13:41:15Z   Warning  BackOff            1      "
            "kubelet    Back-off restarting failed container trainer in pod train-2_ml(9f1c)\n");
}

TEST(StatusLinesTest, EvictedPodSaysWhyAtPodLevelOnly) {
  const PodStatus pod = Pods()[3];
  const std::string first = StatusLines(pod, "trainer", true);
  EXPECT_NE(first.find("[pod/train-3/trainer] Reason:           Evicted\n"), std::string::npos);
  EXPECT_NE(first.find("Message:          The node was low on resource: memory."),
            std::string::npos);
  EXPECT_NE(first.find("Reason:       ContainerStatusUnknown\n"), std::string::npos);
  // Another container of the pod: its own state, not the pod's reason or events.
  const std::string other = StatusLines(pod, "trainer", false);
  EXPECT_EQ(other.find("Evicted"), std::string::npos);
  EXPECT_NE(other.find("Exit Code:    137"), std::string::npos);
}

TEST(StatusLinesTest, HealthyPodHasNoLines) {
  EXPECT_EQ(StatusLines(Pods()[0], "trainer", true), "");
  EXPECT_FALSE(HasStatusToReport(Pods()[0], "trainer", Events(), true));
}

TEST(StatusLinesTest, PendingPodShowsItsSchedulingFailure) {
  const std::string text = StatusLines(Pods()[4], "trainer", true);
  EXPECT_NE(text.find("Status:           Pending"), std::string::npos);
  EXPECT_NE(text.find("Warning  FailedScheduling   4"), std::string::npos);
  EXPECT_EQ(StatusLines(Pods()[4], "metrics", false), "");
}

TEST(StatusLinesTest, ClusterEventsOfOurNodesAndTheWorkloadOnly) {
  std::ostringstream out;
  WriteClusterEventLines(Events(), Pods(), "Job", "train", out);
  EXPECT_EQ(out.str(),
            "2026-11-21T13:41:12Z Warning  OOMKilling         node/gpu-node-b  Memory cgroup out "
            "of memory: Killed process 4242 (python) total-vm:98765432kB, anon-rss:61234567kB, "
            "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:123456kB oom_score_adj:1000\n"
            "2026-11-21T13:41:31Z Warning  BackoffLimitExceeded job/train  Job has reached the "
            "specified backoff limit\n");
}

TEST(WorkloadSelectorTest, JobSelectorIsItsMatchLabels) {
  std::string sel;
  ASSERT_TRUE(WorkloadSelector(ReadFileOrDie(TestData("kube/job-train.json")), "j", &sel).ok());
  EXPECT_EQ(sel, "batch.kubernetes.io/controller-uid=5b2a6c1e-7d4f-4e55-9a0b-0c6f3c1d2e11");
}

TEST(WorkloadSelectorTest, ExpressionsInKubectlSyntax) {
  std::string sel;
  ASSERT_TRUE(WorkloadSelector(R"({"kind": "StatefulSet", "metadata": {"name": "s"}, "spec":
      {"selector": {"matchLabels": {"app": "t"}, "matchExpressions": [{"key": "tier", "operator":
      "In", "values": ["a", "b"]}, {"key": "canary", "operator": "DoesNotExist"}]}}})",
                               "s", &sel)
                  .ok());
  EXPECT_EQ(sel, "app=t,tier in (a,b),!canary");
}

TEST(WorkloadSelectorTest, OperatorWorkloadsUseTheirPodLabel) {
  std::string sel;
  ASSERT_TRUE(
      WorkloadSelector(R"({"kind": "PyTorchJob", "metadata": {"name": "llama"}})", "p", &sel).ok());
  EXPECT_EQ(sel, "training.kubeflow.org/job-name=llama");
  ASSERT_TRUE(
      WorkloadSelector(R"({"kind": "JobSet", "metadata": {"name": "js"}})", "p", &sel).ok());
  EXPECT_EQ(sel, "jobset.sigs.k8s.io/jobset-name=js");
  Status s =
      WorkloadSelector(R"({"kind": "ConfigMap", "metadata": {"name": "c"}})", "c.json", &sel);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pass -l SELECTOR"), std::string::npos);
}

TEST(WorkloadSelectorTest, ResourceNamesToKinds) {
  EXPECT_EQ(KindOfResource("job"), "Job");
  EXPECT_EQ(KindOfResource("jobs.batch"), "Job");
  EXPECT_EQ(KindOfResource("PyTorchJob"), "PyTorchJob");
  EXPECT_EQ(KindOfResource("sts"), "StatefulSet");
  EXPECT_EQ(KindOfResource("widget"), "Widget");
}

}  // namespace
}  // namespace ncclscope
