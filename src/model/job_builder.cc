// JobBuilder::Add: per-event bookkeeping of processes, environment, networks, warnings and
// framework lines. Communicators and links are in comm_tracker.cc; Finish in job_finish.cc.
#include "ncclscope/model/job_builder.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cassert>
#include <cctype>
#include <functional>
#include <string_view>
#include <type_traits>

#include "builder_state.h"
#include "ncclscope/base/byte_words.h"

namespace ncclscope {

namespace {

bool SameProcess(const Process& p, const EventContext& ctx) {
  return p.pid == ctx.pid && p.hostname.size() == ctx.host.size() &&
         byte_words::EqualBytes(p.hostname.data(), ctx.host.data(), ctx.host.size());
}

/// A hash of (host, pid) from the pid and the host's last bytes (where "node-17", "trainer-3" and
/// pod names differ). Containers often give every rank the same pid, so the pid alone is no key.
uint64_t ProcessKey(std::string_view host, uint32_t pid) {
  uint64_t tail = host.size();
  const size_t n = host.size();
  if (n >= 8) {
    tail ^= byte_words::Load8(host.data() + n - 8);
    if (n > 8) tail ^= byte_words::Load8(host.data()) * 0xff51afd7ed558ccdull;
    if (n > 16) tail += std::hash<std::string_view>{}(host);
  } else if (n >= 4) {
    tail ^= uint64_t{byte_words::Load4(host.data() + n - 4)} << 32 | byte_words::Load4(host.data());
  } else {
    for (size_t i = 0; i < n; ++i) tail = tail << 8 | static_cast<uint8_t>(host[i]);
  }
  uint64_t h = (tail ^ (uint64_t{pid} << 32 | pid)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

}  // namespace

int FindOrAddProcess(Job* job, JobBuilder::State* st, const EventContext& ctx) {
  const uint64_t key = ProcessKey(ctx.host, ctx.pid);
  int& cached = st->proc_cache[key >> (64 - JobBuilder::State::kProcCacheBits)];
  if (cached >= 0 && SameProcess(job->processes[cached], ctx)) return cached;
  auto& bucket = st->proc_by_key[key];
  for (int idx : bucket) {
    if (SameProcess(job->processes[idx], ctx)) return cached = idx;
  }
  if (ctx.pid == 0) {
    // A line that names only its host (nccl-tests' "HOST: Test NCCL failure ..."): the process
    // of that host when there is exactly one.
    int only = -1;
    for (size_t i = 0; i < job->processes.size(); ++i) {
      if (job->processes[i].hostname != ctx.host) continue;
      if (only >= 0) {
        only = -1;
        break;
      }
      only = static_cast<int>(i);
    }
    if (only >= 0) return only;
  }
  int idx = static_cast<int>(job->processes.size());
  Process p;
  p.hostname = std::string(ctx.host);
  p.node = p.hostname;
  p.pid = ctx.pid;
  p.first_line = st->quotes.Quote(ctx);
  job->processes.push_back(std::move(p));
  st->procs.emplace_back();
  bucket.push_back(idx);
  return cached = idx;
}

int FindOrAddHeadlessProcess(Job* job, JobBuilder::State* st, const EventContext& ctx) {
  static const LineMeta kNoMeta;
  const LineMeta& m = ctx.meta != nullptr ? *ctx.meta : kNoMeta;
  // Never two processes merged because their heads are absent: every identity the prefixes give
  // is part of the key, and so is the device (one process per GPU is the rule).
  std::string key = std::to_string(ctx.source);
  for (std::string_view part : {m.origin_host, m.pod, m.service}) {
    key += '\x1f';
    key += part;
  }
  key += '\x1f' + std::to_string(m.origin_pid) + '\x1f' + std::to_string(m.launcher_rank) +
         '\x1f' + std::to_string(ctx.dev);
  auto [it, inserted] = st->headless_procs.try_emplace(std::move(key), -1);
  if (!inserted) return it->second;
  Process p;
  std::string_view host = m.origin_host;
  if (host.empty()) host = m.pod.substr(0, m.pod.find('/'));
  if (host.empty()) host = m.service;
  p.hostname = host.empty() ? "?" + std::string(job->SourceName(ctx.source)) : std::string(host);
  p.node = p.hostname;
  p.pid = m.origin_pid;
  p.headless = true;
  p.first_line = st->quotes.Quote(ctx);
  job->processes.push_back(std::move(p));
  st->procs.emplace_back();
  return it->second = static_cast<int>(job->processes.size() - 1);
}

namespace {

/// Digits and hex runs → '#', so repeated warnings with different numbers share one record.
std::string NormalizeForDedup(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isdigit(c)) {
      if (out.empty() || out.back() != '#') out.push_back('#');
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string_view StripPort(std::string_view addr) {
  size_t lt = addr.find('<');
  if (lt != std::string_view::npos) addr = addr.substr(0, lt);
  return addr;
}

/// Adds one line to a deduplicated record list (warnings or notices), keyed by category,
/// location and the message with its numbers blanked out.
void AddRecord(std::vector<WarnRecord>* records, std::unordered_map<std::string, int>* index,
               LineQuotes* quotes, int proc, const EventContext& ctx, const Warning& w) {
  std::string key = std::to_string(static_cast<int>(w.category)) + "|" + std::string(ctx.location) +
                    "|" + NormalizeForDedup(w.message);
  auto it = index->find(key);
  int idx;
  if (it == index->end()) {
    if (records->size() >= kMaxWarnRecords) {
      key = "overflow";
      it = index->find(key);
    }
  }
  if (it == index->end()) {
    idx = static_cast<int>(records->size());
    WarnRecord r;
    r.category = key == "overflow" ? WarnCategory::kOther : w.category;
    r.message = key == "overflow" ? "(further distinct warnings not kept)" : std::string(w.message);
    r.location = std::string(ctx.location);
    r.first_timestamp = quotes->TimedQuote(ctx).time.str();
    records->push_back(std::move(r));
    index->emplace(std::move(key), idx);
  } else {
    idx = it->second;
  }
  WarnRecord& r = (*records)[idx];
  ++r.count;
  if (proc >= 0) r.processes.insert(proc);
  if (r.evidence.size() < kMaxEvidencePerRecord) r.evidence.push_back(quotes->TimedQuote(ctx));
}

void AddWarning(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                const Warning& w) {
  AddRecord(&job->warnings, &st->warn_index, &st->quotes, proc, ctx, w);
}

void AddNotice(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx) {
  AddRecord(&job->notices, &st->notice_index, &st->quotes, proc, ctx,
            Warning{WarnCategory::kOther, ctx.body});
}

int TorchRank(const EventContext& ctx, int event_rank) {
  if (event_rank >= 0) return event_rank;
  if (ctx.torch_rank >= 0) return ctx.torch_rank;
  if (ctx.meta && ctx.meta->launcher_rank >= 0) return ctx.meta->launcher_rank;
  return -1;
}

TorchRankState& TorchState(Job* job, JobBuilder::State* st, int pg_id, int rank) {
  auto key = std::make_pair(pg_id, rank);
  auto it = st->torch_index.find(key);
  if (it != st->torch_index.end()) return job->torch_ranks[it->second];
  st->torch_index.emplace(key, static_cast<int>(job->torch_ranks.size()));
  TorchRankState s;
  s.rank = rank;
  s.pg_id = pg_id;
  job->torch_ranks.push_back(std::move(s));
  return job->torch_ranks.back();
}

/// Process whose world rank is `rank` (framework lines carry no host:pid): the first one.
int ProcessOfGlobalRank(const JobBuilder::State& st, int rank) {
  if (rank < 0) return -1;
  auto it = st.proc_of_global_rank.find(rank);
  return it == st.proc_of_global_rank.end() ? -1 : it->second;
}

void AddFramework(Job* job, JobBuilder::State* st, const EventContext& ctx, FrameworkRecord rec) {
  int proc = ProcessOfGlobalRank(*st, rec.rank);
  if (proc >= 0) job->processes[proc].last_framework_line = st->quotes.Quote(ctx);
  if (job->framework.size() >= kMaxFrameworkRecords) return;
  rec.evidence = st->quotes.TimedQuote(ctx);
  rec.timestamp = rec.evidence.time.str();
  job->framework.push_back(std::move(rec));
}

/// A default-constructed event of alternative `i` (to name it through EventTypeName).
EventData EventOfIndex(size_t i) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    EventData d;
    ((i == I ? (d.emplace<I>(), 0) : 0), ...);
    return d;
  }
  (std::make_index_sequence<std::variant_size_v<EventData>>{});
}

struct Folder {
  Job* job;
  JobBuilder::State* st;
  const EventContext& ctx;
  int proc;  // -1 for framework lines

  Process* P() { return proc >= 0 ? &job->processes[proc] : nullptr; }

  void operator()(const NcclVersion& e) {
    job->nccl_versions.insert(std::string(e.version));
    if (proc >= 0) OnProcessStart(job, st, proc);
    if (Process* p = P()) {
      p->nccl_version = std::string(e.version);
      p->cuda_version = std::string(e.cuda);
    }
  }
  void operator()(const CudaDriverVersion& e) {
    if (Process* p = P()) p->cuda_driver = e.version;
  }
  void operator()(const EnvSetting& e) {
    Process* p = P();
    if (!p && e.command_line && st->command_env.size() < 256) {
      st->command_env.push_back(JobBuilder::State::CommandSetting{
          ctx.source, std::string(e.name),
          Setting{std::string(e.value), true, st->quotes.Quote(ctx)}});
    }
    if (!p) return;
    if (e.name == "NCCL_HOSTID") {
      p->host_id = std::string(e.value);
      p->node = p->host_id;
    }
    auto [it, inserted] = p->env.try_emplace(std::string(e.name));
    if (inserted) {
      it->second.value = std::string(e.value);
      it->second.by_environment = e.by_environment;
      it->second.evidence = st->quotes.Quote(ctx);
    }
  }
  void operator()(const CommConfig& e) {
    if (Process* p = P()) p->comm_config[std::string(e.name)] = std::string(e.value);
  }
  void operator()(const BootstrapInterface& e) {
    Process* p = P();
    if (!p || e.interfaces.empty() || !p->bootstrap_if.empty()) return;
    p->bootstrap_if = std::string(e.interfaces.front().name);
    p->bootstrap_addr = std::string(StripPort(e.interfaces.front().address));
    p->bootstrap_evidence = st->quotes.Quote(ctx);
  }
  void operator()(const BootstrapTimings& e) {
    Process* p = P();
    if (!p) return;
    // Keep the slowest bootstrap of the process: that is the one worth reporting.
    if (!p->bootstrap_timings || e.total > p->bootstrap_timings->total) {
      p->bootstrap_timings = e;
      p->bootstrap_timings_evidence = st->quotes.Quote(ctx);
    }
  }
  void operator()(const InitTimings& e) {
    if (proc >= 0) OnInitTimings(job, st, proc, e);
  }
  void operator()(const PluginEvent& e) {
    // A WARN the parser typed as a plugin event is still a warning: keep it with the others so
    // the timeline and nccl-warn see every WARN line.
    if (ctx.level == Level::kWarn) AddWarning(job, st, proc, ctx, Warning{WarnCategory::kPlugin, ctx.body});
    Process* p = P();
    if (!p) return;
    for (const auto& n : p->plugins) {
      if (n.action == e.action && n.kind == e.kind && n.name == e.name) return;
    }
    p->plugins.push_back(
        PluginNote{std::string(e.kind), e.action, std::string(e.name), st->quotes.Quote(ctx)});
  }
  void operator()(const UsingNetwork& e) {
    Process* p = P();
    if (!p) return;
    p->network = std::string(e.name);
    p->network_evidence = st->quotes.Quote(ctx);
  }
  void operator()(const IbDevices& e) {
    Process* p = P();
    if (!p) return;
    if (e.none_found) {
      if (!p->ib_no_device) p->ib_no_device_evidence = st->quotes.Quote(ctx);
      p->ib_no_device = true;
      return;
    }
    if (!p->ib_devices.empty()) return;
    if (p->ib_oob_if.empty() && !e.oob.empty()) {
      p->ib_oob_if = std::string(e.oob.substr(0, e.oob.find(':')));
    }
    for (const auto& d : e.devices) {
      std::string s(d.name);
      if (!d.address.empty()) s += ":" + std::string(d.address);
      if (!d.link_layer.empty()) s += "/" + std::string(d.link_layer);
      p->ib_devices.push_back(std::move(s));
    }
  }
  void operator()(const SocketDevices& e) {
    Process* p = P();
    if (!p) return;
    if (p->socket_devices_evidence.text.empty()) p->socket_devices_evidence = st->quotes.Quote(ctx);
    // NCCL repeats the list per communicator; before 2.5 it printed one line per interface.
    for (const auto& d : e.devices) {
      std::string dev = std::string(d.name) + ":" + std::string(d.address);
      if (p->socket_devices.size() < 16 &&
          std::find(p->socket_devices.begin(), p->socket_devices.end(), dev) ==
              p->socket_devices.end()) {
        p->socket_devices.push_back(std::move(dev));
      }
    }
  }
  void operator()(const GdrStatus& e) {
    Process* p = P();
    // TCP sockets never do GPUDirect RDMA: NCCL's "NET/Socket : GPU Direct RDMA Disabled" says
    // nothing about the RDMA network.
    if (!p || e.net == "Socket") return;
    if (p->gdr_enabled_nics + p->gdr_disabled_nics == 0) p->gdr_evidence = st->quotes.Quote(ctx);
    (e.enabled ? p->gdr_enabled_nics : p->gdr_disabled_nics)++;
  }
  void operator()(const OfiEvent& e) {
    if (ctx.level == Level::kWarn) AddWarning(job, st, proc, ctx, Warning{WarnCategory::kOfi, ctx.body});
    Process* p = P();
    if (!p) return;
    if (e.kind == OfiKind::kOther && p->ofi.size() >= 32) return;
    p->ofi.push_back(OfiNote{e.kind, std::string(e.value), std::string(e.fabric), e.nics,
                             st->quotes.Quote(ctx)});
  }
  void operator()(const CommInit& e) {
    if (proc >= 0) OnCommInit(job, st, proc, ctx, e);
  }
  void operator()(const CommEnd& e) {
    if (proc >= 0) OnCommEnd(job, st, proc, e);
  }
  void operator()(const CommTopology& e) {
    if (Process* p = P()) {
      p->nccl_nnodes = std::max(p->nccl_nnodes, e.nnodes);
      p->nccl_local_ranks = std::max(p->nccl_local_ranks, e.local_ranks);
    }
    if (proc >= 0) OnCommTopology(job, st, proc, e);
  }
  void operator()(const RingOrder& e) {
    if (proc >= 0) OnRingOrder(job, st, proc, e);
  }
  void operator()(const TreeTopology&) {}
  void operator()(const GraphRing&) {}
  void operator()(const ChannelCounts& e) {
    if (proc >= 0) OnChannelCounts(job, st, proc, e);
  }
  void operator()(const ConnectedAll&) {}
  void operator()(const Connection& e) {
    ++job->stats.connection_lines;
    if (proc >= 0) OnConnection(job, st, proc, ctx, e);
  }
  void operator()(const GraphPattern& e) {
    if (proc >= 0) OnGraphPattern(job, st, proc, e);
  }
  void operator()(const GraphPaths& e) {
    Process* p = P();
    if (!p || !e.from.starts_with("GPU/")) return;
    auto bus = [](std::string_view node) {
      size_t dash = node.rfind('-');
      size_t slash = node.find('/');
      return std::string(node.substr(dash != std::string_view::npos ? dash + 1 : slash + 1));
    };
    auto& paths = st->graph_paths[p->hostname];
    std::string from = bus(e.from);
    for (const auto& hop : e.to) {
      if (!hop.node.starts_with("GPU/")) continue;
      std::string to = bus(hop.node);
      if (to == from) continue;
      auto key = std::minmax(from, to);
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%d/%.1f/", hop.count, hop.bw);
      paths[{key.first, key.second}] = std::string(buf) + std::string(hop.type);
    }
  }
  void operator()(const P2pDisabled&) { AddNotice(job, st, proc, ctx); }
  void operator()(const Notice&) { AddNotice(job, st, proc, ctx); }
  void operator()(const ProxyPeerClosed&) {}  // The incident recorder keeps it.
  void operator()(const Collective& e) {
    if (proc >= 0) OnCollective(job, st, proc, ctx, e);
  }
  void operator()(const CollAlgo& e) {
    Process* p = P();
    if (!p || e.op.empty()) return;
    std::string key(e.op);
    key += ' ';
    key += e.algo;
    key += '/';
    key += e.proto;
    if (!p->coll_algos.contains(key)) p->coll_algos.insert(std::move(key));
  }
  void operator()(const Warning& e) { AddWarning(job, st, proc, ctx, e); }
  void operator()(const ErrorTrail& e) {
    if (proc < 0) return;
    size_t& n = st->trails_per_process[proc];
    if (n >= kMaxTrailsPerProcess) return;
    ++n;
    job->error_trails.push_back(
        ErrorTrailRecord{proc, std::string(e.location), e.code, st->quotes.TimedQuote(ctx)});
  }
  void operator()(const WatchdogTimeout& e) {
    int rank = TorchRank(ctx, e.rank);
    TorchRankState& s = TorchState(job, st, -1, rank);
    s.timed_out = true;
    s.timeout_seq = e.seq;
    s.op_type = std::string(e.op_type);
    s.timeout_ms = e.timeout_ms;
    s.ran_ms = e.ran_ms;
    s.numel = e.numel_in;
    if (s.evidence.size() < kMaxEvidencePerRecord) s.evidence.push_back(st->quotes.TimedQuote(ctx));
    int p = ProcessOfGlobalRank(*st, rank);
    if (p >= 0) job->processes[p].last_framework_line = st->quotes.Quote(ctx);
  }
  void operator()(const WorkProgress& e) {
    int rank = TorchRank(ctx, e.rank);
    TorchRankState& s = TorchState(job, st, e.pg_id, rank);
    if (!e.pg_desc.empty()) s.pg_desc = std::string(e.pg_desc);
    if (e.last_enqueued >= 0) s.last_enqueued = e.last_enqueued;
    if (e.last_completed >= 0) s.last_completed = e.last_completed;
    if (e.failed_seq >= 0) s.timeout_seq = e.failed_seq;
    // PyTorch 2.5+'s "Timeout at NCCL work: N": a timeout of this rank, unless its "Watchdog
    // caught ..." line (printed first) already said so in another group's record.
    if (e.timeout && !s.timed_out) {
      bool known = false;
      for (const TorchRankState& o : job->torch_ranks) {
        known = known || (o.rank == rank && o.timed_out);
      }
      s.timed_out = !known;
    }
    if (s.evidence.size() < kMaxEvidencePerRecord) s.evidence.push_back(st->quotes.TimedQuote(ctx));
    int p = ProcessOfGlobalRank(*st, rank);
    if (p >= 0) job->processes[p].last_framework_line = st->quotes.Quote(ctx);
  }
  void operator()(const FrameworkNcclError& e) {
    FrameworkRecord r;
    r.kind = FrameworkRecord::Kind::kNcclError;
    r.rank = TorchRank(ctx, -1);
    r.where = std::string(e.where);
    r.reason = std::string(e.reason);
    r.nccl_version = std::string(e.nccl_version);
    r.exception = std::string(e.exception);
    AddFramework(job, st, ctx, std::move(r));
  }
  void operator()(const FrameworkEvent& e) {
    FrameworkRecord r;
    r.kind = FrameworkRecord::Kind::kEvent;
    r.event = e.kind;
    r.rank = TorchRank(ctx, e.rank);
    r.detail = std::string(e.detail);
    AddFramework(job, st, ctx, std::move(r));
  }
  // Read by the incident recorder only (JobBuilder::Add).
  void operator()(const ProcessExit&) {}
  void operator()(const LauncherEvent&) {}
  void operator()(const Traceback& t) {
    // An uncaught C++ exception's text that names NCCL (an application's own NCCL check): the
    // rules read its words like those of an NCCL error's detail line.
    // Also PyTorch's failure to fetch the NCCL unique id from rank 0's store ("[14] is setting
    // up NCCL communicator and retrieving ncclUniqueId from [0] ..., but store->get('0') got
    // error: Connection reset by peer").
    const bool unique_id = t.kind == TracebackKind::kException &&
                           t.message.find("retrieving ncclUniqueId") != std::string_view::npos;
    if (t.kind != TracebackKind::kCppWhat && !unique_id) return;
    FrameworkRecord r;
    r.kind = FrameworkRecord::Kind::kEvent;
    r.event = FrameworkKind::kNcclErrorDetail;
    r.rank = TorchRank(ctx, -1);
    r.detail = std::string(t.message);
    AddFramework(job, st, ctx, std::move(r));
  }
  void operator()(const KnownNoise&) {}
  void operator()(const Unrecognized& e) {
    if (e.mention) {
      ++job->stats.unrecognized_mentions;
      ++job->sources[ctx.source].unrecognized_mentions;
    } else {
      ++job->stats.unrecognized;
      ++job->sources[ctx.source].unrecognized;
    }
    if (job->unrecognized_samples.size() < kMaxUnrecognizedSamples)
      job->unrecognized_samples.push_back(st->quotes.Quote(ctx));
  }
};

}  // namespace

JobBuilder::JobBuilder(Job* job, BuilderTuning tuning)
    : job_(job), state_(std::make_unique<State>()) {
  state_->memberships.set_count_from(tuning.count_from);
  state_->folding.from = tuning.fold_from;
  state_->remember_pointers = tuning.remember_pointers;
}
JobBuilder::~JobBuilder() = default;

uint32_t JobBuilder::AddSource(std::string name, std::string pod) {
  SourceInfo s;
  s.name = std::move(name);
  s.pod = std::move(pod);
  job_->sources.push_back(std::move(s));
  return static_cast<uint32_t>(job_->sources.size() - 1);
}

namespace {

/// What the line's prefixes say about the job's nodes (Job::launch).
void NoteLaunch(Job* job, JobBuilder::State* st, const LineMeta& meta, const EventContext& ctx) {
  LaunchFacts& launch = job->launch;
  if (ctx.level == Level::kTorch && meta.launcher_rank >= 0 &&
      launch.torch_ranks.size() <= LaunchFacts::kMaxTorchRanks &&
      std::find(launch.torch_ranks.begin(), launch.torch_ranks.end(), meta.launcher_rank) ==
          launch.torch_ranks.end()) {
    launch.torch_ranks.push_back(meta.launcher_rank);
  }
  if (meta.multi_node != MultiNodePrefix::kNone && launch.multi_node == MultiNodePrefix::kNone) {
    launch.multi_node = meta.multi_node;
    launch.multi_node_evidence = st->quotes.Quote(ctx);
  }
  if (meta.origin_host.empty() || meta.origin_host == st->last_origin_host) return;
  st->last_origin_host.assign(meta.origin_host);
  if (launch.origin_hosts.size() >= LaunchFacts::kMaxOriginHosts) return;
  for (const std::string& h : launch.origin_hosts) {
    if (h == meta.origin_host) return;
  }
  launch.origin_hosts.emplace_back(meta.origin_host);
  launch.origin_host_evidence.push_back(st->quotes.Quote(ctx));
}

/// FindOrAddProcess, first through the (source, prefix id) cache.
int ProcessOf(Job* job, JobBuilder::State* st, const EventContext& ctx) {
  if (ctx.prefix_id == 0) return FindOrAddProcess(job, st, ctx);
  JobBuilder::State::PrefixProcess& e =
      st->prefix_process[(ctx.prefix_id * 2654435761u ^ ctx.source) %
                         JobBuilder::State::kPrefixProcessSize];
  if (e.prefix_id == ctx.prefix_id && e.source == ctx.source && e.pid == ctx.pid) return e.proc;
  const int proc = FindOrAddProcess(job, st, ctx);
  e = JobBuilder::State::PrefixProcess{ctx.source, ctx.prefix_id, ctx.pid, proc};
  return proc;
}

/// last_text holds the process's last COLL line and is about to be replaced: keep a copy while
/// the process is behind another rank of that communicator, else free it (ProcState).
void KeepCollText(const JobBuilder::State& st, ProcState* ps) {
  ps->coll_in_last_text = false;
  const ProcComm* m = ps->last_coll_membership >= 0
                          ? &ps->comms[static_cast<size_t>(ps->last_coll_membership)]
                          : nullptr;
  const size_t comm = m != nullptr && m->comm >= 0 ? static_cast<size_t>(m->comm) : SIZE_MAX;
  if (comm < st.top_op_count.size() && m->op_count < st.top_op_count[comm]) {
    if (!ps->last_coll_text || ps->last_coll_text.use_count() > 1) {
      ps->last_coll_text = std::make_shared<std::string>();
    }
    ps->last_coll_text->assign(ps->last_text.view());
  } else {
    ps->last_coll_text.reset();
  }
}

}  // namespace

void JobBuilder::Add(const Event& event) {
  assert(state_ != nullptr && "JobBuilder::Add after Finish");
  const EventContext& ctx = event.ctx;
  ++job_->stats.events;
  ++state_->events_by_index[event.data.index()];
  if (ctx.source < job_->sources.size()) ++job_->sources[ctx.source].events;
  int proc = -1;
  if (!ctx.host.empty()) {
    proc = ProcessOf(job_, state_.get(), ctx);
  } else if (ctx.headless) {
    proc = FindOrAddHeadlessProcess(job_, state_.get(), ctx);
  }
  if (proc >= 0) {
    Process& p = job_->processes[proc];
    // The set insert (a tree search) only when the source changes.
    ProcState& ps = state_->procs[proc];
    if (!ps.has_line || ps.last_source != ctx.source) p.sources.insert(ctx.source);
    ps.has_line = true;
    ps.last_source = ctx.source;
    ps.last_line = ctx.line;
    if (ps.coll_in_last_text && !std::holds_alternative<Collective>(event.data)) {
      KeepCollText(*state_, &ps);
    }
    if (!ctx.text_kept) {
      ps.last_text.Set(ctx.text);
    } else if (ps.last_text.View(ctx.text)) {
      state_->viewed_texts.push_back(proc);
    }
    if (ctx.dev >= 0 && ctx.dev != ps.last_head_dev) {
      ps.last_head_dev = ctx.dev;
      p.head_devs.insert(ctx.dev);
    }
    if (ctx.dev >= 0 && std::holds_alternative<CommInit>(event.data))
      p.cuda_devs.insert(std::get<CommInit>(event.data).cuda_dev);
  }
  if (ctx.meta != nullptr) NoteLaunch(job_, state_.get(), *ctx.meta, ctx);
  std::visit(Folder{job_, state_.get(), ctx, proc}, event.data);
  state_->incidents.Add(event, job_, proc, &state_->quotes);
}

bool JobBuilder::AddFoldedEvents(uint32_t source, std::string_view type, uint64_t count) {
  for (size_t i = 0; i < state_->events_by_index.size(); ++i) {
    if (EventTypeName(EventOfIndex(i)) != type) continue;
    job_->stats.events += count;
    state_->events_by_index[i] += count;
    if (source < job_->sources.size()) job_->sources[source].events += count;
    return true;
  }
  return false;
}

namespace {

/// Each rank's last collective per communicator (ProcComm) into the job (CommRank's index into
/// Job::last_collectives), on the communicators whose ranks did not all get as far (the triage
/// of a hang reads them; a job of thousands of ranks that all did keeps nothing). A rank's line
/// is known, and quoted, when it is its process's last COLL line and the rank is behind the
/// others or the first that is not.
void NoteLastCollectives(Job* job, const JobBuilder::State& state) {
  struct Range {
    uint32_t low = UINT32_MAX, high = 0;
    bool quoted_ahead = false;
  };
  std::vector<Range> ranges(job->comms.size());
  auto each = [&](auto&& fn) {
    for (size_t i = 0; i < state.procs.size() && i < job->processes.size(); ++i) {
      const ProcState& ps = state.procs[i];
      if (!ps.has_coll) continue;
      for (size_t k = 0; k < ps.comms.size(); ++k) {
        const ProcComm& m = ps.comms[k];
        if (m.coll_seen && m.comm >= 0 && static_cast<size_t>(m.comm) < ranges.size()) {
          fn(static_cast<int>(i), ps, m);
        }
      }
    }
  };
  each([&](int, const ProcState&, const ProcComm& m) {
    Range& r = ranges[m.comm];
    r.low = std::min(r.low, m.op_count);
    r.high = std::max(r.high, m.op_count);
  });
  each([&](int proc, const ProcState& ps, const ProcComm& m) {
    Range& r = ranges[m.comm];
    if (r.low == r.high) return;
    Communicator& c = job->comms[m.comm];
    auto it = c.ranks.find(m.rank);
    if (it == c.ranks.end() || it->second.process != proc) return;
    LastCollective last;
    last.op_count = m.op_count;
    last.p2p = m.p2p;
    if (ps.last_coll_membership == m.index) {
      last.line.source = ps.last_coll_source;
      last.line.line = ps.last_coll_line;
      const bool quote = m.op_count < r.high || !r.quoted_ahead;
      if (quote && (ps.coll_in_last_text || ps.last_coll_text)) {
        last.line.text =
            ps.coll_in_last_text ? ps.last_text.view() : std::string_view(*ps.last_coll_text);
        if (m.op_count == r.high) r.quoted_ahead = true;
      }
    }
    it->second.last_collective = static_cast<int>(job->last_collectives.size());
    job->last_collectives.push_back(std::move(last));
  });
}

/// Finish on any (job, state) pair: the builder's own, or a snapshot's copies.
/// Frees what only the reading of lines needs (process and link lookups, memberships, dedup
/// indexes): the job's own finishing allocates after this, so the peak is the end of the input
/// rather than that plus the finishing. Keeps what FinishInto, FinishJob and the incident
/// recorder read (command_env, ProcState::last_text, graph_paths, unknown_rank_owner).
void ReleaseLineIndexes(JobBuilder::State* state) {
  // Move-assigning an empty container frees the old one's memory (clear() keeps buckets).
  auto release = [](auto& member) { member = std::decay_t<decltype(member)>(); };
  release(state->proc_by_key);
  release(state->headless_procs);
  release(state->comm_by_id);
  release(state->proc_of_global_rank);
  release(state->link_index);
  release(state->link_texts);
  release(state->warn_index);
  release(state->notice_index);
  release(state->torch_index);
  release(state->trails_per_process);
  release(state->memberships);
  release(state->folding);
  for (ProcState& ps : state->procs) {
    release(ps.comms);
    release(ps.by_ptr);
    release(ps.anon_count);
    release(ps.free_slots);
    release(ps.reopened);
  }
}

void FinishInto(Job* job, JobBuilder::State* state, const BuildOptions& options) {
  NoteLastCollectives(job, *state);
  CompactFolded(job, state);
  ReleaseLineIndexes(state);
  // A pasted command line's settings hold for the processes of its input (an echo by NCCL, read
  // first, wins).
  for (const JobBuilder::State::CommandSetting& c : state->command_env) {
    for (Process& p : job->processes) {
      if (p.sources.count(c.source) > 0) p.env.try_emplace(c.name, c.setting);
    }
  }
  for (size_t i = 0; i < state->procs.size() && i < job->processes.size(); ++i) {
    const ProcState& ps = state->procs[i];
    if (!ps.has_line) continue;
    Evidence& last = job->processes[i].last_line;
    last.source = ps.last_source;
    last.line = ps.last_line;
    last.text = ps.last_text.view();
  }
  for (size_t i = 0; i < state->events_by_index.size(); ++i) {
    if (state->events_by_index[i] == 0) continue;
    job->stats.events_by_type[std::string(EventTypeName(EventOfIndex(i)))] =
        state->events_by_index[i];
  }
  FinishJob(job, state, options);
  state->incidents.Finish(job);
}

}  // namespace

void JobBuilder::Finish(const BuildOptions& options) {
  assert(state_->viewed_texts.empty() && "JobBuilder::Finish with line texts not kept");
  FinishInto(job_, state_.get(), options);
  state_.reset();
#ifdef __GLIBC__
  // The indexes just freed are scattered through the heap; hand their pages back so that the
  // rules and the report, which allocate less, do not add to the peak on top of them.
  malloc_trim(0);
#endif
}

void JobBuilder::KeepLineTexts() {
  if (state_ == nullptr) return;
  for (int proc : state_->viewed_texts) state_->procs[proc].last_text.Keep();
  state_->viewed_texts.clear();
}

Job JobBuilder::Snapshot(const BuildOptions& options) const {
  Job job = *job_;
  assert(state_ != nullptr && "JobBuilder::Snapshot after Finish");
  State state = *state_;
  FinishInto(&job, &state, options);
  return job;
}

}  // namespace ncclscope
