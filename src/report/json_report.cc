#include "ncclscope/report/json_report.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ncclscope/model/line_coverage.h"
#include "ncclscope/model/link_summary.h"
#include "ncclscope/model/source_owners.h"
#include "ncclscope/model/timeline.h"
#include "ncclscope/report/json_stream.h"
#include "ncclscope/report/json_triage.h"
#include "ncclscope/report/rank_table.h"
#include "ncclscope/rules/warn_filter.h"

namespace ncclscope {
namespace {

using nlohmann::json;

json JsonEvidence(const Job& job, const Evidence& e) {
  return json{{"source", job.SourceName(e.source, "")}, {"line", e.line}, {"text", e.text}};
}

std::string_view PathName(P2pPath p) {
  switch (p) {
    case P2pPath::kNvlink:
      return "nvlink";
    case P2pPath::kPcie:
      return "pcie";
    case P2pPath::kUnknown:
      return "unknown";
    case P2pPath::kNotApplicable:
      break;
  }
  return "";
}

std::string_view AttributionName(Attribution a) {
  switch (a) {
    case Attribution::kCertain:
      return "certain";
    case Attribution::kInferred:
      return "inferred";
    case Attribution::kUnknown:
      break;
  }
  return "unknown";
}

/// The error timeline (see docs/json-output.md), first kMaxTimelineJson entries.
json TimelineJson(const Job& job) {
  constexpr size_t kMaxTimelineJson = 200;
  std::vector<TimelineEntry> tl = BuildTimeline(job, &IsErrorWarning);
  const int first = FirstFailure(tl);
  json arr = json::array();
  for (size_t i = 0; i < tl.size() && i < kMaxTimelineJson; ++i) {
    const TimelineEntry& e = tl[i];
    arr.push_back({{"host", e.host.empty() ? json(nullptr) : json(e.host)},
                   {"rank", e.rank >= 0 ? json(e.rank) : json(nullptr)},
                   {"time", e.time.empty() ? json(nullptr) : json(e.time)},
                   {"source", job.SourceName(e.source, "")},
                   {"line", e.line},
                   {"text", e.text},
                   {"kind", e.kind},
                   {"cascade", e.cascade},
                   {"first_failure", static_cast<int>(i) == first}});
  }
  return arr;
}

/// Links per class name, as an object (keys in byte order); empty when `counts` is null.
void WriteClassCounts(JsonStream* js, const std::map<TransportClass, int>* counts) {
  js->BeginObject();
  if (counts) {
    std::vector<std::pair<std::string_view, int>> named;  // by class name, as JSON keys sort
    for (const auto& [cls, n] : *counts) named.emplace_back(TransportClassName(cls), n);
    std::sort(named.begin(), named.end());
    for (const auto& [name, n] : named) {
      js->Key(name);
      js->Int(n);
    }
  }
  js->EndObject();
}

/// "N coll channels, ..." of the communicator, or null when no rank printed it.
void WriteChannelCounts(JsonStream* js, const std::optional<ChannelCounts>& cc) {
  if (!cc) {
    js->Null();
    return;
  }
  js->BeginObject();
  js->Key("coll");
  js->IntOrNull(cc->coll);
  js->Key("collnet");
  js->IntOrNull(cc->collnet);
  js->Key("nvls");
  js->IntOrNull(cc->nvls);
  js->Key("p2p");
  js->IntOrNull(cc->p2p);
  js->Key("p2p_per_peer");
  js->IntOrNull(cc->p2p_per_peer);
  js->EndObject();
}

/// One communicator, keys in byte order (the order a JSON document would print them in).
void WriteComm(JsonStream* js, const Job& job, int index, const CommLinkSummary* s) {
  const Communicator& c = job.comms[index];
  std::vector<int> seen, missing, incomplete;
  bool all_complete = !c.ranks.empty();
  for (const auto& [r, cr] : c.ranks) {
    seen.push_back(r);
    if (!cr.completed) {
      all_complete = false;
      incomplete.push_back(r);
    }
  }
  for (int r = 0; r < c.nranks; ++r) {
    if (!c.ranks.count(r)) missing.push_back(r);
  }
  std::set<int> host_set;
  for (const auto& [r, cr] : c.ranks) {
    if (cr.process >= 0) host_set.insert(job.processes[cr.process].host);
  }
  js->BeginObject();
  js->Key("api");
  js->String(c.api);
  js->Key("bottleneck");
  js->StringOrNull(s && s->bottleneck ? TransportClassName(*s->bottleneck) : "");
  js->Key("channel_counts");
  WriteChannelCounts(js, c.channel_counts);
  js->Key("global_ranks");
  js->BeginArray();
  for (int r = 0; r < c.nranks; ++r) js->Int(GlobalRank(job, index, r));
  js->EndArray();
  js->Key("graph_type");
  js->StringOrNull(c.graph_intra_type.empty() ? std::string()
                                              : c.graph_intra_type + "/" + c.graph_inter_type);
  js->Key("hosts");
  js->BeginArray();
  for (int h : host_set) js->String(job.hosts[h].name);
  js->EndArray();
  js->Key("id");
  js->String(c.id);
  js->Key("init_complete");
  js->Bool(all_complete && missing.empty());
  if (s) {
    js->Key("inter_node_link_counts");
    WriteClassCounts(js, &s->inter_by_class);
    js->Key("inter_node_links");
    js->Int(s->inter);
    js->Key("intra_node_link_counts");
    WriteClassCounts(js, &s->intra_by_class);
    js->Key("intra_node_links");
    js->Int(s->intra);
  }
  js->Key("link_counts");
  WriteClassCounts(js, s ? &s->by_class : nullptr);
  js->Key("local_ranks");
  js->IntOrNull(c.local_ranks);
  js->Key("nchannels");
  js->IntOrNull(c.nchannels);
  js->Key("nnodes");
  js->IntOrNull(c.nnodes);
  js->Key("nranks");
  js->Int(c.nranks);
  if (s) {
    js->Key("p2p_path_unknown_links");
    js->Int(s->p2p_path_unknown);
  }
  js->Key("parent");
  js->StringOrNull(c.parent_id);
  js->Key("ranks_incomplete");
  js->IntArray(incomplete);
  js->Key("ranks_missing");
  js->IntArray(missing);
  js->Key("ranks_seen");
  js->IntArray(seen);
  if (c.repeats > 0) {  // only in jobs whose ended communicators were folded
    js->Key("repeats");
    js->Uint(c.repeats);
  }
  js->Key("rings");
  js->Uint(c.rings.size());
  if (s) {
    js->Key("unknown_locality_links");
    js->Int(s->unknown_locality);
  }
  js->EndObject();
}

/// The "communicators" array, streamed.
void WriteComms(const Job& job, JsonStream* js) {
  const auto summaries = SummarizeLinks(job);
  std::map<int, const CommLinkSummary*> by_comm;
  for (const auto& s : summaries) by_comm[s.comm] = &s;
  js->BeginArray();
  for (size_t i = 0; i < job.comms.size(); ++i) {
    auto it = by_comm.find(static_cast<int>(i));
    WriteComm(js, job, static_cast<int>(i), it == by_comm.end() ? nullptr : it->second);
  }
  js->EndArray();
}

}  // namespace

namespace {

/// One link, keys in byte order (the order a JSON document would print them in).
void WriteLink(JsonStream* js, const Job& job, const Link& l) {
  const std::string_view direction = l.send_side && l.receive_side ? "both"
                                     : l.receive_side              ? "receive"
                                                                   : "send";
  js->BeginObject();
  js->Key("attribution");
  js->String(AttributionName(l.attribution));
  js->Key("ce");
  js->Bool(l.ce);
  js->Key("channels");
  js->IntArray(l.channels);
  js->Key("comm");
  js->StringOrNull(l.comm >= 0 ? std::string_view(job.comms[l.comm].id) : "");
  js->Key("conn_indexes");
  js->IntArray(l.conn_indexes);
  js->Key("direction");
  js->String(direction);
  js->Key("dst");
  js->Int(l.dst);
  js->Key("evidence");
  WriteEvidenceJson(job, l.first, js);
  js->Key("gdrdma");
  js->Bool(l.gdrdma);
  js->Key("global_dst");
  js->Int(GlobalRank(job, l.comm, l.dst));
  js->Key("global_src");
  js->Int(GlobalRank(job, l.comm, l.src));
  js->Key("hardware_path");
  js->StringOrNull(PathName(l.hardware_path));
  js->Key("intra_node");
  js->BoolOrNull(l.intra_node);
  js->Key("lines");
  js->Uint(l.lines);
  js->Key("mode");
  js->StringOrNull(l.mode);
  js->Key("net");
  js->StringOrNull(l.net);
  js->Key("net_dev");
  js->IntOrNull(l.net_dev);
  js->Key("path");
  js->StringOrNull(PathName(l.path));
  js->Key("path_evidence");
  js->StringOrNull(l.path_evidence);
  js->Key("proxy_rank");
  js->IntOrNull(l.proxy_rank);
  js->Key("raw");
  js->String(l.raw);
  js->Key("read");
  js->Bool(l.read);
  js->Key("same_physical_host");
  js->BoolOrNull(l.same_physical_host);
  js->Key("shared");
  js->Bool(l.shared);
  js->Key("src");
  js->Int(l.src);
  js->Key("transport");
  js->String(TransportClassName(l.cls));
  js->EndObject();
}

/// The "links" array, streamed: links are most of a large job's report.
void WriteLinks(const Job& job, JsonStream* js) {
  js->BeginArray();
  for (const Link& l : job.links) WriteLink(js, job, l);
  js->EndArray();
}

}  // namespace

json JsonFinding(const Job& job, const Finding& f) {
  json ev = json::array();
  for (const auto& e : f.evidence) ev.push_back(JsonEvidence(job, e));
  return json{{"rule", f.rule},
              {"severity", SeverityName(f.severity)},
              {"title", f.title},
              {"message", f.message},
              {"evidence", std::move(ev)},
              {"fix", f.fix},
              {"ranks", f.ranks},
              {"hosts", f.hosts},
              {"comms", f.comms},
              {"suspect_ranks", f.suspect_ranks},
              {"suspect_hosts", f.suspect_hosts},
              {"caused_by", f.caused_by.empty() ? json(nullptr) : json(f.caused_by)}};
}

namespace {

/// The report without its large arrays, which are streamed (see kStreamed).
json ReportDocument(const ReportInput& in) {
  const Job& job = in.job;
  json problems = json::array();
  for (const auto& p : in.problems) problems.push_back({{"path", p.path}, {"message", p.message}});

  json findings = json::array();
  for (const auto& f : in.findings) findings.push_back(JsonFinding(job, f));
  json timeline = TimelineJson(job);

  json by_type = json::object();
  for (const auto& [k, v] : job.stats.events_by_type) by_type[k] = v;
  json stats{{"lines", job.stats.lines},
             {"nccl_lines", job.stats.nccl_lines},
             {"framework_lines", job.stats.framework_lines},
             {"events", job.stats.events},
             {"unrecognized", job.stats.unrecognized},
             {"mention_lines", job.stats.mention_lines},
             {"unrecognized_mentions", job.stats.unrecognized_mentions},
             {"connection_lines", job.stats.connection_lines},
             {"bytes", job.stats.bytes},
             {"events_by_type", by_type}};
  json unrec = json::array();
  for (const auto& e : job.unrecognized_samples) unrec.push_back(JsonEvidence(job, e));
  stats["unrecognized_samples"] = std::move(unrec);
  if (job.stats.folded_comms > 0) stats["folded_communicators"] = job.stats.folded_comms;
  // Failure lines the triage did not keep (its caps): said only when there were some.
  if (job.incidents.dropped > 0) stats["incidents_not_kept"] = job.incidents.dropped;
  const LineCoverage cov = CoverageOf(job.stats);
  stats["coverage"] = {{"nccl_lines_read", cov.read},
                       {"understood", cov.understood},
                       {"not_understood", cov.not_understood()},
                       {"ratio", cov.ratio()}};

  // Moved, not copied, into the report: links and communicators are most of a large job's report.
  return json{{"schema_version", kJsonSchemaVersion},
              {"tool", {{"name", "ncclscope"}, {"version", NCCLSCOPE_VERSION}}},
              {"input_problems", std::move(problems)},
              {"nccl_versions", job.nccl_versions},
              {"configuration", JsonConfiguration(job)},
              {"findings", std::move(findings)},
              {"timeline", std::move(timeline)},
              {"stats", std::move(stats)}};
}

}  // namespace

namespace {

/// Hosts and their processes (a job of one file per rank has thousands), keys in byte order.
void WriteHosts(const Job& job, JsonStream* js) {
  js->BeginArray();
  for (const auto& h : job.hosts) {
    js->BeginObject();
    js->Key("address");
    js->StringOrNull(h.address);
    js->Key("name");
    js->String(h.name);
    js->Key("nodes");
    js->BeginArray();
    for (const std::string& n : h.nodes) js->String(n);
    js->EndArray();
    js->Key("processes");
    js->BeginArray();
    for (int pi : h.processes) {
      const Process& p = job.processes[pi];
      js->BeginObject();
      js->Key("cuda_devs");
      js->IntArray(p.cuda_devs);
      js->Key("global_rank");
      js->IntOrNull(p.global_rank);
      js->Key("hostname");
      js->String(p.hostname);
      js->Key("node");
      js->String(p.node);
      js->Key("pid");
      js->Uint(p.pid);
      js->EndObject();
    }
    js->EndArray();
    js->EndObject();
  }
  js->EndArray();
}

/// One entry per input with its line counts and who printed it (a job of one file per rank has
/// thousands), keys in byte order.
void WriteInputs(const Job& job, JsonStream* js) {
  const std::vector<SourceOwners> owners = OwnersOfSources(job);
  js->BeginArray();
  for (size_t si = 0; si < job.sources.size(); ++si) {
    const SourceInfo& s = job.sources[si];
    js->BeginObject();
    js->Key("events");
    js->Uint(s.events);
    js->Key("framework_lines");
    js->Uint(s.framework_lines);
    js->Key("hosts");
    js->BeginArray();
    for (const std::string& h : owners[si].hosts) js->String(h);
    js->EndArray();
    js->Key("lines");
    js->Uint(s.lines);
    if (s.malformed_records > 0) {
      js->Key("malformed_records");
      js->Uint(s.malformed_records);
    }
    js->Key("mention_lines");
    js->Uint(s.mention_lines);
    js->Key("name");
    js->String(s.name);
    js->Key("nccl_lines");
    js->Uint(s.nccl_lines);
    if (!s.pod.empty()) {
      js->Key("pod");
      js->String(s.pod);
    }
    if (!s.problem.empty()) {
      js->Key("problem");
      js->String(s.problem);
    }
    js->Key("ranks");
    js->IntArray(owners[si].ranks);
    if (s.wrap_width != 0) {  // a hard-wrapped paste whose lines were joined again
      js->Key("rejoined_lines");
      js->Uint(s.rejoined_lines);
    }
    js->Key("truncated_lines");
    js->Uint(s.truncated_lines);
    js->Key("unrecognized");
    js->Uint(s.unrecognized);
    js->Key("unrecognized_mentions");
    js->Uint(s.unrecognized_mentions);
    if (s.wrap_width != 0) {
      js->Key("wrap_width");
      js->Uint(s.wrap_width);
    }
    js->EndObject();
  }
  js->EndArray();
}

/// What the streamed parts are written from.
struct StreamedInput {
  const Job& job;
  const RootCauseReport& root_cause;
};

/// The parts of the report written by JsonStream instead of built as a document, by key (in
/// byte order): what grows with the job (links, ranks, and in a failed job the root cause's
/// fallout and the watchdog table, a row per rank).
struct StreamedPart {
  std::string_view key;
  void (*write)(const StreamedInput& in, JsonStream* js);
};
constexpr StreamedPart kStreamed[] = {
    {"attempts", [](const StreamedInput& in,
                    JsonStream* js) { WriteAttemptsJson(in.job, in.root_cause, js); }},
    {"communicators", [](const StreamedInput& in, JsonStream* js) { WriteComms(in.job, js); }},
    {"hosts", [](const StreamedInput& in, JsonStream* js) { WriteHosts(in.job, js); }},
    {"inputs", [](const StreamedInput& in, JsonStream* js) { WriteInputs(in.job, js); }},
    {"links", [](const StreamedInput& in, JsonStream* js) { WriteLinks(in.job, js); }},
    {"ranks", [](const StreamedInput& in, JsonStream* js) { WriteRankTableJson(in.job, js); }},
    {"root_cause", [](const StreamedInput& in,
                      JsonStream* js) { WriteRootCauseJson(in.job, in.root_cause.cause, js); }},
    {"watchdog", [](const StreamedInput& in, JsonStream* js) { WriteWatchdogJson(in.job, js); }},
};

}  // namespace

json JsonReport(const ReportInput& in) {
  json report = ReportDocument(in);
  RootCauseReport storage;
  const StreamedInput streamed{in.job, RootCauseOf(in, &storage)};
  for (const StreamedPart& part : kStreamed) {
    std::string text;
    JsonStream js(&text);
    part.write(streamed, &js);
    report[std::string(part.key)] = json::parse(text);
  }
  return report;
}

void WriteJsonReport(const ReportInput& in, const ReportOptions&, std::ostream& out) {
  const json report = ReportDocument(in);
  RootCauseReport storage;
  const StreamedInput streamed{in.job, RootCauseOf(in, &storage)};
  std::string text;
  JsonStream js(&text);
  js.set_sink(&out);  // written through a small buffer, however large the job
  js.BeginObject();
  // The document's members and the streamed parts, merged in key order.
  size_t next = 0;
  // Writes the streamed parts whose keys sort before `key`; all that are left without one.
  auto stream_before = [&](std::optional<std::string_view> key) {
    for (; next < std::size(kStreamed) && (!key || kStreamed[next].key < *key); ++next) {
      js.Key(kStreamed[next].key);
      kStreamed[next].write(streamed, &js);
    }
  };
  for (const auto& [key, value] : report.items()) {
    stream_before(key);
    js.Key(key);
    js.Value(value);
  }
  stream_before(std::nullopt);
  js.EndObject();
  text.push_back('\n');
  js.Flush();
}

}  // namespace ncclscope
