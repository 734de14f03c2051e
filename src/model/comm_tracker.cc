// Communicators and the attribution of connection lines to them.
#include <cinttypes>
#include <cstdio>

#include "builder_state.h"
#include "ncclscope/model/classify.h"

namespace ncclscope {
namespace {

std::string HexId(uint64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%016" PRIx64, id);
  return buf;
}

ProcComm* MembershipByPtr(JobBuilder::State* st, int proc, std::string_view ptr) {
  ProcState& ps = st->procs[proc];
  // Runs of COLL lines name the current communicator: try it first.
  if (ps.current >= 0 && ps.comms[ps.current].ptr == ptr) return &ps.comms[ps.current];
  for (auto& m : ps.comms) {
    if (m.ptr == ptr) return &m;
  }
  return nullptr;
}

void Touch(JobBuilder::State* st, int proc, ProcComm* m) {
  m->last_activity = ++st->tick;
  ProcState& ps = st->procs[proc];
  ps.current = static_cast<int>(m - ps.comms.data());
}

/// The membership a line without a comm pointer most likely belongs to: the current one if
/// rank/nranks fit, else the most recent fitting one.
ProcComm* CurrentFitting(JobBuilder::State* st, int proc, int rank, int nranks) {
  ProcState& ps = st->procs[proc];
  auto fits = [&](const ProcComm& m) {
    return (rank < 0 || m.rank == rank) && (nranks <= 0 || m.nranks == nranks);
  };
  if (ps.current >= 0 && fits(ps.comms[ps.current])) return &ps.comms[ps.current];
  ProcComm* best = nullptr;
  for (auto& m : ps.comms) {
    if (fits(m) && (!best || m.last_activity > best->last_activity)) best = &m;
  }
  return best;
}

int AddComm(Job* job, JobBuilder::State* st, std::string id) {
  auto it = st->comm_by_id.find(id);
  if (it != st->comm_by_id.end()) return it->second;
  int idx = static_cast<int>(job->comms.size());
  Communicator c;
  c.id = id;
  job->comms.push_back(std::move(c));
  st->comm_by_id.emplace(std::move(id), idx);
  return idx;
}

}  // namespace

void OnCommInit(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                const CommInit& e) {
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  if (m && job->comms[m->comm].ranks.count(e.rank) && job->comms[m->comm].ranks[e.rank].completed &&
      e.phase == InitPhase::kStart) {
    m = nullptr;  // Pointer reused by a new communicator after destroy.
  }
  if (!m) {
    std::string id;
    if (e.comm_id) {
      id = HexId(*e.comm_id);
    } else if (!e.parent.empty()) {
      ProcComm* parent = MembershipByPtr(st, proc, e.parent);
      std::string parent_id = parent ? job->comms[parent->comm].id
                                     : job->processes[proc].hostname + ":" +
                                           std::to_string(job->processes[proc].pid) + ":" +
                                           std::string(e.parent);
      id = parent_id + "/split" + (e.split_count ? std::to_string(*e.split_count) : "") + "/color" +
           (e.color ? std::to_string(*e.color) : "");
    } else {
      // Before 2.16 there is no commId: communicators are created in the same order on every
      // rank, so the k-th one of a given size is the same communicator everywhere.
      int k = st->procs[proc].anon_count[e.nranks]++;
      id = "anon" + std::to_string(k) + "-n" + std::to_string(e.nranks);
    }
    int comm = AddComm(job, st, std::move(id));
    Communicator& c = job->comms[comm];
    if (e.comm_id) c.comm_id = e.comm_id;
    if (!e.parent.empty()) {
      ProcComm* parent = MembershipByPtr(st, proc, e.parent);
      if (parent) c.parent_id = job->comms[parent->comm].id;
    }
    ProcState& ps = st->procs[proc];
    ps.comms.push_back(ProcComm{comm, e.rank, e.nranks, 0, std::string(e.comm)});
    m = &ps.comms.back();
    Process& p = job->processes[proc];
    if (p.global_rank < 0 && e.parent.empty()) p.global_rank = e.rank;
  }
  Touch(st, proc, m);
  Communicator& c = job->comms[m->comm];
  if (c.api.empty()) c.api = std::string(e.api);
  c.nranks = std::max(c.nranks, e.nranks);
  CommRank& r = c.ranks[e.rank];
  if (r.rank >= 0 && r.process != proc) {
    // Two processes claim the same rank: keep the first, the duplicate-gpu/mismatch rules see
    // it through the processes' own records.
  } else {
    r.rank = e.rank;
    r.process = proc;
    r.comm_ptr = std::string(e.comm);
    r.cuda_dev = e.cuda_dev;
    if (e.nvml_dev >= 0) r.nvml_dev = e.nvml_dev;
    r.bus_id = std::string(e.bus_id);
  }
  if (e.phase == InitPhase::kStart) {
    r.started = true;
    r.start_evidence = MakeEvidence(ctx);
  } else {
    r.started = true;
    r.completed = true;
    r.complete_evidence = MakeEvidence(ctx);
  }
}

void OnCommEnd(Job* job, JobBuilder::State* st, int proc, const CommEnd& e) {
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  if (!m) return;
  auto it = job->comms[m->comm].ranks.find(e.rank);
  if (it != job->comms[m->comm].ranks.end()) it->second.ended = true;
  m->ptr.clear();  // The pointer may be reused by a later communicator.
}

void OnCommTopology(Job* job, JobBuilder::State* st, int proc, const CommTopology& e) {
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  if (!m) return;
  Touch(st, proc, m);
  Communicator& c = job->comms[m->comm];
  c.nnodes = std::max(c.nnodes, e.nnodes);
  c.local_ranks = std::max(c.local_ranks, e.local_ranks);
  CommRank& r = c.ranks[m->rank];
  r.nnodes = e.nnodes;
  r.local_ranks = e.local_ranks;
  r.local_rank = e.local_rank;
}

void OnRingOrder(Job* job, JobBuilder::State* st, int proc, const RingOrder& e) {
  // Printed by rank 0 of the communicator being initialised.
  ProcComm* m = CurrentFitting(st, proc, 0, static_cast<int>(e.ranks.size()));
  if (!m) m = CurrentFitting(st, proc, 0, -1);
  if (!m) return;
  Communicator& c = job->comms[m->comm];
  c.rings[e.channel] = e.ranks;
  c.nchannels = std::max(c.nchannels, e.nchannels);
}

void OnInitTimings(Job* job, JobBuilder::State* st, int proc, const InitTimings& e) {
  ProcComm* m = CurrentFitting(st, proc, e.rank, e.nranks);
  if (!m) return;
  InitTimings copy = e;
  copy.api = {};
  job->comms[m->comm].ranks[m->rank].init_timings = copy;
}

void OnChannelCounts(Job* job, JobBuilder::State* st, int proc, const ChannelCounts& e) {
  ProcComm* m = CurrentFitting(st, proc, -1, -1);
  if (!m) return;
  Communicator& c = job->comms[m->comm];
  if (!c.channel_counts) c.channel_counts = e;
  c.ranks[m->rank].channel_counts = e;
}

void OnGraphPattern(Job* job, JobBuilder::State* st, int proc, const GraphPattern& e) {
  ProcComm* m = CurrentFitting(st, proc, -1, -1);
  if (!m) return;
  Communicator& c = job->comms[m->comm];
  if (c.graph_intra_type.empty()) {
    c.graph_intra_type = std::string(e.type_intra);
    c.graph_inter_type = std::string(e.type_inter);
  }
}

void OnCollective(Job* /*job*/, JobBuilder::State* st, int proc, const Collective& e) {
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  if (m) Touch(st, proc, m);
}

namespace {

/// Whether the device printed in brackets ("1" = nvmlDev, "1b000" = busId) can be rank `r` of
/// the communicator. Unknown ranks and empty devices cannot be ruled out.
bool DeviceMatches(const Communicator& c, int r, std::string_view dev) {
  if (dev.empty()) return true;
  auto it = c.ranks.find(r);
  if (it == c.ranks.end()) return true;
  const CommRank& cr = it->second;
  bool decimal = dev.size() <= 3;
  for (char ch : dev) decimal = decimal && ch >= '0' && ch <= '9';
  if (decimal && cr.nvml_dev >= 0) {
    int v = 0;
    for (char ch : dev) v = v * 10 + (ch - '0');
    return v == cr.nvml_dev;
  }
  if (!decimal && !cr.bus_id.empty()) return cr.bus_id == dev;
  return true;
}

/// True if this communicator already has this exact connection (a communicator connects each
/// channel and connection index once, so a repeat belongs to another communicator).
bool AlreadyConnected(const Job& job, const JobBuilder::State& st, int comm, const Connection& e) {
  auto it = st.link_index.find(LinkBucketKey{comm, -1, e.src_rank, e.dst_rank});
  if (it == st.link_index.end()) return false;
  for (int idx : it->second) {
    const Link& l = job.links[idx];
    if (l.raw == e.raw && l.channels.count(e.channel) &&
        (e.conn_index < 0 || l.conn_indexes.count(e.conn_index)))
      return true;
  }
  return false;
}

}  // namespace

void OnConnection(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                  const Connection& e) {
  // The printing process owns the sender rank, except on NET [receive] lines.
  const bool receive = e.direction == ConnDirection::kReceive;
  const int my_rank = receive ? e.dst_rank : e.src_rank;
  const int max_rank = std::max(e.src_rank, e.dst_rank);
  ProcState& ps = st->procs[proc];
  // Candidates: memberships where the rank and size fit and the printed devices match.
  ProcComm* chosen = nullptr;
  int fitting = 0;
  const bool current_fits = [&] {
    if (ps.current < 0) return false;
    const ProcComm& cur = ps.comms[ps.current];
    return cur.rank == my_rank && cur.nranks > max_rank;
  }();
  for (int pass = 0; pass < 2 && fitting == 0; ++pass) {
    for (auto& m : ps.comms) {
      if (m.rank != my_rank || m.nranks <= max_rank) continue;
      const Communicator& c = job->comms[m.comm];
      if (!DeviceMatches(c, e.src_rank, e.src_dev) || !DeviceMatches(c, e.dst_rank, e.dst_dev))
        continue;
      // First pass: skip communicators that already have this very connection.
      if (pass == 0 && AlreadyConnected(*job, *st, m.comm, e)) continue;
      ++fitting;
      bool is_current = current_fits && &m == &ps.comms[ps.current];
      if (!chosen || is_current ||
          (!(current_fits && chosen == &ps.comms[ps.current]) &&
           m.last_activity > chosen->last_activity))
        chosen = &m;
    }
  }
  const int comm = chosen ? chosen->comm : -1;
  Attribution attribution = !chosen        ? Attribution::kUnknown
                            : fitting == 1 ? Attribution::kCertain
                                           : Attribution::kInferred;
  if (!chosen) st->unknown_rank_owner.emplace(my_rank, proc);

  LinkBucketKey key{comm, comm < 0 ? proc : -1, e.src_rank, e.dst_rank};
  auto& bucket = st->link_index[key];
  Link* link = nullptr;
  for (int idx : bucket) {
    if (job->links[idx].raw == e.raw) {
      link = &job->links[idx];
      break;
    }
  }
  if (!link) {
    bucket.push_back(static_cast<int>(job->links.size()));
    Link l;
    l.comm = comm;
    l.attribution = attribution;
    l.reporter = proc;
    l.src = e.src_rank;
    l.dst = e.dst_rank;
    l.src_dev = std::string(e.src_dev);
    l.dst_dev = std::string(e.dst_dev);
    l.raw = std::string(e.raw);
    const TransportSpec& t = e.transport;
    l.cls = ClassifyTransport(t);
    l.path = t.type == TransportType::kP2P ? P2pPath::kUnknown : P2pPath::kNotApplicable;
    l.mode = std::string(t.mode);
    l.net = std::string(t.net);
    l.net_dev = t.net_dev;
    l.proxy_rank = t.proxy_rank;
    l.via_rank = t.via_rank;
    l.gdrdma = t.gdrdma;
    l.shared = t.shared;
    l.read = t.read;
    l.ce = t.ce;
    l.pci = t.pci;
    l.collnet = t.type == TransportType::kCOLLNET;
    l.first = MakeEvidence(ctx);
    job->links.push_back(std::move(l));
    link = &job->links.back();
  } else if (attribution == Attribution::kInferred) {
    link->attribution = Attribution::kInferred;
  }
  ++link->lines;
  if (e.channel >= 0) link->channels.insert(e.channel);
  if (e.conn_index >= 0) link->conn_indexes.insert(e.conn_index);
  if (receive) {
    link->receive_side = true;
  } else {
    link->send_side = true;
  }
}

}  // namespace ncclscope
