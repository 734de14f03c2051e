// The label selector of a workload's pods, from the workload object as `kubectl get KIND/NAME -o
// json` prints it: kubectl-ncclscope lists the pods of `job/train` with it.
#ifndef NCCLSCOPE_KUBE_WORKLOAD_SELECTOR_H_
#define NCCLSCOPE_KUBE_WORKLOAD_SELECTOR_H_

#include <string>
#include <string_view>

#include "ncclscope/base/status.h"

namespace ncclscope {

/// spec.selector (matchLabels and matchExpressions, in kubectl's -l syntax) for Jobs,
/// StatefulSets, Deployments, ReplicaSets, DaemonSets; the pod label the operator sets for
/// workloads without one (PyTorchJob, MPIJob, TFJob: training.kubeflow.org/job-name; JobSet,
/// TrainJob: jobset.sigs.k8s.io/jobset-name; RayCluster: ray.io/cluster; LeaderWorkerSet:
/// leaderworkerset.sigs.k8s.io/name). InvalidInput (naming `name`) for anything else.
Status WorkloadSelector(std::string_view json_text, const std::string& name, std::string* selector);

}  // namespace ncclscope

#endif  // NCCLSCOPE_KUBE_WORKLOAD_SELECTOR_H_
