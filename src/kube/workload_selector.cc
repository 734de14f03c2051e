// WorkloadSelector: spec.selector in kubectl -l syntax, or the operator's pod label.
#include "ncclscope/kube/workload_selector.h"

#include <nlohmann/json.hpp>

namespace ncclscope {
namespace {

using nlohmann::json;

std::string Str(const json& obj, std::string_view key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// matchExpressions in set-based syntax: "k in (a,b)", "k notin (a)", "k", "!k".
bool AppendExpressions(const json& exprs, std::string* out) {
  if (!exprs.is_array()) return true;
  for (const json& e : exprs) {
    const std::string key = Str(e, "key"), op = Str(e, "operator");
    std::string values;
    if (auto it = e.find("values"); e.is_object() && it != e.end() && it->is_array()) {
      for (const json& v : *it) {
        if (v.is_string()) values += (values.empty() ? "" : ",") + v.get<std::string>();
      }
    }
    std::string term;
    if (op == "In")
      term = key + " in (" + values + ")";
    else if (op == "NotIn")
      term = key + " notin (" + values + ")";
    else if (op == "Exists")
      term = key;
    else if (op == "DoesNotExist")
      term = "!" + key;
    else
      return false;
    if (key.empty()) return false;
    *out += (out->empty() ? "" : ",") + term;
  }
  return true;
}

}  // namespace

Status WorkloadSelector(std::string_view json_text, const std::string& name,
                        std::string* selector) {
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return Status::InvalidInput(name + ": not JSON (expected `kubectl get KIND/NAME -o json`)");
  const std::string kind = Str(doc, "kind");
  std::string obj_name;
  if (auto it = doc.find("metadata"); it != doc.end()) obj_name = Str(*it, "name");
  std::string sel;
  const json* spec_selector = nullptr;
  if (auto spec = doc.find("spec"); spec != doc.end() && spec->is_object()) {
    if (auto s = spec->find("selector"); s != spec->end() && s->is_object()) spec_selector = &*s;
  }
  if (spec_selector) {
    if (auto ml = spec_selector->find("matchLabels");
        ml != spec_selector->end() && ml->is_object()) {
      for (const auto& [k, v] : ml->items()) {
        if (v.is_string()) sel += (sel.empty() ? "" : ",") + k + "=" + v.get<std::string>();
      }
    }
    if (auto me = spec_selector->find("matchExpressions"); me != spec_selector->end()) {
      if (!AppendExpressions(*me, &sel))
        return Status::InvalidInput(name + ": unsupported matchExpressions operator");
    }
  }
  if (sel.empty() && !obj_name.empty()) {
    static constexpr std::pair<const char*, const char*> kOperatorLabels[] = {
        {"PyTorchJob", "training.kubeflow.org/job-name"},
        {"MPIJob", "training.kubeflow.org/job-name"},
        {"TFJob", "training.kubeflow.org/job-name"},
        {"XGBoostJob", "training.kubeflow.org/job-name"},
        {"PaddleJob", "training.kubeflow.org/job-name"},
        {"JobSet", "jobset.sigs.k8s.io/jobset-name"},
        {"TrainJob", "jobset.sigs.k8s.io/jobset-name"},
        {"RayCluster", "ray.io/cluster"},
        {"LeaderWorkerSet", "leaderworkerset.sigs.k8s.io/name"},
    };
    for (const auto& [k, label] : kOperatorLabels) {
      if (kind == k) sel = std::string(label) + "=" + obj_name;
    }
  }
  if (sel.empty())
    return Status::InvalidInput(name + ": " + (kind.empty() ? "object" : kind) + " " + obj_name +
                                " has no pod selector ncclscope knows: pass -l SELECTOR");
  *selector = std::move(sel);
  return Status::Ok();
}

}  // namespace ncclscope
