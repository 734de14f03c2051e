// `ncclscope kube-status PODS_JSON [EVENTS_JSON...]`: the pods' containers (--list), or their
// state as log lines in `kubectl describe` shape, to stdout or one file per container (--split).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ncclscope/base/whole_file.h"
#include "ncclscope/cli/commands.h"
#include "ncclscope/cli/output.h"
#include "ncclscope/kube/pod_status.h"
#include "ncclscope/kube/status_lines.h"
#include "ncclscope/kube/workload_selector.h"

namespace ncclscope::cli {
namespace {

/// The containers of a pod to read: all of spec's, or the one named if the pod has it.
std::vector<std::string> Containers(const PodStatus& pod, const std::string& only) {
  if (only.empty()) return pod.containers;
  for (const auto& c : pod.containers) {
    if (c == only) return {c};
  }
  return {};
}

Status Load(const KubeStatusCommandOptions& opts, std::vector<PodStatus>* pods,
            std::vector<KubeEvent>* events) {
  std::string text;
  Status s = ReadWholeFile(opts.pods, &text);
  if (s.ok()) s = ParsePods(text, opts.pods, pods);
  for (const auto& path : opts.events) {
    if (s.ok()) s = ReadWholeFile(path, &text);
    if (s.ok()) s = ParseEvents(text, path, events);
  }
  return s;
}

}  // namespace

int RunKubeStatus(const KubeStatusCommandOptions& opts, std::ostream& out, std::ostream& err) {
  if (!opts.selector_of.empty()) {
    std::string text, selector;
    Status s = ReadWholeFile(opts.selector_of, &text);
    if (s.ok()) s = WorkloadSelector(text, opts.selector_of, &selector);
    if (!s.ok()) {
      err << "ncclscope: " << s.message() << "\n";
      return kExitUsage;
    }
    out << selector << "\n";
    return kExitOk;
  }
  if (opts.pods.empty()) {
    err << "ncclscope: kube-status needs the pods (`kubectl get pods -o json` output)\n";
    return kExitUsage;
  }
  std::vector<PodStatus> pods;
  std::vector<KubeEvent> events;
  Status s = Load(opts, &pods, &events);
  if (!s.ok()) {
    err << "ncclscope: " << s.message() << "\n";
    return kExitUsage;
  }
  std::string target_kind, target_name;
  if (const size_t slash = opts.target.find('/'); slash != std::string::npos) {
    target_kind = KindOfResource(opts.target.substr(0, slash));
    target_name = opts.target.substr(slash + 1);
  }
  Output output(opts.output, out);
  if (!output.status().ok()) {
    err << "ncclscope: " << output.status().message() << "\n";
    return kExitUsage;
  }
  std::ostream& o = output.stream();
  if (opts.list) {
    for (const auto& pod : pods) {
      for (const auto& c : Containers(pod, opts.container))
        o << pod.name << '\t' << c << '\t' << (pod.node.empty() ? "-" : pod.node) << '\n';
    }
    return o.flush() ? kExitOk : kExitUsage;
  }
  const std::filesystem::path dir(opts.split_dir);
  if (!opts.split_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      err << "ncclscope: " << opts.split_dir << ": " << ec.message() << "\n";
      return kExitUsage;
    }
  }
  bool write_failed = false;
  // Writes to stdout/-o, or to the file `name` in the split directory when it has content.
  auto emit = [&](const std::string& name, auto write) {
    if (opts.split_dir.empty()) {
      write(o);
      return;
    }
    std::ostringstream text;
    write(text);
    if (text.str().empty()) return;
    std::ofstream f(dir / name, std::ios::binary);
    f << text.str();
    if (!f) {
      err << "ncclscope: " << (dir / name).string() << ": write failed\n";
      write_failed = true;
    }
  };
  for (const auto& pod : pods) {
    bool pod_level = true;  // The pod's own lines go with its first container.
    for (const auto& c : Containers(pod, opts.container)) {
      emit(pod.name + "." + c + ".status",
           [&](std::ostream& w) { WriteContainerStatusLines(pod, c, events, pod_level, w); });
      pod_level = false;
    }
  }
  emit("cluster.events",
       [&](std::ostream& w) { WriteClusterEventLines(events, pods, target_kind, target_name, w); });
  o.flush();
  return write_failed || !o ? kExitUsage : kExitOk;
}

}  // namespace ncclscope::cli
