// Kubernetes state as log lines that ncclscope reads beside the pods' logs (docs/kubernetes.md,
// "What the plugin adds to the logs").
//
// A container's block is in `kubectl describe pod` shape (`State: Terminated`, `Reason:
// OOMKilled`, `Exit Code: 137`, `Restart Count: 2`, the pod's `Events:`), each line behind the
// kubectl --prefix of its pod and container and, where the moment is known, the RFC 3339
// timestamp `kubectl logs --timestamps` writes. Appended to that container's log (or in the same
// stream), the lines belong to the pod's source, so the analysis sees how the pod ended next to
// its NCCL lines. Events about other objects (nodes, the workload) become `kubectl get events`
// shaped lines without a pod prefix.
#ifndef NCCLSCOPE_KUBE_STATUS_LINES_H_
#define NCCLSCOPE_KUBE_STATUS_LINES_H_

#include <ostream>
#include <string>
#include <vector>

#include "ncclscope/kube/pod_status.h"

namespace ncclscope {

/// True if the container ended, restarted or waits in a failure state, or (pod_level) the pod
/// failed or has Warning events: only then is there a block to write.
bool HasStatusToReport(const PodStatus& pod, const std::string& container,
                       const std::vector<KubeEvent>& events, bool pod_level);

/// The block of one container. `pod_level` adds the pod's own lines (name, node, phase, pod
/// reason, the pod's events that name no other container): set it for one container per pod.
/// Writes nothing when HasStatusToReport is false.
void WriteContainerStatusLines(const PodStatus& pod, const std::string& container,
                               const std::vector<KubeEvent>& events, bool pod_level,
                               std::ostream& out);

/// Warning events about the nodes that run `pods` and about the workload `target_kind`/
/// `target_name` (e.g. "Job"/"train"; empty for none), oldest first.
void WriteClusterEventLines(const std::vector<KubeEvent>& events,
                            const std::vector<PodStatus>& pods, const std::string& target_kind,
                            const std::string& target_name, std::ostream& out);

/// The object kind of a kubectl resource name: "job" → "Job", "jobs.batch" → "Job",
/// "pytorchjob" → "PyTorchJob", "sts" → "StatefulSet"; the name capitalised when unknown.
std::string KindOfResource(std::string resource);

}  // namespace ncclscope

#endif  // NCCLSCOPE_KUBE_STATUS_LINES_H_
