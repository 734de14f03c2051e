#include "ncclscope/rules/policy.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ncclscope/rules/registry.h"
#include "rule_util.h"

namespace ncclscope {
namespace {

using nlohmann::json;

/// Error naming the file, the key and what was expected.
Status Bad(std::string_view name, std::string_view key, std::string_view what) {
  return Status::InvalidInput(std::string(name) + ": policy key \"" + std::string(key) +
                              "\": " + std::string(what));
}

std::string TypeName(const json& j) { return j.type_name(); }

Status CheckKeys(const json& obj, std::string_view name, std::string_view where,
                 std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      std::string path = where.empty() ? key : std::string(where) + "." + key;
      return Bad(name, path, "unknown key (expected one of: " + list + ")");
    }
  }
  return Status::Ok();
}

Status ParseClasses(const json& j, std::string_view name, std::string_view key,
                    std::vector<TransportClass>* out) {
  if (!j.is_array())
    return Bad(name, key, "expected an array of transport class names, got " + TypeName(j));
  for (const json& e : j) {
    if (!e.is_string())
      return Bad(name, key, "expected transport class name strings, got " + TypeName(e));
    auto c = ParseTransportClass(e.get<std::string>());
    if (!c) {
      return Bad(name, key,
                 "unknown transport class \"" + e.get<std::string>() +
                     "\" (expected NVL, P2P, SHM, NET/Socket, NET/IB, NET/Libfabric, NET/other, "
                     "CollNet, NVLS)");
    }
    out->push_back(*c);
  }
  return Status::Ok();
}

Status ParseCount(const json& j, std::string_view name, std::string_view key,
                  std::optional<int>* out) {
  if (!j.is_number_integer() || j.get<int64_t>() < 0) {
    return Bad(name, key, "expected a non-negative integer, got " + TypeName(j));
  }
  *out = static_cast<int>(j.get<int64_t>());
  return Status::Ok();
}

Status ParseSeconds(const json& j, std::string_view name, std::string_view key,
                    std::optional<double>* out) {
  if (!j.is_number() || j.get<double>() <= 0) {
    return Bad(name, key, "expected a positive number, got " + TypeName(j));
  }
  *out = j.get<double>();
  return Status::Ok();
}

Status KnownRule(std::string_view name, std::string_view key, const std::string& id) {
  if (FindRule(id) == nullptr && id != "policy-violation") {
    return Bad(name, key, "unknown rule id \"" + id + "\" (see `ncclscope rules`)");
  }
  return Status::Ok();
}

