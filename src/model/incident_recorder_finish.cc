// IncidentRecorder::Finish: once every event is in, resolves ranks and pids between incidents
// and processes, moves processes to their launcher's attempt, back-fills times.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "incident_recorder.h"
#include "instance_lookup.h"

namespace ncclscope {

namespace {

/// The host of a pid that a launcher line names, from the job's NCCL processes (also those
/// whose lines were all noise, which get no ProcessInstance): the one process with that pid;
/// else, when every NCCL process of the input runs on one host, that host (a local launcher's
/// process runs beside them). "" when neither says.
class PidHosts {
 public:
  explicit PidHosts(const Job& job) {
    for (const Process& p : job.processes) {
      if (p.hostname.empty()) continue;
      auto [it, fresh] = by_pid_.try_emplace(p.pid, p.hostname);
      if (!fresh && it->second != p.hostname) it->second.clear();  // two hosts: unknown
      if (single_.empty() && !several_) {
        single_ = p.hostname;
      } else if (p.hostname != single_) {
        several_ = true;
        single_.clear();
      }
    }
  }
  std::string HostOf(int64_t pid) const {
    auto it = by_pid_.find(static_cast<uint32_t>(pid));
    if (it != by_pid_.end()) return it->second;
    return single_;
  }

 private:
  std::unordered_map<uint32_t, std::string> by_pid_;
  std::string single_;
  bool several_ = false;
};

/// A paste of one process: NCCL's lines name its host and pid but not its rank (no init or
/// connection line in it states one), PyTorch's `[rankN]:` lines name a rank but no process.
/// When the job has one attempt and one NCCL process, none of whose lines says a peer went away
/// (then the rank's lines may be the peer's), and every PyTorch line with a launcher prefix names
/// the same rank, the process is that rank; unless that prefix is a launcher's tag that covers
/// several processes (`srun -l torchrun`: the node's task, whose other workers printed no NCCL
/// line).
void LinkLoneProcessToTaggedRank(const Job& job, const PrefixIdentities& identities,
                                 IncidentLog* log) {
  if (log->attempts.size() > 1 || log->instances.size() != 1 || log->instances[0].rank >= 0 ||
      job.launch.torch_ranks.size() != 1) {
    return;
  }
  ProcessInstance& p = log->instances[0];
  if (!identities.TagIsRank(p.first.source, job.launch.torch_ranks.front())) return;
  for (const Incident& i : log->incidents) {
    if (i.cascade && i.pid == static_cast<int64_t>(p.pid) && i.host == p.host) return;
  }
  p.rank = job.launch.torch_ranks.front();
}

}  // namespace

void IncidentRecorder::MoveToTheLaunchersAttempt(IncidentLog* log) const {
  // Attempt of each worker pid the launcher's own lines name (its signals, its exit reports);
  // -1 when they name it in several attempts (a pid reused by a restarted container).
  std::map<int64_t, int> named;
  for (const Incident& i : log->incidents) {
    const bool launcher =
        i.kind == IncidentKind::kSignalSent ||
        (i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kTorchrun && !i.from_table);
    if (!launcher || i.pid <= 0) continue;
    auto [it, fresh] = named.try_emplace(i.pid, i.attempt);
    if (!fresh && it->second != i.attempt) it->second = -1;
  }
  if (named.empty()) return;
  std::map<uint32_t, int> instances_in;
  for (const ProcessInstance& p : log->instances) ++instances_in[p.first.source];
  for (ProcessInstance& p : log->instances) {
    const auto it = named.find(p.pid);
    const uint32_t source = p.first.source;
    // Only an input that counted no restart of its own: its attempt is the launcher's word.
    if (it == named.end() || it->second <= p.attempt ||
        (source < sources_.size() && sources_[source].attempt != 0)) {
      continue;
    }
    const int from = p.attempt;
    p.attempt = it->second;
    const bool alone = instances_in[source] == 1;
    for (Incident& i : log->incidents) {
      if (i.attempt != from || i.evidence.source != source) continue;
      if ((i.pid == static_cast<int64_t>(p.pid) && (i.host.empty() || i.host == p.host)) ||
          (i.pid <= 0 && alone)) {
        i.attempt = p.attempt;
      }
    }
  }
}

void IncidentRecorder::Finish(Job* job) const {
  IncidentLog& log = job->incidents;
  // Year-less stamps (glog, c10, syslog) take the year of a dated stamp of the same input, else
  // of the job's first dated stamp (the inputs of one job are assumed to be of one year; the
  // time keys ignore the year anyway, this only completes the display).
  std::map<uint32_t, int> year_of;
  int job_year = 0;
  for (const Incident& i : log.incidents) {
    if (i.stamp && i.stamp->year > 0) {
      year_of.emplace(i.evidence.source, i.stamp->year);
      if (job_year == 0) job_year = i.stamp->year;
    }
  }
  for (Incident& i : log.incidents) {
    if (!i.stamp) continue;
    LogTime t = *i.stamp;
    auto y = year_of.find(i.evidence.source);
    if (t.year == 0) t.year = y != year_of.end() ? y->second : job_year;
    i.time_text = t.Format();
  }
  // A launcher's tag that turned out to cover several processes (`srun -l torchrun`: the
  // node's task) names no rank: lines that had only it for a rank have none.
  for (Incident& i : log.incidents) {
    if (i.rank_from_tag && i.rank >= 0 && !identities_.TagIsRank(i.evidence.source, i.rank)) {
      i.rank = -1;
      i.rank_from_tag = false;
    }
  }
  log.attempts = attempts_;
  if (log.attempts.empty() && !log.incidents.empty()) log.attempts.push_back(AttemptInfo{});
  MoveToTheLaunchersAttempt(&log);
  // A process whose init lines are not in the input (an excerpt) but whose connection lines
  // are: those lines state its rank (in the one communicator they show).
  for (ProcessInstance& p : log.instances) {
    if (p.rank >= 0) continue;
    auto it = connection_rank_.find(InstanceKey{p.host, p.pid});
    if (it != connection_rank_.end() && !it->second.conflict) p.rank = it->second.rank;
  }
  // Else a bare version banner amid the process's own lines: NCCL prints it from rank 0 only.
  for (size_t k = 0; k < log.instances.size(); ++k) {
    ProcessInstance& p = log.instances[k];
    if (p.rank < 0 && banner_rank_.RankZero(static_cast<int>(k))) p.rank = 0;
  }
  LinkLoneProcessToTaggedRank(*job, identities_, &log);
  const PidHosts pid_hosts(*job);
  const InstanceLookup instances(log.instances);
  // Inputs that also hold NCCL lines of a process whose lines were all noise (no instance):
  // "the one NCCL process of the input" below is not known to be the only one there.
  std::set<uint32_t> sources_with_silent_process;
  {
    std::set<std::pair<std::string_view, uint32_t>> with_instance;
    for (const ProcessInstance& p : log.instances) with_instance.emplace(p.host, p.pid);
    for (const Process& p : job->processes) {
      if (p.headless || with_instance.count({p.hostname, p.pid}) > 0) continue;
      sources_with_silent_process.insert(p.sources.begin(), p.sources.end());
    }
  }
  // Ranks of processes from their pids (launcher lines name the pid), pids from ranks.
  for (Incident& i : log.incidents) {
    const ProcessInstance* by_pid = nullptr;
    // A line with a host is that host's process; torchrun's exit lines name the agent's host
    // (its own), not always the worker's as NCCL prints it.
    const bool torchrun_exit =
        i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kTorchrun;
    if (i.pid > 0) {
      for (int k : instances.WithPid(i.attempt, i.pid)) {
        if (i.host.empty() || i.host == instances[k].host || torchrun_exit) by_pid = &instances[k];
      }
    }
    const ProcessInstance* by_rank = instances.LastWithRank(i.attempt, i.rank);
    if (by_pid != nullptr) {
      if (i.rank < 0) i.rank = by_pid->rank;
      if (i.kind != IncidentKind::kExit || i.reporter != ExitReporter::kMpirun) {
        i.host = by_pid->host;
      }
    } else if (by_rank != nullptr && i.pid <= 0) {
      i.pid = by_rank->pid;
      if (i.host.empty()) i.host = by_rank->host;
    }
    const bool own_failure = i.kind == IncidentKind::kException ||
                             i.kind == IncidentKind::kNcclError ||
                             i.kind == IncidentKind::kCppTerminate;
    if (((i.kind == IncidentKind::kExit && i.reporter == ExitReporter::kKubernetes) ||
         (own_failure && i.host.empty())) &&
        i.rank < 0 && i.pid <= 0) {
      // A traceback or raised error that names no process, in an input (or pod) whose NCCL lines
      // come from one process in this attempt (one log per pod or process): that process's.
      // `kubectl describe` lines name no process: they follow the pod's own log under its
      // `kubectl logs --prefix` tag (one source per container). A container that ran one NCCL
      // process in this attempt is that process; with several the pod is all that is known.
      const ProcessInstance* only = instances.OnlyInSource(i.attempt, i.evidence.source);
      if (only != nullptr && sources_with_silent_process.count(i.evidence.source) == 0) {
        i.rank = only->rank;
        i.pid = only->pid;
        i.host = only->host;
      }
    }
    if (i.rank < 0 && i.local_rank >= 0) {
      // One node (every process on one host), or no NCCL process in the input to say
      // otherwise: the local rank stands for the global rank.
      if (instances.OneHost()) i.rank = i.local_rank;
    }
  }
  // A pid that a launcher line ties to a rank ("local_rank: 1 (pid: 5002)") names that rank in
  // the lines that give only the pid (the kernel's "Killed process 5002", UCX's handler), when
  // the pid stands for one rank only and the hosts do not contradict it.
  struct PidRank {
    int rank = -1;
    bool unique = true;
    std::set<std::string> hosts;  ///< Of the incidents with this pid and rank.
  };
  std::map<int64_t, PidRank> rank_of_pid;
  for (const Incident& i : log.incidents) {
    if (i.pid <= 0 || i.rank < 0) continue;
    auto [it, fresh] = rank_of_pid.try_emplace(i.pid, PidRank{i.rank, true, {}});
    if (it->second.rank != i.rank) {
      it->second.unique = false;  // its hosts are not read then
    } else if (!i.host.empty()) {
      it->second.hosts.insert(i.host);
    }
  }
  for (Incident& i : log.incidents) {
    if (i.rank >= 0 || i.pid <= 0) continue;
    auto it = rank_of_pid.find(i.pid);
    if (it == rank_of_pid.end() || !it->second.unique) continue;
    // Not when a line of that pid and rank names another host.
    std::set<std::string>& hosts = it->second.hosts;
    const bool same_host =
        i.host.empty() || hosts.empty() || (hosts.size() == 1 && *hosts.begin() == i.host);
    if (!same_host) continue;
    i.rank = it->second.rank;
    if (!i.host.empty()) hosts.insert(i.host);  // later lines of the pid see this one
  }
  // Hosts of the pids launcher lines name, once ranks are settled (PidHosts).
  for (Incident& i : log.incidents) {
    if (i.host.empty() && i.pid > 0) i.host = pid_hosts.HostOf(i.pid);
  }
  // Times: lines before the first timestamp of their input take the next one's (walking back,
  // the time of the input's next incident, once that one has taken its own next one's).
  std::unordered_map<uint32_t, std::optional<int64_t>> next_time;  // source → its next's time
  for (size_t k = log.incidents.size(); k-- > 0;) {
    Incident& i = log.incidents[k];
    auto [it, fresh] = next_time.try_emplace(i.evidence.source, i.time);
    if (!i.time && !fresh && it->second) {
      i.time = it->second;
      i.time_inherited = true;
    }
    it->second = i.time;
  }
}

}  // namespace ncclscope
