#include "rule_util.h"

#include <algorithm>
#include <cstdio>

namespace ncclscope::rules_internal {
namespace {

template <typename T>
void InsertSorted(std::vector<T>* v, const T& x) {
  auto it = std::lower_bound(v->begin(), v->end(), x);
  if (it == v->end() || *it != x) v->insert(it, x);
}

}  // namespace

Finding NewFinding(const Rule& rule) {
  Finding f;
  f.rule = std::string(rule.id());
  f.severity = rule.default_severity();
  f.title = std::string(rule.title());
  f.fix = std::string(rule.fix());
  return f;
}

void AddEvidence(Finding* f, const Evidence& ev) {
  if (ev.text.empty() || f->evidence.size() >= kMaxEvidence) return;
  for (const Evidence& e : f->evidence) {
    if (e.source == ev.source && e.line == ev.line && e.text == ev.text) return;
  }
  f->evidence.push_back(ev);
}

void AddRank(Finding* f, int rank) {
  if (rank >= 0) InsertSorted(&f->ranks, rank);
}
void AddSuspectRank(Finding* f, int rank) {
  if (rank >= 0) InsertSorted(&f->suspect_ranks, rank);
}
void AddHost(Finding* f, const std::string& host) {
  if (!host.empty()) InsertSorted(&f->hosts, host);
}
void AddSuspectHost(Finding* f, const std::string& host) {
  if (!host.empty()) InsertSorted(&f->suspect_hosts, host);
}
void AddComm(Finding* f, const std::string& comm) {
  if (!comm.empty()) InsertSorted(&f->comms, comm);
}

std::string HostName(const Job& job, int process) {
  if (process < 0 || static_cast<size_t>(process) >= job.processes.size()) return "?";
  const std::string& h = job.processes[process].hostname;
  return h.empty() ? "?" : h;
}

int ProcessOfRank(const Job& job, int comm, int comm_rank) {
  if (comm < 0 || static_cast<size_t>(comm) >= job.comms.size()) return -1;
  auto it = job.comms[comm].ranks.find(comm_rank);
  if (it == job.comms[comm].ranks.end()) return -1;
  return it->second.process;
}

int GlobalRank(const Job& job, int comm, int comm_rank) {
  int p = ProcessOfRank(job, comm, comm_rank);
  if (p >= 0 && static_cast<size_t>(p) < job.processes.size()) {
    const Process& proc = job.processes[p];
    // A process driving several GPUs holds several ranks: keep the comm-local rank then.
    if (proc.global_rank >= 0 && proc.cuda_devs.size() <= 1) return proc.global_rank;
  }
  return comm_rank;
}

std::string ProcessLabel(const Job& job, int process) {
  if (process < 0 || static_cast<size_t>(process) >= job.processes.size()) return "?";
  const Process& p = job.processes[process];
  std::string s = HostName(job, process) + ":" + std::to_string(p.pid);
  if (p.global_rank >= 0) s += " (rank " + std::to_string(p.global_rank) + ")";
  return s;
}

std::string CommName(const Job& job, int comm) {
  if (comm < 0 || static_cast<size_t>(comm) >= job.comms.size()) return "(unknown comm)";
  return job.comms[comm].id;
}

uint64_t CommWeight(const Job& job, int comm) {
  if (comm < 0 || static_cast<size_t>(comm) >= job.comms.size()) return 1;
  return 1 + job.comms[comm].repeats;
}

const Setting* FindEnv(const Process& p, std::string_view name) {
  auto it = p.env.find(name);  // Transparent: no string built per lookup.
  return it == p.env.end() ? nullptr : &it->second;
}

const Setting* FindEnvOn(const Process& p, std::string_view name) {
  const Setting* s = FindEnv(p, name);
  return s != nullptr && IsTruthy(s->value) ? s : nullptr;
}

bool AnyEnv(const Job& job, std::string_view name, std::string* value) {
  for (const Process& p : job.processes) {
    if (const Setting* s = FindEnv(p, name)) {
      if (value != nullptr) *value = s->value;
      return true;
    }
  }
  return false;
}

std::string JoinInts(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ",";
    s += std::to_string(v[i]);
  }
  return s;
}

std::string JoinStrings(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += sep;
    s += v[i];
  }
  return s;
}

bool IsTruthy(std::string_view v) {
  return v == "1" || v == "true" || v == "TRUE" || v == "True" || v == "yes" || v == "on";
}
bool IsFalsy(std::string_view v) {
  return v == "0" || v == "false" || v == "FALSE" || v == "False" || v == "no" || v == "off";
}

std::optional<std::array<int, 3>> ParseNcclVersion(const std::string& version) {
  std::array<int, 3> v{};
  if (std::sscanf(version.c_str(), "%d.%d.%d", &v[0], &v[1], &v[2]) != 3) return std::nullopt;
  return v;
}

size_t CountInterNodeLinks(const Job& job) {
  size_t n = 0;
  for (const Link& l : job.links) {
    if (l.intra_node.has_value() && !*l.intra_node) ++n;
  }
  return n;
}

bool IsMultiNode(const Job& job) {
  for (const Communicator& c : job.comms) {
    if (c.nnodes > 1) return true;
  }
  return CountInterNodeLinks(job) > 0;
}

std::optional<bool> NcclSaysMultiNode(const Job& job) {
  std::optional<bool> out;
  auto see = [&](int nnodes) {
    if (nnodes > 1) out = true;
    if (nnodes == 1 && !out) out = false;
  };
  for (const Communicator& c : job.comms) see(c.nnodes);
  for (const Process& p : job.processes) see(p.nccl_nnodes);
  return out;
}

