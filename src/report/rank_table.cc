#include "ncclscope/report/rank_table.h"

#include <fmt/format.h>

#include "ncclscope/report/json_stream.h"

#include <algorithm>

namespace ncclscope {

std::vector<RankRow> BuildRankTable(const Job& job) {
  std::vector<RankRow> rows(job.processes.size());
  for (size_t i = 0; i < job.processes.size(); ++i) {
    const Process& p = job.processes[i];
    RankRow& r = rows[i];
    r.process = static_cast<int>(i);
    r.global_rank = p.global_rank;
    r.host = p.node == p.hostname ? p.hostname : p.hostname + " (" + p.node + ")";
    r.pid = p.pid;
    r.cuda_devs.assign(p.cuda_devs.begin(), p.cuda_devs.end());
    r.nccl_version = p.nccl_version;
    r.last_line = p.last_line;
    if (p.bootstrap_timings) r.bootstrap_seconds = p.bootstrap_timings->total;
  }
  for (const auto& c : job.comms) {
    for (const auto& [rank, cr] : c.ranks) {
      if (cr.process < 0) continue;
      RankRow& r = rows[cr.process];
      r.comms += static_cast<int>(1 + c.repeats);  // folded communicators ended complete
      if (!cr.completed) ++r.comms_incomplete;
      if (!cr.bus_id.empty() &&
          std::find(r.bus_ids.begin(), r.bus_ids.end(), cr.bus_id) == r.bus_ids.end())
        r.bus_ids.push_back(cr.bus_id);
      if (cr.init_timings) r.init_seconds = std::max(r.init_seconds, cr.init_timings->total);
    }
  }
  std::set<int> timed_out, errored;
  for (const auto& t : job.torch_ranks) {
    if (t.timed_out) timed_out.insert(t.rank);
  }
  for (const auto& f : job.framework) {
    if (f.kind == FrameworkRecord::Kind::kNcclError) errored.insert(f.rank);
  }
  for (auto& r : rows) {
    if (r.comms == 0) {
      r.state = "no-init";
    } else if (r.comms_incomplete > 0) {
      r.state = "init-incomplete";
    } else {
      r.state = "ok";
    }
    if (r.global_rank >= 0 && errored.count(r.global_rank)) r.state = "error";
    if (r.global_rank >= 0 && timed_out.count(r.global_rank)) r.state = "timed-out";
  }
  std::stable_sort(rows.begin(), rows.end(), [](const RankRow& a, const RankRow& b) {
    unsigned ra = static_cast<unsigned>(a.global_rank), rb = static_cast<unsigned>(b.global_rank);
    return ra < rb;
  });
  return rows;
}

void WriteRankTableJson(const Job& job, JsonStream* js) {
  js->BeginArray();
  for (const auto& r : BuildRankTable(job)) {
    // Keys in byte order, as a JSON document prints them.
    js->BeginObject();
    js->Key("bootstrap_seconds");
    js->SecondsOrNull(r.bootstrap_seconds);
    js->Key("bus_ids");
    js->BeginArray();
    for (const auto& b : r.bus_ids) js->String(b);
    js->EndArray();
    js->Key("comms");
    js->Int(r.comms);
    js->Key("comms_incomplete");
    js->Int(r.comms_incomplete);
    js->Key("cuda_devs");
    js->IntArray(r.cuda_devs);
    js->Key("host");
    js->String(r.host);
    js->Key("init_seconds");
    js->SecondsOrNull(r.init_seconds);
    js->Key("last_line");
    js->BeginObject();
    js->Key("line");
    js->Uint(r.last_line.line);
    js->Key("source");
    js->String(job.SourceName(r.last_line.source, ""));
    js->Key("text");
    js->String(r.last_line.text);
    js->EndObject();
    js->Key("nccl_version");
    js->String(r.nccl_version);
    js->Key("pid");
    js->Uint(r.pid);
    js->Key("rank");
    js->IntOrNull(r.global_rank);
    js->Key("state");
    js->String(r.state);
    js->EndObject();
  }
  js->EndArray();
}

void WriteRankTableText(const Job& job, std::ostream& out) {
  auto rows = BuildRankTable(job);
  out << fmt::format("{:>5}  {:<20} {:>8}  {:<6} {:<10} {:>5}  {:<8} {:<15} {:>8} {:>7}\n", "rank",
                     "host", "pid", "gpu", "busId", "comms", "nccl", "state", "boot(s)", "init(s)");
  for (const auto& r : rows) {
    std::string gpus, buses;
    // Appended piecewise: `"," + std::string` makes GCC 12 -O3 report a false -Wrestrict.
    for (int d : r.cuda_devs) {
      if (!gpus.empty()) gpus += ',';
      gpus += std::to_string(d);
    }
    for (const auto& b : r.bus_ids) {
      if (!buses.empty()) buses += ',';
      buses += b;
    }
    out << fmt::format("{:>5}  {:<20} {:>8}  {:<6} {:<10} {:>5}  {:<8} {:<15} {:>8} {:>7}\n",
                       r.global_rank >= 0 ? std::to_string(r.global_rank) : "?", r.host, r.pid,
                       gpus, buses, r.comms, r.nccl_version, r.state,
                       r.bootstrap_seconds >= 0 ? fmt::format("{:.2f}", r.bootstrap_seconds) : "-",
                       r.init_seconds >= 0 ? fmt::format("{:.2f}", r.init_seconds) : "-");
  }
  out << "\nlast NCCL line of each process:\n";
  for (const auto& r : rows) {
    if (r.last_line.text.empty()) continue;
    std::string_view src = job.SourceName(r.last_line.source, "");
    out << fmt::format("  rank {:>3}  {}:{}: {}\n",
                       r.global_rank >= 0 ? std::to_string(r.global_rank) : "?", src,
                       r.last_line.line, r.last_line.text);
  }
}

}  // namespace ncclscope
