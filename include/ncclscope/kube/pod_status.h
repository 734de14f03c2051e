// Kubernetes pod and event state, read from `kubectl get pods -o json` and `kubectl get events
// -o json`: what kubectl-ncclscope needs to fetch each container's log and to tell the analyser
// how pods ended (OOMKilled, exit code 137, evictions, back-offs, scheduling failures).
#ifndef NCCLSCOPE_KUBE_POD_STATUS_H_
#define NCCLSCOPE_KUBE_POD_STATUS_H_

#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/base/status.h"

namespace ncclscope {

/// One of a container's states (status.containerStatuses[].state / lastState).
struct ContainerState {
  std::string kind;    ///< "running", "waiting", "terminated"; empty when absent
  std::string reason;  ///< "OOMKilled", "Error", "CrashLoopBackOff", ...
  std::string message;
  int exit_code = -1;       ///< terminated only
  int signal = -1;          ///< terminated only, when Kubernetes reports it
  std::string started_at;   ///< RFC 3339 as the API prints it
  std::string finished_at;  ///< terminated only
};

struct ContainerStatus {
  std::string name;
  bool init = false;  ///< An init container (status.initContainerStatuses).
  int restart_count = 0;
  bool ready = false;
  ContainerState state;
  ContainerState last_state;
};

struct PodStatus {
  std::string name;
  std::string namespace_name;
  std::string node;    ///< spec.nodeName; empty when not scheduled
  std::string phase;   ///< Pending, Running, Succeeded, Failed, Unknown
  std::string reason;  ///< Pod-level: "Evicted", "DeadlineExceeded", ...
  std::string message;
  std::string start_time;
  std::vector<std::string> containers;    ///< spec.containers names, in spec order
  std::vector<ContainerStatus> statuses;  ///< Init containers first, then the others.

  /// The status of a (non-init) container by name, or nullptr.
  const ContainerStatus* StatusOf(std::string_view container) const;
};

/// One event (core/v1 Event or events.k8s.io/v1 as `kubectl get events -o json` prints it).
struct KubeEvent {
  std::string type;    ///< "Warning", "Normal"
  std::string reason;  ///< "Evicted", "OOMKilling", "BackOff", "FailedScheduling", ...
  std::string message;
  std::string object_kind;  ///< involvedObject.kind: "Pod", "Node", ...
  std::string object_name;
  std::string object_namespace;
  std::string field_path;  ///< "spec.containers{trainer}" when about one container
  std::string time;        ///< lastTimestamp, else eventTime, else firstTimestamp
  std::string source;      ///< source.component / reportingComponent ("kubelet")
  int count = 1;
};

/// Parses a pod list (`kind: List`/`PodList`) or a single pod. InvalidInput names `name` when
/// the text is not JSON or holds no pod.
Status ParsePods(std::string_view json_text, const std::string& name, std::vector<PodStatus>* out);
/// Parses an event list (or a single event). InvalidInput names `name` when the text is not JSON.
Status ParseEvents(std::string_view json_text, const std::string& name,
                   std::vector<KubeEvent>* out);

}  // namespace ncclscope

#endif  // NCCLSCOPE_KUBE_POD_STATUS_H_