/// A Kubeflow training-operator replica pod's name (PyTorchJob, TFJob, MPIJob):
/// `<job>-master-0`, `<job>-worker-3`.
bool IsTrainingReplicaPod(std::string_view host) {
  for (std::string_view role : {"-master-", "-worker-"}) {
    const size_t at = host.rfind(role);
    if (at == std::string_view::npos || at == 0) continue;
    const std::string_view index = host.substr(at + role.size());
    if (index.empty() || index.size() > 4) continue;
    bool digits = true;
    for (char c : index) digits = digits && c >= '0' && c <= '9';
    if (digits) return true;
  }
  return false;
}

LaunchSpread LauncherSaysMultiNode(const Job& job) {
  LaunchSpread out;
  // A replica pod of a Kubeflow training job: its peers run in other pods, each with its own
  // network namespace (to NCCL, other nodes, wherever the pods are scheduled).
  for (const Process& p : job.processes) {
    if (!IsTrainingReplicaPod(p.hostname)) continue;
    out.reason = "the host " + p.hostname +
                 " is a replica pod of a Kubeflow training job (-master-N/-worker-N): its peers "
                 "run in other pods";
    out.evidence = p.first_line;
    return out;
  }
  const LaunchFacts& l = job.launch;
  if (l.origin_hosts.size() > 1) {
    const size_t shown = std::min<size_t>(l.origin_hosts.size(), 3);
    std::vector<std::string> names(l.origin_hosts.begin(), l.origin_hosts.begin() + shown);
    out.reason = "the launcher's line prefixes name " + std::to_string(l.origin_hosts.size()) +
                 (l.origin_hosts.size() >= LaunchFacts::kMaxOriginHosts ? "+" : "") + " hosts (" +
                 JoinStrings(names, ", ") + (l.origin_hosts.size() > shown ? ", ..." : "") + ")";
    out.evidence = l.origin_host_evidence[1];
  } else if (l.multi_node == MultiNodePrefix::kPdsh) {
    out.reason = "the lines carry pdsh's host prefix, which DeepSpeed and pdsh write only for "
                 "launches on several nodes";
    out.evidence = l.multi_node_evidence;
  } else if (l.multi_node == MultiNodePrefix::kSkyPilotNode) {
    out.reason = "the lines carry SkyPilot's node prefix `(head, rank=0, ...)`, which SkyPilot "
                 "writes only on multi-node clusters";
    out.evidence = l.multi_node_evidence;
  }
  return out;
}

LaunchSpread CommSizeSaysMultiNode(const Job& job) {
  LaunchSpread out;
  const Communicator* largest = nullptr;
  for (const Communicator& c : job.comms) {
    if (c.nranks > kGpusPerLargestNode && (largest == nullptr || c.nranks > largest->nranks))
      largest = &c;
  }
  if (largest == nullptr) return out;
  out.reason = "communicator " + largest->id + " has " + std::to_string(largest->nranks) +
               " ranks, more than the " + std::to_string(kGpusPerLargestNode) +
               " GPUs of a node";
  for (const auto& [r, cr] : largest->ranks) {
    if (!cr.start_evidence.text.empty()) {
      out.evidence = cr.start_evidence;
      break;
    }
  }
  return out;
}

std::optional<bool> NcclSaysRanksShareNode(const Job& job) {
  std::optional<bool> out;
  auto see = [&](int local_ranks) {
    if (local_ranks > 1) out = true;
    if (local_ranks == 1 && !out) out = false;
  };
  for (const Communicator& c : job.comms) see(c.local_ranks);
  for (const Process& p : job.processes) see(p.nccl_local_ranks);
  return out;
}

bool ProcessDrivesSeveralGpus(const Job& job) {
  for (const Process& p : job.processes) {
    if (p.cuda_devs.size() >= 2 || p.head_devs.size() >= 2) return true;
  }
  return false;
}

void AddProcess(const Job& job, int process, Finding* f) {
  if (process < 0 || static_cast<size_t>(process) >= job.processes.size()) return;
  AddRank(f, job.processes[process].global_rank);
  AddHost(f, HostName(job, process));
}

void AddWarnRecord(const Job& job, const WarnRecord& w, Finding* f) {
  for (int p : w.processes) AddProcess(job, p, f);
  for (const Evidence& e : w.evidence) AddEvidence(f, e);
}

uint64_t TotalCount(const std::vector<const WarnRecord*>& records) {
  uint64_t n = 0;
  for (const WarnRecord* w : records) n += std::max<uint64_t>(w->count, 1);
  return n;
}

size_t ProcessCount(const std::vector<const WarnRecord*>& records) {
  std::set<int> p;
  for (const WarnRecord* w : records) p.insert(w->processes.begin(), w->processes.end());
  return p.size();
}

std::string NvlinkWastedNote(const Job& job, bool (*selected)(const Link&)) {
  int n = 0;
  const Link* first = nullptr;
  for (const Link& l : job.links) {
    if (!selected(l) || l.hardware_path != P2pPath::kNvlink) continue;
    if (!first) first = &l;
    ++n;
  }
  if (!first) return "";
  return "; " + std::to_string(n) + " of these links join GPUs that have NVLink (" +
         first->path_evidence + ")";
}

}  // namespace ncclscope::rules_internal
