// The job's shape and configuration compared: versions (info), settings, network facts and
// algorithm choices (changes).
#include <fmt/format.h>

#include <map>
#include <set>

#include "diff_parts.h"

namespace ncclscope::diff_internal {
namespace {

DiffItem Item(DiffTopic topic, DiffVerdict verdict, std::string subject, std::string before,
              std::string after, std::string note = {}) {
  DiffItem i;
  i.topic = topic;
  i.verdict = verdict;
  i.subject = std::move(subject);
  i.before = std::move(before);
  i.after = std::move(after);
  i.note = std::move(note);
  return i;
}

/// One item when the fact's values over the processes differ (the counts included).
void CompareValues(DiffTopic topic, DiffVerdict verdict, const std::string& subject,
                   const std::vector<ValueCount>& a, int a_procs, const std::vector<ValueCount>& b,
                   int b_procs, const std::string& none, std::vector<DiffItem>* out) {
  if (a == b && a_procs == b_procs) return;
  std::string before = ValuesText(a, a_procs, none);
  std::string after = ValuesText(b, b_procs, none);
  if (before == after) return;  // The same on every process of runs of different sizes.
  out->push_back(Item(topic, verdict, subject, std::move(before), std::move(after)));
}

/// One item per value present on one side only, or on another number of processes: for facts
/// a process can hold several values of (plugins, IB devices).
void CompareMembers(DiffTopic topic, DiffVerdict verdict, const std::string& subject,
                    const std::vector<ValueCount>& a, int a_procs, const std::vector<ValueCount>& b,
                    int b_procs, std::vector<DiffItem>* out) {
  std::map<std::string, std::pair<int, int>> counts;
  for (const auto& v : a) counts[v.value].first = v.processes;
  for (const auto& v : b) counts[v.value].second = v.processes;
  auto text = [](const std::string& value, int n, int procs) {
    if (n == 0) return std::string();
    return n >= procs ? value : fmt::format("{} on {} of {} processes", value, n, procs);
  };
  for (const auto& [value, n] : counts) {
    // Same value on every process of both runs: not a change, whatever the run sizes.
    if (n.first == n.second || (n.first >= a_procs && n.second >= b_procs)) continue;
    out->push_back(Item(topic, verdict, subject, text(value, n.first, a_procs),
                        text(value, n.second, b_procs)));
  }
}

/// Settings by name; an aws-ofi-nccl addition is marked as such.
std::map<std::string, std::vector<ValueCount>> SettingsByName(const JobConfiguration& c) {
  std::map<std::string, std::vector<ValueCount>> out;
  for (const SettingCount& s : c.settings) {
    std::string value = s.origin == "aws-ofi-nccl" ? s.value + " (added by aws-ofi-nccl)" : s.value;
    out[s.name].push_back(ValueCount{std::move(value), s.processes});
  }
  return out;
}

void DiffSettings(const JobConfiguration& a, const JobConfiguration& b,
                  std::vector<DiffItem>* out) {
  const auto sa = SettingsByName(a);
  const auto sb = SettingsByName(b);
  std::set<std::string> names;
  for (const auto& [n, v] : sa) names.insert(n);
  for (const auto& [n, v] : sb) names.insert(n);
  static const std::vector<ValueCount> kUnset;
  for (const auto& name : names) {
    auto ia = sa.find(name);
    auto ib = sb.find(name);
    CompareValues(DiffTopic::kSettings, DiffVerdict::kChange, name,
                  ia == sa.end() ? kUnset : ia->second, a.processes,
                  ib == sb.end() ? kUnset : ib->second, b.processes, "unset", out);
  }
}

/// "AllReduce RING/SIMPLE" values grouped by operation: "AllReduce" → {"RING/SIMPLE"}.
std::map<std::string, std::set<std::string>> AlgosByOp(const std::vector<ValueCount>& algos) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& v : algos) {
    const size_t space = v.value.find(' ');
    if (space == std::string::npos) continue;
    out[v.value.substr(0, space)].insert(v.value.substr(space + 1));
  }
  return out;
}

