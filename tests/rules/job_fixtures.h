// Concise builders of hand-made Job models for rule tests, with real corpus lines as evidence.
#ifndef NCCLSCOPE_TESTS_RULES_JOB_FIXTURES_H_
#define NCCLSCOPE_TESTS_RULES_JOB_FIXTURES_H_

#include <algorithm>
#include <string>
#include <vector>

#include "ncclscope/model/job.h"
#include "ncclscope/rules/finding.h"
#include "ncclscope/rules/registry.h"

namespace ncclscope::testing {

/// Builds a Job step by step; every Add* returns the index of what it added.
class JobFixture {
 public:
  JobFixture() {
    job_.sources.push_back({});
    job_.sources[0].name = "test.log";
    job_.stats.nccl_lines = 100;
    job_.stats.lines = 100;
  }

  /// Evidence on line n of source 0.
  static Evidence Ev(std::string text, uint64_t line = 1) {
    return Evidence{0, line, std::move(text)};
  }

  /// A process on `hostname` (physical host grouped by hostname) with a global rank.
  int AddProcess(const std::string& hostname, int global_rank, uint32_t pid = 0) {
    Process p;
    p.hostname = hostname;
    p.node = hostname;
    p.pid = pid != 0 ? pid : 1000 + static_cast<uint32_t>(job_.processes.size());
    p.global_rank = global_rank;
    p.nccl_version = "2.28.9";
    p.cuda_devs.insert(global_rank);
    p.first_line = Ev(hostname + ":" + std::to_string(p.pid) +
                      ":1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0");
    p.last_line = Ev(hostname + ":" + std::to_string(p.pid) + ":1 [0] NCCL INFO last line", 50);
    int host = -1;
    for (size_t i = 0; i < job_.hosts.size(); ++i) {
      if (job_.hosts[i].name == hostname) host = static_cast<int>(i);
    }
    if (host < 0) {
      job_.hosts.push_back({});
      job_.hosts.back().name = hostname;
      host = static_cast<int>(job_.hosts.size()) - 1;
    }
    p.host = host;
    job_.processes.push_back(p);
    int idx = static_cast<int>(job_.processes.size()) - 1;
    job_.hosts[host].processes.push_back(idx);
    return idx;
  }

  Process& process(int i) { return job_.processes[i]; }

  /// Echoed setting on a process.
  void SetEnv(int process, const std::string& name, const std::string& value) {
    Setting s;
    s.value = value;
    s.by_environment = true;
    s.evidence = Ev("vm:1:1 [0] NCCL INFO " + name + " set by environment to " + value, 2);
    job_.processes[process].env[name] = s;
  }

  /// A communicator with ranks 0..n-1 on processes[first_process + r], all completed.
  int AddComm(const std::string& id, int nranks, int first_process, int nnodes = 1,
              int local_ranks = -1) {
    Communicator c;
    c.id = id;
    c.nranks = nranks;
    c.nnodes = nnodes;
    c.local_ranks = local_ranks < 0 ? nranks / std::max(nnodes, 1) : local_ranks;
    for (int r = 0; r < nranks; ++r) {
      CommRank cr;
      cr.rank = r;
      cr.process = first_process + r;
      cr.bus_id = std::to_string(0x60 + r * 0x10);
      cr.started = cr.completed = true;
      cr.start_evidence = Ev("ncclCommInitRankConfig comm 0x1 rank " + std::to_string(r) +
                                 " nranks " + std::to_string(nranks) + " - Init START",
                             10 + r);
      cr.complete_evidence = Ev("... - Init COMPLETE", 20 + r);
      c.ranks[r] = cr;
    }
    job_.comms.push_back(c);
    return static_cast<int>(job_.comms.size()) - 1;
  }

  Communicator& comm(int i) { return job_.comms[i]; }

  /// A link of comm `comm` from src to dst.
  Link& AddLink(int comm, int src, int dst, TransportClass cls, const std::string& raw,
                std::optional<bool> intra_node, std::optional<bool> same_host = std::nullopt) {
    Link l;
    l.comm = comm;
    l.attribution = Attribution::kCertain;
    l.src = src;
    l.dst = dst;
    l.raw = raw;
    l.cls = cls;
    l.intra_node = intra_node;
    l.same_physical_host = same_host;
    l.reporter = comm >= 0 ? job_.comms[comm].ranks[src].process : 0;
    l.channels.insert(0);
    l.lines = 1;
    l.first = Ev("Channel 00/0 : " + std::to_string(src) + "[" + std::to_string(src) + "] -> " +
                     std::to_string(dst) + "[" + std::to_string(dst) + "] via " + raw,
                 30);
    if (cls == TransportClass::kP2P || cls == TransportClass::kNVL) l.path = P2pPath::kUnknown;
    job_.links.push_back(l);
    return job_.links.back();
  }

  /// A WARN record of one process.
  WarnRecord& AddWarn(WarnCategory cat, const std::string& message, int process,
                      const std::string& location = "misc/x.cc:1") {
    WarnRecord w;
    w.category = cat;
    w.message = message;
    w.location = location;
    w.processes.insert(process);
    w.count = 1;
    w.evidence.push_back(Ev("vm:1:1 [0] " + location + " NCCL WARN " + message, 40));
    job_.warnings.push_back(w);
    return job_.warnings.back();
  }

  void AddPlugin(int process, const std::string& kind, PluginAction action, const std::string& name,
                 const std::string& line) {
    job_.processes[process].plugins.push_back({kind, action, name, Ev(line, 5)});
  }

  void AddOfi(int process, OfiKind kind, const std::string& value, const std::string& line,
              int nics = -1) {
    OfiNote n;
    n.kind = kind;
    n.value = value;
    n.nics = nics;
    n.evidence = Ev(line, 6);
    job_.processes[process].ofi.push_back(n);
  }

  Job& job() { return job_; }

  /// Runs all rules with default options.
  std::vector<Finding> Run(const RuleOptions& options = {}) { return RunRules(job_, options); }

 private:
  Job job_;
};

/// The findings of one rule.
inline std::vector<Finding> Of(const std::vector<Finding>& all, const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

/// True if no finding has error severity.
inline bool NoErrors(const std::vector<Finding>& all) {
  return std::none_of(all.begin(), all.end(),
                      [](const Finding& f) { return f.severity == Severity::kError; });
}

/// A healthy single-node job: 4 ranks on one host, all links P2P/CUMEM.
inline JobFixture HealthySingleNode() {
  JobFixture fx;
  for (int r = 0; r < 4; ++r) fx.AddProcess("vm", r);
  int c = fx.AddComm("0xe9089ab3dce6b312", 4, 0, 1, 4);
  for (int r = 0; r < 4; ++r) {
    Link& l = fx.AddLink(c, r, (r + 1) % 4, TransportClass::kNVL, "P2P/CUMEM", true, true);
    l.path = P2pPath::kNvlink;
    fx.comm(c).ranks[r].ended = true;
  }
  return fx;
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_RULES_JOB_FIXTURES_H_