Status ParseObject(const json& root, std::string_view name, Policy* p) {
  if (!root.is_object())
    return Bad(name, "(top level)", "expected an object, got " + TypeName(root));
  Status s =
      CheckKeys(root, name, "", {"transports", "expect", "severity", "ignore", "thresholds"});
  if (!s.ok()) return s;
  if (root.contains("transports")) {
    const json& t = root["transports"];
    if (!t.is_object()) return Bad(name, "transports", "expected an object, got " + TypeName(t));
    s = CheckKeys(t, name, "transports", {"intra_node", "inter_node", "require_gdrdma"});
    if (!s.ok()) return s;
    if (t.contains("intra_node")) {
      s = ParseClasses(t["intra_node"], name, "transports.intra_node", &p->intra_node);
      if (!s.ok()) return s;
    }
    if (t.contains("inter_node")) {
      s = ParseClasses(t["inter_node"], name, "transports.inter_node", &p->inter_node);
      if (!s.ok()) return s;
    }
    if (t.contains("require_gdrdma")) {
      if (!t["require_gdrdma"].is_boolean()) {
        return Bad(name, "transports.require_gdrdma",
                   "expected true or false, got " + TypeName(t["require_gdrdma"]));
      }
      p->require_gdrdma = t["require_gdrdma"].get<bool>();
    }
  }
  if (root.contains("expect")) {
    const json& e = root["expect"];
    if (!e.is_object()) return Bad(name, "expect", "expected an object, got " + TypeName(e));
    s = CheckKeys(e, name, "expect", {"ranks", "nodes", "hosts"});
    if (!s.ok()) return s;
    if (e.contains("ranks") &&
        !(s = ParseCount(e["ranks"], name, "expect.ranks", &p->expect_ranks)).ok())
      return s;
    if (e.contains("nodes") &&
        !(s = ParseCount(e["nodes"], name, "expect.nodes", &p->expect_nodes)).ok())
      return s;
    if (e.contains("hosts") &&
        !(s = ParseCount(e["hosts"], name, "expect.hosts", &p->expect_hosts)).ok())
      return s;
  }
  if (root.contains("severity")) {
    const json& sv = root["severity"];
    if (!sv.is_object())
      return Bad(name, "severity", "expected an object of rule id → severity, got " + TypeName(sv));
    for (const auto& [id, v] : sv.items()) {
      std::string key = "severity." + id;
      if (!(s = KnownRule(name, key, id)).ok()) return s;
      if (!v.is_string())
        return Bad(name, key, "expected \"info\", \"warning\" or \"error\", got " + TypeName(v));
      auto sev = ParseSeverity(v.get<std::string>());
      if (!sev)
        return Bad(
            name, key,
            "expected \"info\", \"warning\" or \"error\", got \"" + v.get<std::string>() + "\"");
      p->severity[id] = *sev;
    }
  }
  if (root.contains("ignore")) {
    const json& ig = root["ignore"];
    if (!ig.is_array())
      return Bad(name, "ignore", "expected an array of rule ids, got " + TypeName(ig));
    for (const json& id : ig) {
      if (!id.is_string())
        return Bad(name, "ignore", "expected rule id strings, got " + TypeName(id));
      if (!(s = KnownRule(name, "ignore", id.get<std::string>())).ok()) return s;
      p->ignore.insert(id.get<std::string>());
    }
  }
  if (root.contains("thresholds")) {
    const json& th = root["thresholds"];
    if (!th.is_object()) return Bad(name, "thresholds", "expected an object, got " + TypeName(th));
    s = CheckKeys(th, name, "thresholds", {"init_seconds", "init_outlier_factor"});
    if (!s.ok()) return s;
    if (th.contains("init_seconds") &&
        !(s = ParseSeconds(th["init_seconds"], name, "thresholds.init_seconds", &p->init_seconds))
             .ok()) {
      return s;
    }
    if (th.contains("init_outlier_factor") &&
        !(s = ParseSeconds(th["init_outlier_factor"], name, "thresholds.init_outlier_factor",
                           &p->init_outlier_factor))
             .ok()) {
      return s;
    }
  }
  return Status::Ok();
}

bool Allowed(const std::vector<TransportClass>& allowed, TransportClass c) {
  if (allowed.empty()) return true;
  for (TransportClass a : allowed) {
    if (a == c) return true;
    // NVL satisfies an expectation of P2P (it is P2P with a proven NVLink path).
    if (a == TransportClass::kP2P && c == TransportClass::kNVL) return true;
  }
  return false;
}

std::string ClassList(const std::vector<TransportClass>& v) {
  std::string s;
  for (TransportClass c : v) s += (s.empty() ? "" : "/") + std::string(TransportClassName(c));
  return s;
}

Finding Violation(const std::string& title) {
  Finding f;
  f.rule = std::string(kPolicyRuleId);
  f.severity = Severity::kError;
  f.title = title;
  f.fix = std::string(kPolicyRuleFix);
  return f;
}

