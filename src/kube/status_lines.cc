// The status lines of pods and containers in `kubectl describe pod` shape, and cluster events.
#include "ncclscope/kube/status_lines.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace ncclscope {
namespace {

/// Waiting reasons that mean the container cannot run (not ContainerCreating/PodInitializing).
bool FailedWaiting(const ContainerState& s) {
  return s.kind == "waiting" && !s.reason.empty() && s.reason != "ContainerCreating" &&
         s.reason != "PodInitializing";
}

/// The event concerns this pod and, when it names a container, this one.
bool AboutContainer(const KubeEvent& e, const PodStatus& pod, const std::string& container,
                    bool pod_level) {
  if (e.object_kind != "Pod" || e.object_name != pod.name) return false;
  if (!e.object_namespace.empty() && !pod.namespace_name.empty() &&
      e.object_namespace != pod.namespace_name)
    return false;
  if (e.field_path.empty()) return pod_level;
  return e.field_path == "spec.containers{" + container + "}";
}

bool Reported(const KubeEvent& e) { return e.type == "Warning" || e.reason == "Killing"; }

std::vector<const KubeEvent*> EventsOf(const PodStatus& pod, const std::string& container,
                                       const std::vector<KubeEvent>& events, bool pod_level) {
  std::vector<const KubeEvent*> out;
  for (const auto& e : events) {
    if (Reported(e) && AboutContainer(e, pod, container, pod_level)) out.push_back(&e);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KubeEvent* a, const KubeEvent* b) { return a->time < b->time; });
  return out;
}

/// Writes `[pod/P/C] [TIME ]text` lines.
class Writer {
 public:
  Writer(const PodStatus& pod, const std::string& container, std::ostream& out)
      : prefix_(fmt::format("[pod/{}/{}] ", pod.name, container)), out_(out) {}
  void Line(const std::string& time, const std::string& text) {
    out_ << prefix_;
    if (!time.empty()) out_ << time << ' ';
    out_ << text << '\n';
  }

 private:
  std::string prefix_;
  std::ostream& out_;
};

/// One line of a message: Kubernetes messages may hold newlines (a crash's last log lines).
std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

std::string Capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

/// "    State:          Terminated" and its indented details, as kubectl describe prints them.
void WriteState(Writer* w, const char* label, const ContainerState& s) {
  if (s.kind.empty()) return;
  // The moment the state began (terminated: when it ended): the timeline orders by it.
  const std::string& time = s.kind == "terminated" ? s.finished_at : s.started_at;
  w->Line(time, fmt::format("    {:<16}{}", std::string(label) + ":", Capitalised(s.kind)));
  if (!s.reason.empty()) w->Line(time, fmt::format("      {:<14}{}", "Reason:", s.reason));
  if (!s.message.empty())
    w->Line(time, fmt::format("      {:<14}{}", "Message:", OneLine(s.message)));
  if (s.exit_code >= 0) w->Line(time, fmt::format("      {:<14}{}", "Exit Code:", s.exit_code));
  if (s.signal >= 0) w->Line(time, fmt::format("      {:<14}{}", "Signal:", s.signal));
  if (!s.started_at.empty()) w->Line(time, fmt::format("      {:<14}{}", "Started:", s.started_at));
  if (!s.finished_at.empty())
    w->Line(time, fmt::format("      {:<14}{}", "Finished:", s.finished_at));
}

}  // namespace

bool HasStatusToReport(const PodStatus& pod, const std::string& container,
                       const std::vector<KubeEvent>& events, bool pod_level) {
  if (pod_level && (pod.phase == "Failed" || !pod.reason.empty())) return true;
  if (!EventsOf(pod, container, events, pod_level).empty()) return true;
  const ContainerStatus* cs = pod.StatusOf(container);
  if (!cs) return false;
  return cs->restart_count > 0 || cs->state.kind == "terminated" || FailedWaiting(cs->state) ||
         cs->last_state.kind == "terminated";
}

