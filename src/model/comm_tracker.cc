// Communicators and the attribution of connection lines to them.
#include <algorithm>
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

/// The membership named by a comm pointer: the current one if it has that pointer, else the
/// oldest with it (a pointer is reused only after its communicator was destroyed).
ProcComm* MembershipByPtr(JobBuilder::State* st, int proc, std::string_view ptr) {
  ProcState& ps = st->procs[proc];
  // While no pointer is shared, a pointer names one membership: the recent answers hold. A
  // line of a process that cycles through a few communicators finds its own without touching
  // the memberships or hashing.
  const PtrKey key = ps.shared_ptrs == 0 && st->remember_pointers ? PtrKey(ptr) : PtrKey();
  if (key.len != 0) {
    for (const PtrHit& h : ps.ptr_hits) {
      if (h.key == key) return &ps.comms[h.idx];
    }
  }
  int idx = -1;
  if (ps.current >= 0 && ps.comms[ps.current].ptr == ptr) {
    // Runs of COLL lines name the current communicator: try it first.
    idx = ps.current;
  } else if (ps.previous >= 0 && ps.shared_ptrs == 0 && ps.comms[ps.previous].ptr == ptr) {
    // Then the one before it, when no pointer is shared (else the oldest holder must be found).
    idx = ps.previous;
  } else {
    auto it = ps.by_ptr.find(ptr);
    if (it == ps.by_ptr.end() || it->second.empty()) return nullptr;
    idx = *it->second.begin();
  }
  if (key.len != 0) {
    std::copy_backward(ps.ptr_hits.begin(), ps.ptr_hits.end() - 1, ps.ptr_hits.end());
    ps.ptr_hits[0] = PtrHit{key, idx};
  }
  return &ps.comms[idx];
}

/// Changes a membership's pointer, keeping ProcState::by_ptr in step.
void SetPtr(ProcState* ps, int idx, std::string_view ptr) {
  DropMembershipPtr(ps, idx);  // (also forgets the recent answers)
  ProcComm& m = ps->comms[idx];
  m.ptr = std::string(ptr);
  auto it = ps->by_ptr.find(ptr);
  if (it == ps->by_ptr.end()) it = ps->by_ptr.emplace(std::string(ptr), FlatIntSet{}).first;
  if (it->second.insert(idx) && it->second.size() == 2) ++ps->shared_ptrs;
}

void Touch(JobBuilder::State* st, int proc, ProcComm* m) {
  m->last_activity = ++st->tick;
  ProcState& ps = st->procs[proc];
  const int idx = m->index;
  if (idx == ps.current) return;  // Already the newest of all its lists (runs of COLL lines).
  ps.previous = ps.current;
  ps.current = idx;
  st->memberships.Touch(&st->procs, proc, idx);
}

}  // namespace

void DropMembershipPtr(ProcState* ps, int idx) {
  ps->ptr_hits = {};  // by_ptr changes: MembershipByPtr's recent answers may not hold
  ProcComm& m = ps->comms[idx];
  auto old = ps->by_ptr.find(m.ptr);
  if (old != ps->by_ptr.end()) {
    if (old->second.erase(idx) && old->second.size() == 1) --ps->shared_ptrs;
    if (old->second.empty()) ps->by_ptr.erase(old);
  }
}

