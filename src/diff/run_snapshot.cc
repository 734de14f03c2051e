// RunSnapshot from a JSON report (saved, or made from a fresh analysis). nlohmann::json is parsed
// without exceptions and every field is type-checked before use: a hand-edited or truncated
// report gives a clear error or an absent field, never a crash.
#include "ncclscope/diff/run_snapshot.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ncclscope/base/json_member.h"
#include "ncclscope/model/transport_class.h"
#include "ncclscope/report/json_report.h"

namespace ncclscope {
namespace {

using nlohmann::json;

std::string Str(const json& obj, std::string_view key) {
  const json* v = JsonMember(obj, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

/// An integer member; `missing` when absent, null or not an integer.
int64_t Int(const json& obj, std::string_view key, int64_t missing = -1) {
  const json* v = JsonMember(obj, key);
  return v && v->is_number_integer() ? v->get<int64_t>() : missing;
}

bool Bool(const json& obj, std::string_view key) {
  const json* v = JsonMember(obj, key);
  return v && v->is_boolean() && v->get<bool>();
}

/// A member that is an array, or nullptr.
const json* Array(const json& obj, std::string_view key) {
  const json* v = JsonMember(obj, key);
  return v && v->is_array() ? v : nullptr;
}

/// {"NAME": count, ...} → map (non-integer counts left out).
std::map<std::string, int> Counts(const json* obj) {
  std::map<std::string, int> out;
  if (!obj || !obj->is_object()) return out;
  for (const auto& [k, v] : obj->items()) {
    if (v.is_number_integer()) out[k] = v.get<int>();
  }
  return out;
}

std::vector<ValueCount> Values(const json& config, std::string_view key) {
  std::vector<ValueCount> out;
  if (const json* arr = Array(config, key)) {
    for (const json& v : *arr) {
      std::string value = Str(v, "value");
      if (!value.empty())
        out.push_back(ValueCount{std::move(value), static_cast<int>(Int(v, "processes", 0))});
    }
  }
  return out;
}

JobConfiguration ReadConfiguration(const json& c) {
  JobConfiguration out;
  out.processes = static_cast<int>(Int(c, "processes", 0));
  out.nccl_versions = Values(c, "nccl_versions");
  out.cuda_versions = Values(c, "cuda_versions");
  out.cuda_drivers = Values(c, "cuda_drivers");
  out.plugin_versions = Values(c, "plugin_versions");
  if (const json* arr = Array(c, "settings")) {
    for (const json& s : *arr) {
      SettingCount sc{Str(s, "name"), Str(s, "value"), Str(s, "origin"),
                      static_cast<int>(Int(s, "processes", 0))};
      if (!sc.name.empty()) out.settings.push_back(std::move(sc));
    }
  }
  out.bootstrap_interfaces = Values(c, "bootstrap_interfaces");
  out.networks = Values(c, "networks");
  out.plugins = Values(c, "plugins");
  out.ib_devices = Values(c, "ib_devices");
  out.socket_devices = Values(c, "socket_devices");
  out.ofi_providers = Values(c, "ofi_providers");
  out.gdrdma = Values(c, "gdrdma");
  out.coll_algos = Values(c, "coll_algos");
  return out;
}

CommSnapshot ReadComm(const json& c) {
  CommSnapshot s;
  s.id = Str(c, "id");
  s.api = Str(c, "api");
  s.parent = Str(c, "parent");
  s.nranks = static_cast<int>(Int(c, "nranks", 0));
  s.nnodes = static_cast<int>(Int(c, "nnodes"));
  s.local_ranks = static_cast<int>(Int(c, "local_ranks"));
  s.nchannels = static_cast<int>(Int(c, "nchannels"));
  if (const json* g = Array(c, "global_ranks")) {
    for (const json& r : *g) s.global_ranks.push_back(r.is_number_integer() ? r.get<int>() : -1);
  }
  s.channel_counts = Counts(JsonMember(c, "channel_counts"));
  s.graph_type = Str(c, "graph_type");
  s.bottleneck = Str(c, "bottleneck");
  s.links = Counts(JsonMember(c, "link_counts"));
  const json* intra = JsonMember(c, "intra_node_link_counts");
  const json* inter = JsonMember(c, "inter_node_link_counts");
  s.has_locality_counts = intra && inter && intra->is_object() && inter->is_object();
  s.intra_links = Counts(intra);
  s.inter_links = Counts(inter);
  s.p2p_path_unknown = static_cast<int>(Int(c, "p2p_path_unknown_links"));
  s.init_complete = Bool(c, "init_complete");
  return s;
}

/// Each link's class onto its communicator's (src, dst) pair, the slowest class winning, and
/// into the run's all_links counts.
void ReadLinks(const json& links, RunSnapshot* run) {
  std::map<std::string, CommSnapshot*> by_id;
  for (auto& c : run->comms) by_id.emplace(c.id, &c);
  CommSnapshot& all = run->all_links;
  all.id = "all links";
  all.has_locality_counts = true;
  all.p2p_path_unknown = 0;
  for (const json& l : links) {
    const auto cls = ParseTransportClass(Str(l, "transport"));
    if (!cls || *cls == TransportClass::kUnknown) continue;
    PairLink link{Str(l, "transport"), *cls == TransportClass::kP2P && Str(l, "path") != "nvlink" &&
                                           Str(l, "path") != "pcie"};
    ++all.links[link.cls];
    if (const json* intra = JsonMember(l, "intra_node"); intra && intra->is_boolean())
      ++(intra->get<bool>() ? all.intra_links : all.inter_links)[link.cls];
    if (link.path_unknown) ++all.p2p_path_unknown;
    auto it = by_id.find(Str(l, "comm"));
    const int src = static_cast<int>(Int(l, "src")), dst = static_cast<int>(Int(l, "dst"));
    if (it == by_id.end() || src < 0 || dst < 0) continue;
    auto [pos, inserted] = it->second->pairs.emplace(std::make_pair(src, dst), link);
    if (inserted) continue;
    const auto have = ParseTransportClass(pos->second.cls);
    if (!have || TransportClassSpeedRank(*cls) < TransportClassSpeedRank(*have)) pos->second = link;
  }
}

/// A report's root_cause object (the job's, or one attempt's).
OutcomeSnapshot ReadOutcome(const json& rc) {
  OutcomeSnapshot o;
  o.cls = Str(rc, "class");
  o.failed = Bool(rc, "job_failed");
  o.what = Str(rc, "what");
  std::vector<std::string> named;
  if (const json* culprits = Array(rc, "culprits")) {
    for (const json& c : *culprits) {
      const int64_t rank = Int(c, "rank");
      o.ranks.push_back(rank >= 0 ? static_cast<int>(rank) : -1);
      const std::string host = Str(c, "host");
      const int64_t pid = Int(c, "pid");
      std::string where = !host.empty() && pid > 0 ? host + " pid " + std::to_string(pid)
                          : !host.empty()          ? host
                          : pid > 0                ? "pid " + std::to_string(pid)
                                                   : std::string();
      if (rank >= 0) {
        named.push_back("rank " + std::to_string(rank) + (where.empty() ? "" : " (" + where + ")"));
      } else {
        named.push_back(where.empty() ? "an unidentified process" : where);
      }
    }
  }
  for (size_t n = 0; n < named.size(); ++n) o.who += (n == 0 ? "" : ", ") + named[n];
  return o;
}

}  // namespace

int RunSnapshot::WorldSize() const {
  int n = 0;
  for (const auto& c : comms) n = std::max(n, c.nranks);
  return n;
}

namespace {

Status ReadReport(const json& doc, const std::string& name, RunSnapshot* out) {
  const json* tool = JsonMember(doc, "tool");
  const int64_t schema = Int(doc, "schema_version");
  if (!tool || Str(*tool, "name") != "ncclscope" || schema < 0)
    return Status::InvalidInput(name +
                                ": not an ncclscope JSON report (no schema_version and "
                                "tool.name \"ncclscope\")");
  if (schema > kJsonSchemaVersion)
    return Status::InvalidInput(name + ": report schema version " + std::to_string(schema) +
                                " is newer than this ncclscope reads (" +
                                std::to_string(kJsonSchemaVersion) + ")");
  out->tool_version = Str(*tool, "version");
  if (const json* stats = JsonMember(doc, "stats")) {
    const int64_t n = Int(*stats, "nccl_lines", 0);
    out->nccl_lines = n > 0 ? static_cast<uint64_t>(n) : 0;
  }
  if (const json* hosts = Array(doc, "hosts")) {
    out->hosts = static_cast<int>(hosts->size());
    for (const json& h : *hosts) {
      if (const json* procs = Array(h, "processes"))
        out->processes += static_cast<int>(procs->size());
    }
  }
  if (const json* versions = Array(doc, "nccl_versions")) {
    for (const json& v : *versions) {
      if (v.is_string()) out->nccl_versions.push_back(v.get<std::string>());
    }
  }
  if (const json* config = JsonMember(doc, "configuration"); config && config->is_object()) {
    out->has_configuration = true;
    out->configuration = ReadConfiguration(*config);
  }
  if (const json* comms = Array(doc, "communicators")) {
    for (const json& c : *comms) out->comms.push_back(ReadComm(c));
  }
  if (const json* links = Array(doc, "links")) ReadLinks(*links, out);
  if (const json* findings = Array(doc, "findings")) {
    for (const json& f : *findings) {
      out->findings.push_back(
          FindingSnapshot{Str(f, "rule"), Str(f, "severity"), Str(f, "title"), Str(f, "message")});
    }
  }
  if (const json* rc = JsonMember(doc, "root_cause"); rc && rc->is_object()) {
    out->has_root_cause = true;
    out->outcome = ReadOutcome(*rc);
    if (const json* attempts = Array(doc, "attempts")) {
      for (const json& a : *attempts) {
        const json* arc = JsonMember(a, "root_cause");
        out->attempts.push_back(arc && arc->is_object() ? ReadOutcome(*arc) : OutcomeSnapshot{});
      }
    }
    if (out->attempts.empty()) out->attempts.push_back(out->outcome);
  }
  if (const json* problems = Array(doc, "input_problems")) {
    for (const json& p : *problems)
      out->input_problems.push_back(Str(p, "path") + ": " + Str(p, "message"));
  }
  return Status::Ok();
}

}  // namespace

Status ParseReportSnapshot(std::string_view text, const std::string& name, RunSnapshot* out) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return Status::InvalidInput(name +
                                ": not valid JSON (expected an ncclscope --format json "
                                "report)");
  return ReadReport(doc, name, out);
}

RunSnapshot SnapshotOfAnalysis(const ReportInput& in) {
  RunSnapshot snap;
  snap.kind = "log";
  // The report of a fresh analysis always reads back: an error here is a report-writer bug,
  // kept visible as an input problem rather than lost.
  Status s = ReadReport(JsonReport(in), "report", &snap);
  if (!s.ok()) snap.input_problems.push_back(s.message());
  snap.tool_version.clear();  // Only a saved report was written by some (other) version.
  return snap;
}

void AddBenchSnapshots(const std::vector<BenchTest>& tests, const std::string& source,
                       RunSnapshot* out) {
  for (const BenchTest& t : tests) {
    if (t.rows.empty()) continue;
    const BenchMetrics m = ComputeBenchMetrics(t);
    BenchSnapshot b;
    b.name = t.name;
    b.source = source;
    b.ranks = t.Ranks();
    b.peak_busbw_gbps = m.peak_busbw_gbps;
    b.peak_size_bytes = m.peak_size_bytes;
    b.avg_busbw_gbps = t.avg_busbw_gbps;
    b.wrong_total = m.wrong_total;
    b.errors = t.errors;
    out->bench.push_back(std::move(b));
  }
}

}  // namespace ncclscope