void WriteContainerStatusLines(const PodStatus& pod, const std::string& container,
                               const std::vector<KubeEvent>& events, bool pod_level,
                               std::ostream& out) {
  if (!HasStatusToReport(pod, container, events, pod_level)) return;
  Writer w(pod, container, out);
  auto field = [&](const char* name, const std::string& value) {
    if (!value.empty()) w.Line("", fmt::format("{:<18}{}", std::string(name) + ":", value));
  };
  field("Name", pod.name);
  field("Namespace", pod.namespace_name);
  field("Node", pod.node);
  field("Start Time", pod.start_time);
  if (pod_level) {
    field("Status", pod.phase);
    field("Reason", pod.reason);
    field("Message", OneLine(pod.message));
  }
  w.Line("", "Containers:");
  w.Line("", fmt::format("  {}:", container));
  if (const ContainerStatus* cs = pod.StatusOf(container)) {
    WriteState(&w, "State", cs->state);
    WriteState(&w, "Last State", cs->last_state);
    w.Line("", fmt::format("    {:<16}{}", "Ready:", cs->ready ? "True" : "False"));
    w.Line("", fmt::format("    {:<16}{}", "Restart Count:", cs->restart_count));
  }
  const auto evs = EventsOf(pod, container, events, pod_level);
  if (evs.empty()) return;
  w.Line("", "Events:");
  w.Line("", "  Type     Reason             Count  From       Message");
  w.Line("", "  ----     ------             -----  ----       -------");
  for (const KubeEvent* e : evs) {
    w.Line(e->time, fmt::format("  {:<8} {:<18} {:<6} {:<10} {}", e->type, e->reason, e->count,
                                e->source.empty() ? "-" : e->source, OneLine(e->message)));
  }
}

void WriteClusterEventLines(const std::vector<KubeEvent>& events,
                            const std::vector<PodStatus>& pods, const std::string& target_kind,
                            const std::string& target_name, std::ostream& out) {
  std::vector<const KubeEvent*> picked;
  for (const auto& e : events) {
    if (e.type != "Warning") continue;
    const bool node = e.object_kind == "Node" &&
                      std::any_of(pods.begin(), pods.end(),
                                  [&](const PodStatus& p) { return p.node == e.object_name; });
    const bool target =
        !target_kind.empty() && e.object_kind == target_kind && e.object_name == target_name;
    if (node || target) picked.push_back(&e);
  }
  std::stable_sort(picked.begin(), picked.end(),
                   [](const KubeEvent* a, const KubeEvent* b) { return a->time < b->time; });
  for (const KubeEvent* e : picked) {
    std::string kind = e->object_kind;
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!e->time.empty()) out << e->time << ' ';
    out << fmt::format("{:<8} {:<18} {}/{}  {}\n", e->type, e->reason, kind, e->object_name,
                       OneLine(e->message));
  }
}

std::string KindOfResource(std::string resource) {
  resource = resource.substr(0, resource.find('.'));  // "jobs.batch" → "jobs"
  std::transform(resource.begin(), resource.end(), resource.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::pair<const char*, const char*> kKinds[] = {
      {"job", "Job"},
      {"jobs", "Job"},
      {"pod", "Pod"},
      {"pods", "Pod"},
      {"po", "Pod"},
      {"statefulset", "StatefulSet"},
      {"statefulsets", "StatefulSet"},
      {"sts", "StatefulSet"},
      {"deployment", "Deployment"},
      {"deployments", "Deployment"},
      {"deploy", "Deployment"},
      {"replicaset", "ReplicaSet"},
      {"replicasets", "ReplicaSet"},
      {"rs", "ReplicaSet"},
      {"pytorchjob", "PyTorchJob"},
      {"pytorchjobs", "PyTorchJob"},
      {"mpijob", "MPIJob"},
      {"mpijobs", "MPIJob"},
      {"jobset", "JobSet"},
      {"jobsets", "JobSet"},
      {"trainjob", "TrainJob"},
      {"trainjobs", "TrainJob"},
      {"rayjob", "RayJob"},
      {"rayjobs", "RayJob"},
      {"raycluster", "RayCluster"},
      {"rayclusters", "RayCluster"},
  };
  for (const auto& [name, kind] : kKinds) {
    if (resource == name) return kind;
  }
  if (!resource.empty())
    resource[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(resource[0])));
  return resource;
}

}  // namespace ncclscope