void AddUnique(std::vector<int>* v, int x) {
  if (x >= 0 && std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

void CheckLinks(const Policy& p, const Job& job, std::vector<Finding>* out) {
  // key: "intra"/"inter"/"gdr" → links breaking it
  std::map<std::string, std::vector<const Link*>> bad;
  for (const Link& l : job.links) {
    if (l.intra_node.has_value()) {
      if (*l.intra_node && !Allowed(p.intra_node, l.cls)) bad["intra"].push_back(&l);
      if (!*l.intra_node && !Allowed(p.inter_node, l.cls)) bad["inter"].push_back(&l);
    }
    if (p.require_gdrdma && !l.gdrdma &&
        (l.cls == TransportClass::kNetIB || l.cls == TransportClass::kNetLibfabric)) {
      bad["gdr"].push_back(&l);
    }
  }
  for (const auto& [kind, links] : bad) {
    std::string what = kind == "intra"   ? "intra-node links must be " + ClassList(p.intra_node)
                       : kind == "inter" ? "inter-node links must be " + ClassList(p.inter_node)
                                         : "network links must use GPUDirect RDMA";
    Finding f = Violation("Policy: " + what);
    std::vector<std::string> items;
    uint64_t weighted = 0;  // links of folded communicators counted once per repeat
    for (const Link* l : links) {
      weighted += rules_internal::CommWeight(job, l->comm);
      std::string comm = l->comm >= 0 ? job.comms[l->comm].id : "(unknown comm)";
      if (std::find(f.comms.begin(), f.comms.end(), comm) == f.comms.end()) f.comms.push_back(comm);
      AddUnique(&f.ranks, rules_internal::GlobalRank(job, l->comm, l->src));
      AddUnique(&f.ranks, rules_internal::GlobalRank(job, l->comm, l->dst));
      if (items.size() < 5) {
        items.push_back("comm " + comm + " " + std::to_string(l->src) + "->" +
                        std::to_string(l->dst) + " via " + l->raw + " (" +
                        std::string(TransportClassName(l->cls)) + ")");
      }
      if (f.evidence.size() < 3 && !l->first.text.empty()) f.evidence.push_back(l->first);
    }
    std::sort(f.ranks.begin(), f.ranks.end());
    f.message = std::to_string(weighted) + " link(s) break the policy (" + what + "): " +
                [&] {
                  std::string s;
                  for (const auto& i : items) s += (s.empty() ? "" : "; ") + i;
                  return s;
                }() +
                (links.size() > items.size() ? "; ..." : "") + ".";
    out->push_back(std::move(f));
  }
}

void CheckCounts(const Policy& p, const Job& job, std::vector<Finding>* out) {
  int ranks = 0, nodes = 0;
  for (const Communicator& c : job.comms) {
    if (c.parent_id.empty()) ranks = std::max(ranks, c.nranks);
    nodes = std::max(nodes, c.nnodes);
  }
  auto check = [&](const std::optional<int>& want, int got, const std::string& what) {
    if (!want || *want == got) return;
    Finding f = Violation("Policy: expected " + what);
    f.message = "The policy expects " + std::to_string(*want) + " " + what + ", the job has " +
                std::to_string(got) + ".";
    out->push_back(std::move(f));
  };
  check(p.expect_ranks, ranks, "ranks");
  check(p.expect_nodes, nodes, "nodes");
  check(p.expect_hosts, static_cast<int>(job.hosts.size()), "hosts");
}

}  // namespace

Status ParsePolicy(std::string_view json_text, std::string_view name, Policy* out) {
  *out = Policy{};
  out->name = std::string(name);
  json root;
  try {  // The policy file is the one boundary where the JSON library's exceptions are caught.
    root = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    return Status::InvalidInput(std::string(name) + ": not valid JSON: " + e.what());
  }
  return ParseObject(root, name, out);
}

Status LoadPolicy(const std::string& path, Policy* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open policy file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IoError(path + ": error reading policy file");
  return ParsePolicy(ss.str(), path, out);
}

void ApplyPolicyThresholds(const Policy& policy, RuleOptions* options) {
  if (policy.init_seconds) options->slow_init_seconds = *policy.init_seconds;
  if (policy.init_outlier_factor) options->slow_init_outlier_factor = *policy.init_outlier_factor;
}

void ApplyPolicy(const Policy& policy, const Job& job, std::vector<Finding>* findings) {
  CheckLinks(policy, job, findings);
  CheckCounts(policy, job, findings);
  std::vector<Finding> kept;
  for (Finding& f : *findings) {
    if (policy.ignore.count(f.rule) > 0) continue;
    auto it = policy.severity.find(f.rule);
    if (it != policy.severity.end()) f.severity = it->second;
    kept.push_back(std::move(f));
  }
  *findings = std::move(kept);
  SortFindings(findings);
}

}  // namespace ncclscope
