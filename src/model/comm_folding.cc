// Folding of ended communicators that repeat an earlier one's shape.
//
// A job that creates communicators again and again (per-step process groups, many attempts in one
// log) would keep one Communicator, its CommRanks, Links and the builder's index entries for every
// one of them: memory that grows with the length of the log. Once the job holds
// BuilderTuning::fold_from communicators, a communicator whose every rank ended (Destroy, Abort)
// and whose shape equals that of an earlier ended one is folded into it: the earlier one counts it
// (Communicator::repeats), its links' line counts are added, the slower init timings of each rank
// are kept, and its slots in Job::comms, Job::links and its processes' memberships are reused by
// the communicators that follow. Finish removes the slots left free and restores creation order.
#include <algorithm>
#include <cstdint>

#include "builder_state.h"

namespace ncclscope {
namespace {

// Shapes are compared, never shown: values go in as raw bytes.
void Put(std::string* s, int64_t v) { s->append(reinterpret_cast<const char*>(&v), sizeof(v)); }
void Put(std::string* s, std::string_view v) {
  Put(s, static_cast<int64_t>(v.size()));  // length first: no separator can be ambiguous
  s->append(v);
}
void Put(std::string* s, const std::optional<ChannelCounts>& c) {
  if (!c) {
    Put(s, INT64_MIN);
    return;
  }
  for (int v : {c->coll, c->collnet, c->nvls, c->p2p, c->p2p_per_peer}) Put(s, v);
}
void Put(std::string* s, const FlatIntSet& set) {
  Put(s, static_cast<int64_t>(set.size()));
  for (int v : set) Put(s, v);
}

/// The links of `comm`, by (src, dst, raw): the order in which shapes are written and compared.
std::vector<int> LinksOf(const Job& job, const std::vector<CommRankRefs>& refs) {
  std::vector<int> links;
  for (const CommRankRefs& r : refs) links.insert(links.end(), r.links.begin(), r.links.end());
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  std::sort(links.begin(), links.end(), [&](int a, int b) {
    const Link& x = job.links[a];
    const Link& y = job.links[b];
    if (x.src != y.src) return x.src < y.src;
    if (x.dst != y.dst) return x.dst < y.dst;
    return x.raw < y.raw;
  });
  return links;
}

/// Everything the rules and reports read of a communicator and its links, but its ids,
/// pointers, init timings, evidence and line counts.
std::string FoldShape(const Job& job, const Communicator& c, const std::vector<int>& links) {
  std::string s;
  s.reserve(256 + 96 * links.size());
  Put(&s, c.nranks);
  Put(&s, c.api);
  Put(&s, c.parent_id.empty() ? 0 : 1);
  Put(&s, c.nnodes);
  Put(&s, c.local_ranks);
  Put(&s, c.nchannels);
  Put(&s, c.channel_counts);
  Put(&s, c.graph_intra_type);
  Put(&s, c.graph_inter_type);
  Put(&s, static_cast<int64_t>(c.rings.size()));
  c.rings.ForEach([&](int channel, const std::string& order) {
    Put(&s, channel);
    Put(&s, order);
  });
  Put(&s, static_cast<int64_t>(c.ranks.size()));
  for (const auto& [r, cr] : c.ranks) {
    for (int v : {r, cr.rank, cr.process, cr.cuda_dev, cr.nvml_dev, cr.nnodes, cr.local_ranks,
                  cr.local_rank, cr.started ? 1 : 0, cr.completed ? 1 : 0,
                  cr.init_timings ? 1 : 0})
      Put(&s, v);
    Put(&s, cr.bus_id);
    Put(&s, cr.channel_counts);
  }
  Put(&s, static_cast<int64_t>(links.size()));
  for (int idx : links) {
    const Link& l = job.links[idx];
    for (int v : {l.src, l.dst, l.reporter, static_cast<int>(l.attribution),
                  l.send_side ? 1 : 0, l.receive_side ? 1 : 0})
      Put(&s, v);
    Put(&s, l.src_dev);
    Put(&s, l.dst_dev);
    Put(&s, l.raw);
    Put(&s, l.channels);
    Put(&s, l.conn_indexes);
  }
  return s;
}

/// Whether no membership of the communicator (its references `refs`) is still open.
bool MembershipsClosed(const std::vector<ProcState>& procs, const std::vector<CommRankRefs>& refs) {
  for (const CommRankRefs& r : refs) {
    for (const auto& [proc, idx] : r.members) {
      if (procs[proc].comms[idx].list[kOpenByRank] >= 0) return false;
    }
  }
  return true;
}

/// Folds `from` (whose links are `from_links`) into `into` (links `into_links`, same shape).
void Merge(Job* job, int into, const std::vector<int>& into_links, const Communicator& from,
           const std::vector<int>& from_links) {
  Communicator& c = job->comms[into];
  c.repeats += 1 + from.repeats;
  job->stats.folded_comms += 1;
  for (size_t i = 0; i < into_links.size() && i < from_links.size(); ++i)
    job->links[into_links[i]].lines += job->links[from_links[i]].lines;
  for (auto& [r, cr] : c.ranks) {
    auto it = from.ranks.find(r);
    if (it == from.ranks.end() || !it->second.init_timings || !cr.init_timings) continue;
    if (it->second.init_timings->total > cr.init_timings->total)
      cr.init_timings = it->second.init_timings;  // the slowest init is what a rule must see
  }
}

/// Frees the slots of folded communicator `comm`: its record, its links and memberships, and
/// every index entry that names them.
void Release(Job* job, JobBuilder::State* st, int comm, const std::vector<CommRankRefs>& refs,
             const std::vector<int>& links) {
  for (int idx : links) {
    const Link& l = job->links[idx];
    st->link_index.erase(LinkBucketKey{comm, -1, l.src, l.dst});
    st->memberships.ForgetLink(idx);
    job->links[idx] = Link{};
    st->folding.free_links.push_back(idx);
  }
  for (const CommRankRefs& r : refs) {
    for (const auto& [proc, idx] : r.members) {
      ProcState& ps = st->procs[proc];
      DropMembershipPtr(&ps, idx);
      st->memberships.Forget(&st->procs, proc, idx);
      if (ps.current == idx) ps.current = -1;
      if (ps.previous == idx) ps.previous = -1;
      ps.comms[idx] = ProcComm{};
      ps.free_slots.push_back(idx);
    }
  }
  for (int r = 0; r < static_cast<int>(refs.size()); ++r) st->memberships.EraseCommRank(comm, r);
  st->comm_by_id.erase(job->comms[comm].id);
  job->comms[comm] = Communicator{};
  st->folding.free_comms.push_back(comm);
}

/// A free slot of `records` (else a new one at the end), stamped with the next creation serial
/// when folding is on.
template <typename Record>
int NewSlot(ChunkedVector<Record>* records, std::vector<int>* free, std::vector<uint64_t>* serial,
            JobBuilder::State::Folding* f) {
  int idx;
  if (!free->empty()) {
    idx = free->back();
    free->pop_back();
  } else {
    idx = static_cast<int>(records->size());
    records->push_back(Record{});
  }
  if (f->from > 0) {
    if (serial->size() <= static_cast<size_t>(idx)) serial->resize(idx + 1);
    (*serial)[static_cast<size_t>(idx)] = f->next_serial++;
  }
  return idx;
}

}  // namespace

int NewCommSlot(Job* job, JobBuilder::State* st) {
  auto& f = st->folding;
  const int idx = NewSlot(&job->comms, &f.free_comms, &f.comm_serial, &f);
  if (f.from > 0) {
    if (f.kept.size() <= static_cast<size_t>(idx)) f.kept.resize(idx + 1, 0);
    f.kept[static_cast<size_t>(idx)] = 0;
  }
  return idx;
}

int NewLinkSlot(Job* job, JobBuilder::State* st) {
  auto& f = st->folding;
  return NewSlot(&job->links, &f.free_links, &f.link_serial, &f);
}

void FoldIfRepeat(Job* job, JobBuilder::State* st, int comm) {
  auto& f = st->folding;
  if (f.from == 0 || comm < 0) return;
  if (job->comms.size() - f.free_comms.size() < f.from) return;
  if (f.kept[static_cast<size_t>(comm)]) return;
  const Communicator& c = job->comms[comm];
  if (c.nranks <= 0 || static_cast<int>(c.ranks.size()) != c.nranks) return;
  for (const auto& [r, cr] : c.ranks) {
    if (!cr.ended) return;
  }
  // Every rank seen and ended; then its index entries (copied: Release erases them).
  auto refs_of = [&](int which) {
    std::vector<CommRankRefs> refs(static_cast<size_t>(c.nranks));
    for (int r = 0; r < c.nranks; ++r) {
      if (const CommRankRefs* found = st->memberships.FindCommRank(which, r))
        refs[static_cast<size_t>(r)] = *found;
    }
    return refs;
  };
  const std::vector<CommRankRefs> refs = refs_of(comm);
  if (!MembershipsClosed(st->procs, refs)) return;
  const std::vector<int> links = LinksOf(*job, refs);
  std::string shape = FoldShape(*job, c, links);
  auto [it, fresh] = f.kept_by_shape.try_emplace(std::move(shape), comm);
  if (fresh) {
    f.kept[static_cast<size_t>(comm)] = 1;
    return;
  }
  const int into = it->second;
  const std::vector<int> into_links = LinksOf(*job, refs_of(into));
  Merge(job, into, into_links, c, links);
  Release(job, st, comm, refs, links);
}

void CompactFolded(Job* job, JobBuilder::State* st) {
  auto& f = st->folding;
  if (f.free_comms.empty() && f.free_links.empty() && job->stats.folded_comms == 0) return;
  // Occupied slots in creation order.
  auto order = [](size_t n, const std::vector<int>& free, const std::vector<uint64_t>& serial) {
    std::vector<char> is_free(n, 0);
    for (int i : free) is_free[static_cast<size_t>(i)] = 1;
    std::vector<int> kept;
    kept.reserve(n - free.size());
    for (size_t i = 0; i < n; ++i) {
      if (!is_free[i]) kept.push_back(static_cast<int>(i));
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [&](int a, int b) { return serial[static_cast<size_t>(a)] < serial[static_cast<size_t>(b)]; });
    return kept;
  };
  const std::vector<int> comm_order = order(job->comms.size(), f.free_comms, f.comm_serial);
  const std::vector<int> link_order = order(job->links.size(), f.free_links, f.link_serial);
  std::vector<int> new_index(job->comms.size(), -1);
  ChunkedVector<Communicator> comms;
  for (int old : comm_order) {
    new_index[static_cast<size_t>(old)] = static_cast<int>(comms.size());
    comms.push_back(std::move(job->comms[old]));
  }
  ChunkedVector<Link> links;
  for (int old : link_order) {
    Link& l = job->links[old];
    if (l.comm >= 0) l.comm = new_index[static_cast<size_t>(l.comm)];
    links.push_back(std::move(l));
  }
  job->comms = std::move(comms);
  job->links = std::move(links);
  f.free_comms.clear();
  f.free_links.clear();
}

}  // namespace ncclscope
