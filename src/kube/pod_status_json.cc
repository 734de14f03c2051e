// ParsePods, ParseEvents: Kubernetes API objects as kubectl prints them with -o json. Parsed
// without exceptions; every field is type-checked, absent fields stay empty.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "ncclscope/kube/pod_status.h"
#include "ncclscope/base/json_member.h"

namespace ncclscope {
namespace {

using nlohmann::json;

/// The string at a path of keys, or "".
std::string Str(const json& obj, std::initializer_list<std::string_view> path) {
  const json* v = &obj;
  for (auto key : path) {
    v = JsonMember(*v, key);
    if (!v) return {};
  }
  return v->is_string() ? v->get<std::string>() : std::string();
}

int Int(const json& obj, std::string_view key, int missing) {
  const json* v = JsonMember(obj, key);
  return v && v->is_number_integer() ? v->get<int>() : missing;
}

ContainerState ReadState(const json* s) {
  ContainerState out;
  if (!s || !s->is_object()) return out;
  for (const char* kind : {"terminated", "waiting", "running"}) {
    const json* k = JsonMember(*s, kind);
    if (!k || !k->is_object()) continue;
    out.kind = kind;
    out.reason = Str(*k, {"reason"});
    out.message = Str(*k, {"message"});
    out.exit_code = Int(*k, "exitCode", -1);
    out.signal = Int(*k, "signal", -1);
    out.started_at = Str(*k, {"startedAt"});
    out.finished_at = Str(*k, {"finishedAt"});
    break;
  }
  return out;
}

void ReadStatuses(const json& status, const char* key, bool init, PodStatus* pod) {
  const json* arr = JsonMember(status, key);
  if (!arr || !arr->is_array()) return;
  for (const json& c : *arr) {
    ContainerStatus cs;
    cs.name = Str(c, {"name"});
    cs.init = init;
    cs.restart_count = Int(c, "restartCount", 0);
    const json* ready = JsonMember(c, "ready");
    cs.ready = ready && ready->is_boolean() && ready->get<bool>();
    cs.state = ReadState(JsonMember(c, "state"));
    cs.last_state = ReadState(JsonMember(c, "lastState"));
    if (!cs.name.empty()) pod->statuses.push_back(std::move(cs));
  }
}

PodStatus ReadPod(const json& p) {
  PodStatus pod;
  pod.name = Str(p, {"metadata", "name"});
  pod.namespace_name = Str(p, {"metadata", "namespace"});
  pod.node = Str(p, {"spec", "nodeName"});
  pod.phase = Str(p, {"status", "phase"});
  pod.reason = Str(p, {"status", "reason"});
  pod.message = Str(p, {"status", "message"});
  pod.start_time = Str(p, {"status", "startTime"});
  if (const json* spec = JsonMember(p, "spec")) {
    if (const json* cs = JsonMember(*spec, "containers"); cs && cs->is_array()) {
      for (const json& c : *cs) {
        std::string n = Str(c, {"name"});
        if (!n.empty()) pod.containers.push_back(std::move(n));
      }
    }
  }
  if (const json* status = JsonMember(p, "status")) {
    ReadStatuses(*status, "initContainerStatuses", true, &pod);
    ReadStatuses(*status, "containerStatuses", false, &pod);
  }
  return pod;
}

/// The items of a List, or the document itself when it is one object of `kind`.
std::vector<const json*> Items(const json& doc, std::string_view kind) {
  std::vector<const json*> out;
  if (const json* items = JsonMember(doc, "items"); items && items->is_array()) {
    for (const json& i : *items) out.push_back(&i);
  } else if (Str(doc, {"kind"}) == kind) {
    out.push_back(&doc);
  }
  return out;
}

}  // namespace

const ContainerStatus* PodStatus::StatusOf(std::string_view container) const {
  for (const auto& s : statuses) {
    if (!s.init && s.name == container) return &s;
  }
  return nullptr;
}

Status ParsePods(std::string_view json_text, const std::string& name, std::vector<PodStatus>* out) {
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return Status::InvalidInput(name + ": not JSON (expected `kubectl get pods -o json` output)");
  for (const json* p : Items(doc, "Pod")) {
    PodStatus pod = ReadPod(*p);
    if (!pod.name.empty()) out->push_back(std::move(pod));
  }
  if (!doc.contains("items") && out->empty())
    return Status::InvalidInput(name + ": neither a pod nor a list of pods");
  return Status::Ok();
}

Status ParseEvents(std::string_view json_text, const std::string& name,
                   std::vector<KubeEvent>* out) {
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return Status::InvalidInput(name + ": not JSON (expected `kubectl get events -o json` output)");
  for (const json* e : Items(doc, "Event")) {
    KubeEvent ev;
    ev.type = Str(*e, {"type"});
    ev.reason = Str(*e, {"reason"});
    ev.message = Str(*e, {"message"});
    if (ev.message.empty()) ev.message = Str(*e, {"note"});  // events.k8s.io/v1
    // core/v1 names the object involvedObject, events.k8s.io/v1 regarding.
    const char* object = JsonMember(*e, "involvedObject") ? "involvedObject" : "regarding";
    ev.object_kind = Str(*e, {object, "kind"});
    ev.object_name = Str(*e, {object, "name"});
    ev.object_namespace = Str(*e, {object, "namespace"});
    ev.field_path = Str(*e, {object, "fieldPath"});
    for (const char* t : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
      ev.time = Str(*e, {t});
      if (!ev.time.empty()) break;
    }
    if (ev.time.empty()) ev.time = Str(*e, {"series", "lastObservedTime"});
    ev.source = Str(*e, {"source", "component"});
    if (ev.source.empty()) ev.source = Str(*e, {"reportingComponent"});
    ev.count = Int(*e, "count", 1);
    if (const json* series = JsonMember(*e, "series"))
      ev.count = std::max(ev.count, Int(*series, "count", 1));
    if (!ev.reason.empty() || !ev.message.empty()) out->push_back(std::move(ev));
  }
  return Status::Ok();
}

}  // namespace ncclscope