namespace {

/// The membership a line without a comm pointer most likely belongs to: the current one if
/// rank/nranks fit, else the most recent fitting one (rank < 0 and nranks <= 0: any).
ProcComm* CurrentFitting(JobBuilder::State* st, int proc, int rank, int nranks) {
  ProcState& ps = st->procs[proc];
  if (ps.current >= 0) {  // -1: none yet, or its communicator was folded
    const ProcComm& cur = ps.comms[ps.current];
    if ((rank < 0 || cur.rank == rank) && (nranks <= 0 || cur.nranks == nranks))
      return &ps.comms[ps.current];
  }
  // The current one is the most recent of all: the most recent fitting one heads its list.
  const MembershipIndex& index = st->memberships;
  int list = rank >= 0 && nranks > 0 ? index.RankSizeList(proc, rank, nranks)
             : rank >= 0             ? index.RankList(proc, rank)
                                     : index.SizeList(proc, nranks);
  if (list < 0 || index.list(list).head < 0) return nullptr;
  return &ps.comms[index.list(list).head];
}

int AddComm(Job* job, JobBuilder::State* st, std::string id) {
  auto it = st->comm_by_id.find(id);
  if (it != st->comm_by_id.end()) return it->second;
  const int idx = NewCommSlot(job, st);
  job->comms[idx].id = id;
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
    int idx = static_cast<int>(ps.comms.size());
    if (!ps.free_slots.empty()) {  // a folded communicator's membership
      idx = ps.free_slots.back();
      ps.free_slots.pop_back();
      if (static_cast<size_t>(idx) < ps.open_from) ps.reopened.push_back(idx);
    } else {
      ps.comms.push_back(ProcComm{});
    }
    ProcComm& added = ps.comms[idx];
    added.index = idx;
    added.comm = comm;
    added.rank = e.rank;
    added.nranks = e.nranks;
    SetPtr(&ps, idx, e.comm);
    st->memberships.Add(*job, &st->procs, proc, idx);
    m = &ps.comms[idx];
    Process& p = job->processes[proc];
    if (p.global_rank < 0 && e.parent.empty()) {
      p.global_rank = e.rank;
      auto [it, fresh] = st->proc_of_global_rank.try_emplace(e.rank, proc);
      if (!fresh && proc < it->second) it->second = proc;  // the lowest index, as a scan finds
    }
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
    r.start_evidence = st->quotes.Quote(ctx);
  } else {
    r.started = true;
    r.completed = true;
    r.complete_evidence = st->quotes.Quote(ctx);
  }
}

void OnProcessStart(Job* job, JobBuilder::State* st, int proc) {
  ProcState& ps = st->procs[proc];
  if (ps.saw_version) {
    // The banner again from the same host:pid: a new process reusing the pid (a restart). The
    // communicators of the old one print nothing more, and their pointers may come back.
    auto close = [&](int i) {
      if (!ps.comms[i].ptr.empty()) SetPtr(&ps, i, {});
      st->memberships.Close(*job, &st->procs, proc, i);
    };
    for (size_t i = ps.open_from; i < ps.comms.size(); ++i) close(static_cast<int>(i));
    for (int i : ps.reopened) close(i);  // free again since: Close does nothing
    ps.reopened.clear();
    ps.open_from = ps.comms.size();
  }
  ps.saw_version = true;
}

void OnCommEnd(Job* job, JobBuilder::State* st, int proc, const CommEnd& e) {
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  if (!m) return;
  const int comm = m->comm;
  auto it = job->comms[comm].ranks.find(e.rank);
  if (it != job->comms[comm].ranks.end()) it->second.ended = true;
  ProcState& ps = st->procs[proc];
  const int idx = m->index;
  SetPtr(&ps, idx, {});  // The pointer may be reused.
  // An ended communicator prints no more connection lines.
  st->memberships.Close(*job, &st->procs, proc, idx);
  FoldIfRepeat(job, st, comm);
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
  ProcComm* m = CurrentFitting(st, proc, 0, e.nranks);
  if (!m) m = CurrentFitting(st, proc, 0, -1);
  if (!m) return;
  Communicator& c = job->comms[m->comm];
  c.rings.Set(e.channel, e.ranks);
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

void OnCollective(Job* /*job*/, JobBuilder::State* st, int proc, const EventContext& ctx,
                  const Collective& e) {
  ProcState& ps = st->procs[proc];
  ps.has_coll = true;
  ps.coll_in_last_text = true;  // JobBuilder::Add has just made this line the last_text
  ps.last_coll_source = ctx.source;
  ps.last_coll_line = ctx.line;
  ProcComm* m = MembershipByPtr(st, proc, e.comm);
  ps.last_coll_membership = m != nullptr ? m->index : -1;
  if (!m) return;
  Touch(st, proc, m);
  // How far this rank got on the communicator (a hang stopped from outside leaves nothing else).
  const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(e.op_count, UINT32_MAX));
  if (m->comm >= 0) {
    if (st->top_op_count.size() <= static_cast<size_t>(m->comm)) {
      st->top_op_count.resize(static_cast<size_t>(m->comm) + 1, 0);
    }
    uint32_t& top = st->top_op_count[static_cast<size_t>(m->comm)];
    top = std::max(top, count);
  }
  m->coll_seen = true;
  m->op_count = count;
  // Send and Recv, NCCL's only four-letter operations, count on the ranks that call them alone.
  m->p2p = m->p2p || e.op.size() == 4;
}