std::string Join(const std::set<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

void DiffAlgorithms(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  const auto& ca = a.configuration.coll_algos;
  const auto& cb = b.configuration.coll_algos;
  if (ca.empty() && cb.empty()) return;
  if (ca.empty() || cb.empty()) {
    out->push_back(Item(DiffTopic::kAlgorithms, DiffVerdict::kInfo, "algorithm choices",
                        ca.empty() ? "not logged" : "logged", cb.empty() ? "not logged" : "logged",
                        "only one run logged TUNING lines (NCCL_DEBUG_SUBSYS=TUNING or ALL); "
                        "algorithms not compared"));
    return;
  }
  const auto oa = AlgosByOp(ca);
  const auto ob = AlgosByOp(cb);
  std::set<std::string> ops;
  for (const auto& [op, v] : oa) ops.insert(op);
  for (const auto& [op, v] : ob) ops.insert(op);
  for (const auto& op : ops) {
    auto ia = oa.find(op);
    auto ib = ob.find(op);
    std::string before = ia == oa.end() ? "" : Join(ia->second);
    std::string after = ib == ob.end() ? "" : Join(ib->second);
    if (before != after)
      out->push_back(Item(DiffTopic::kAlgorithms, DiffVerdict::kChange, op, before, after));
  }
}

}  // namespace

void DiffJobShape(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  auto num = [&](const char* subject, int x, int y) {
    if (x != y)
      out->push_back(Item(DiffTopic::kJob, DiffVerdict::kChange, subject, std::to_string(x),
                          std::to_string(y)));
  };
  num("hosts", a.hosts, b.hosts);
  num("processes", a.processes, b.processes);
  num("world size (ranks of the largest communicator)", a.WorldSize(), b.WorldSize());
  num("communicators", static_cast<int>(a.comms.size()), static_cast<int>(b.comms.size()));
}

void DiffConfiguration(const RunSnapshot& a, const RunSnapshot& b, std::vector<DiffItem>* out) {
  if (!a.has_configuration || !b.has_configuration) {
    // Reports written before "configuration" still name their NCCL versions.
    std::vector<ValueCount> va, vb;
    for (const auto& v : a.nccl_versions) va.push_back(ValueCount{v, 0});
    for (const auto& v : b.nccl_versions) vb.push_back(ValueCount{v, 0});
    CompareValues(DiffTopic::kVersions, DiffVerdict::kInfo, "NCCL", va, 0, vb, 0, "not logged",
                  out);
    const RunSnapshot& old = a.has_configuration ? b : a;
    out->push_back(
        Item(DiffTopic::kSettings, DiffVerdict::kInfo, "configuration",
             a.has_configuration ? "compared" : "not in the report",
             b.has_configuration ? "compared" : "not in the report",
             fmt::format(
                 "the report {} (ncclscope {}) predates the \"configuration\" section: settings, "
                 "interfaces, NICs, plugins and algorithms not compared; re-run ncclscope on "
                 "its logs",
                 old.label, old.tool_version.empty() ? "?" : old.tool_version)));
    return;
  }
  const JobConfiguration& ca = a.configuration;
  const JobConfiguration& cb = b.configuration;
  const int pa = ca.processes, pb = cb.processes;
  auto info = [&](const char* subject, const std::vector<ValueCount>& x,
                  const std::vector<ValueCount>& y) {
    CompareValues(DiffTopic::kVersions, DiffVerdict::kInfo, subject, x, pa, y, pb, "not logged",
                  out);
  };
  info("NCCL", ca.nccl_versions, cb.nccl_versions);
  info("CUDA", ca.cuda_versions, cb.cuda_versions);
  info("CUDA driver", ca.cuda_drivers, cb.cuda_drivers);
  CompareMembers(DiffTopic::kVersions, DiffVerdict::kInfo, "plugin versions", ca.plugin_versions,
                 pa, cb.plugin_versions, pb, out);
  DiffSettings(ca, cb, out);
  auto change = [&](const char* subject, const std::vector<ValueCount>& x,
                    const std::vector<ValueCount>& y) {
    CompareValues(DiffTopic::kNetwork, DiffVerdict::kChange, subject, x, pa, y, pb, "none", out);
  };
  change("bootstrap interface", ca.bootstrap_interfaces, cb.bootstrap_interfaces);
  change("network (Using network)", ca.networks, cb.networks);
  change("socket interfaces (NET/Socket)", ca.socket_devices, cb.socket_devices);
  CompareMembers(DiffTopic::kNetwork, DiffVerdict::kChange, "IB devices (NET/IB)", ca.ib_devices,
                 pa, cb.ib_devices, pb, out);
  CompareMembers(DiffTopic::kNetwork, DiffVerdict::kChange, "plugins", ca.plugins, pa, cb.plugins,
                 pb, out);
  change("aws-ofi-nccl provider", ca.ofi_providers, cb.ofi_providers);
  change("GPUDirect RDMA", ca.gdrdma, cb.gdrdma);
  DiffAlgorithms(a, b, out);
}

}  // namespace ncclscope::diff_internal