namespace {

/// A device as printed in brackets ("1" = nvmlDev, "1b000" = busId), decoded once per line.
struct PrintedDevice {
  std::string_view text;
  bool decimal = false;
  int value = 0;

  explicit PrintedDevice(std::string_view dev) : text(dev) {
    decimal = dev.size() <= 3;
    for (char ch : dev) decimal = decimal && ch >= '0' && ch <= '9';
    if (decimal) {
      for (char ch : dev) value = value * 10 + (ch - '0');
    }
  }
};

/// Whether the printed device can be rank `r` of the communicator. Unknown ranks and empty
/// devices cannot be ruled out.
bool DeviceMatches(const Communicator& c, int r, const PrintedDevice& dev) {
  if (dev.text.empty()) return true;
  auto it = c.ranks.find(r);
  if (it == c.ranks.end()) return true;
  const CommRank& cr = it->second;
  if (dev.decimal && cr.nvml_dev >= 0) return dev.value == cr.nvml_dev;
  if (!dev.decimal && !cr.bus_id.empty()) return cr.bus_id == dev.text;
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

/// The communicator a connection line belongs to, among the memberships of the printing process
/// with the line's own rank: those whose size and printed devices fit ("fitting") and whose
/// communicator does not have this connection yet are the candidates; if there are none, every
/// fitting one is. The most recently active candidate is chosen; it is certain when it is the
/// only candidate.
///
/// Memberships are walked newest first, and only as far as needed: the held-connection counts
/// say how many memberships lack the connection (the walk stops when all were seen, and when
/// only one does, the communicator-index sums name it without a walk); a second candidate ends
/// the walk too. So a line costs O(1) however many communicators the process created, unless
/// several of them lack the connection or every one has it (a repeated line) and the fitting
/// ones are far down the list.
struct Choice {
  ProcComm* chosen = nullptr;
  int candidates = 0;  ///< 0, 1, or 2 for "more than one"
};

Choice Attribute(const Job& job, JobBuilder::State* st, int proc, const Connection& e,
                 int my_rank) {
  const MembershipIndex& index = st->memberships;
  const int list = index.OpenRankList(proc, my_rank);
  if (list < 0) return {};
  Memberships& comms = st->procs[proc].comms;
  const int max_rank = std::max(e.src_rank, e.dst_rank);
  const PrintedDevice src_dev(e.src_dev), dst_dev(e.dst_dev);
  auto fits = [&](const ProcComm& m) {
    if (m.nranks <= max_rank) return false;
    const Communicator& c = job.comms[m.comm];
    return DeviceMatches(c, e.src_rank, src_dev) && DeviceMatches(c, e.dst_rank, dst_dev);
  };
  const RecencyList& members = index.list(list);
  // Memberships of the list that lack the connection: known from the held counts of long
  // lists; short ones (-1: unknown) are walked.
  int lacking = -1;
  if (members.counted) {
    const Held held = e.channel < 0 ? Held{}
                                    : index.HeldBy(list, e.src_rank, e.dst_rank, e.raw,
                                                   e.channel, e.conn_index < 0 ? -1 : e.conn_index);
    lacking = members.size - static_cast<int>(held.count);
    if (lacking == 1) {
      // The one membership without the connection: its communicator is what the sums differ by.
      const int comm = static_cast<int>(members.comm_sum - held.comm_sum);
      const int idx = index.OnlyMembershipOf(list, comm, my_rank);
      if (idx >= 0 && fits(comms[idx])) return Choice{&comms[idx], 1};
      if (idx < 0) lacking = -1;  // Not expected; the walk gives the same answer, only slower.
    }
  }
  const bool walk = lacking != 0 && lacking != 1;
  if (walk) {
    Choice c;
    int seen_lacking = 0;
    for (int i = members.head; i >= 0; i = comms[i].next[kOpenByRank]) {
      ProcComm& m = comms[i];
      if (AlreadyConnected(job, *st, m.comm, e)) continue;
      ++seen_lacking;
      if (fits(m)) {
        if (!c.chosen) c.chosen = &m;
        if (++c.candidates == 2) break;
      }
      if (seen_lacking == lacking) break;
    }
    if (c.chosen) return c;
  }
  // No fitting membership lacks the connection: every fitting one is a candidate.
  Choice c;
  for (int i = members.head; i >= 0; i = comms[i].next[kOpenByRank]) {
    if (!fits(comms[i])) continue;
    if (!c.chosen) c.chosen = &comms[i];
    if (++c.candidates == 2) break;
  }
  return c;
}

}  // namespace

void OnConnection(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                  const Connection& e) {
  // The printing process owns the sender rank, except on NET [receive] lines.
  const bool receive = e.direction == ConnDirection::kReceive;
  const int my_rank = receive ? e.dst_rank : e.src_rank;
  const Choice choice = Attribute(*job, st, proc, e, my_rank);
  const int comm = choice.chosen ? choice.chosen->comm : -1;
  Attribution attribution = !choice.chosen           ? Attribution::kUnknown
                            : choice.candidates == 1 ? Attribution::kCertain
                                                     : Attribution::kInferred;
  if (!choice.chosen) st->unknown_rank_owner.emplace(my_rank, proc);

  LinkBucketKey key{comm, comm < 0 ? proc : -1, e.src_rank, e.dst_rank};
  auto& bucket = st->link_index[key];
  int link_idx = -1;
  for (int idx : bucket) {
    if (job->links[idx].raw == e.raw) {
      link_idx = idx;
      break;
    }
  }
  if (link_idx < 0) {
    link_idx = NewLinkSlot(job, st);
    bucket.push_back(link_idx);
    Link l;
    l.comm = comm;
    l.attribution = attribution;
    l.reporter = proc;
    l.src = e.src_rank;
    l.dst = e.dst_rank;
    l.src_dev = st->link_texts.Intern(e.src_dev);
    l.dst_dev = st->link_texts.Intern(e.dst_dev);
    l.raw = st->link_texts.Intern(e.raw);
    const TransportSpec& t = e.transport;
    l.cls = ClassifyTransport(t);
    l.path = t.type == TransportType::kP2P ? P2pPath::kUnknown : P2pPath::kNotApplicable;
    l.mode = st->link_texts.Intern(t.mode);
    l.net = st->link_texts.Intern(t.net);
    l.net_dev = t.net_dev;
    l.proxy_rank = t.proxy_rank;
    l.via_rank = t.via_rank;
    l.gdrdma = t.gdrdma;
    l.shared = t.shared;
    l.read = t.read;
    l.ce = t.ce;
    l.pci = t.pci;
    l.collnet = t.type == TransportType::kCOLLNET;
    l.first = st->quotes.Quote(ctx);
    job->links[link_idx] = std::move(l);
    st->memberships.AddLink(*job, link_idx, e.raw);
  } else if (attribution == Attribution::kInferred) {
    job->links[link_idx].attribution = Attribution::kInferred;
  }
  Link* link = &job->links[link_idx];
  ++link->lines;
  // The held-connection counts follow the link's channel and connection-index sets.
  if (e.channel >= 0 && link->channels.insert(e.channel))
    st->memberships.ChannelAdded(*job, link_idx, e.channel);
  if (e.conn_index >= 0 && link->conn_indexes.insert(e.conn_index))
    st->memberships.ConnIndexAdded(*job, link_idx, e.conn_index);
  if (receive) {
    link->receive_side = true;
  } else {
    link->send_side = true;
  }
}

}  // namespace ncclscope
