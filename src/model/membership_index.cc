// MembershipIndex: recency lists and held-connection counts of communicator memberships.
#include "membership_index.h"

#include "builder_state.h"

namespace ncclscope {

int MembershipIndex::Find(int proc, int kind, int rank, int nranks) const {
  return list_ids_.Find(ListKey{proc, kind, rank, nranks});
}

int MembershipIndex::FindOrAdd(int proc, int kind, int rank, int nranks) {
  bool added = false;
  const int id = list_ids_.FindOrAdd(ListKey{proc, kind, rank, nranks},
                                     static_cast<int>(lists_.size()), &added);
  if (added) lists_.emplace_back();
  return id;
}

// Lists are doubly linked through ProcComm::prev/next; the head's prev is the tail.
void MembershipIndex::PushBack(Memberships& comms, RecencyList& l, int idx, int kind) {
  ProcComm& m = comms[idx];
  m.next[kind] = -1;
  if (l.head < 0) {
    l.head = idx;
    m.prev[kind] = idx;
  } else {
    ProcComm& head = comms[l.head];
    const int tail = head.prev[kind];
    comms[tail].next[kind] = idx;
    m.prev[kind] = tail;
    head.prev[kind] = idx;
  }
  ++l.size;
}

void MembershipIndex::Unlink(Memberships& comms, RecencyList& l, int idx, int kind) {
  ProcComm& m = comms[idx];
  const int p = m.prev[kind], n = m.next[kind];
  if (l.head == idx) {
    l.head = n;
    if (n >= 0) comms[n].prev[kind] = p;  // the tail stays the tail
  } else {
    comms[p].next[kind] = n;
    ProcComm& head = comms[l.head];
    if (n >= 0) {
      comms[n].prev[kind] = p;
    } else {
      head.prev[kind] = p;  // m was the tail
    }
  }
  m.prev[kind] = m.next[kind] = -1;
  --l.size;
}

void MembershipIndex::PushFront(Memberships& comms, RecencyList& l, int idx, int kind) {
  ProcComm& m = comms[idx];
  if (l.head < 0) {
    PushBack(comms, l, idx, kind);
    return;
  }
  ProcComm& head = comms[l.head];
  m.prev[kind] = head.prev[kind];
  m.next[kind] = l.head;
  head.prev[kind] = idx;
  l.head = idx;
  ++l.size;
}

void MembershipIndex::Add(const Job& job, std::vector<ProcState>* procs, int proc, int idx) {
  Memberships& comms = (*procs)[proc].comms;
  ProcComm& m = comms[idx];
  const std::array<int, kRecencyKinds> ids = {
      FindOrAdd(proc, kByRank, m.rank, 0), FindOrAdd(proc, kByRankSize, m.rank, m.nranks),
      FindOrAdd(proc, kBySize, -1, m.nranks), FindOrAdd(proc, kOpenByRank, m.rank, 0)};
  // At the tail, as the least recent: Touch moves it to the front right after.
  for (int k = 0; k < kRecencyKinds; ++k) {
    m.list[k] = ids[k];
    PushBack(comms, lists_[ids[k]], idx, k);
  }
  const int open = ids[kOpenByRank];
  lists_[open].comm_sum += static_cast<uint64_t>(m.comm);
  CommRankRefs& refs = comm_ranks_[CommRankKey(m.comm, m.rank)];
  CommRankRefs::Holder* holder = nullptr;
  for (auto& h : refs.holders) {
    if (h.list == open) holder = &h;
  }
  if (!holder) {
    refs.holders.push_back(CommRankRefs::Holder{open, 0, -1});
    holder = &refs.holders.back();
  }
  ++holder->count;
  holder->newest = idx;
  refs.members.emplace_back(proc, idx);
  RecencyList& open_list = lists_[open];
  if (open_list.counted) {
    for (int link : refs.links) HoldAll(job.links[link], link_raw_[link], open, m.comm, 1);
  } else if (open_list.size >= count_from_) {
    StartCounting(job, comms, open);
  }
}

void MembershipIndex::StartCounting(const Job& job, const Memberships& comms, int list) {
  lists_[list].counted = true;
  ++counted_lists_;
  for (int i = lists_[list].head; i >= 0; i = comms[i].next[kOpenByRank]) {
    const ProcComm& m = comms[i];
    auto it = comm_ranks_.find(CommRankKey(m.comm, m.rank));
    if (it == comm_ranks_.end()) continue;
    for (int link : it->second.links) HoldAll(job.links[link], link_raw_[link], list, m.comm, 1);
  }
}

void MembershipIndex::Close(const Job& job, std::vector<ProcState>* procs, int proc, int idx) {
  Memberships& comms = (*procs)[proc].comms;
  ProcComm& m = comms[idx];
  const int open = m.list[kOpenByRank];
  if (open < 0) return;
  Unlink(comms, lists_[open], idx, kOpenByRank);
  m.list[kOpenByRank] = -1;
  lists_[open].comm_sum -= static_cast<uint64_t>(m.comm);
  CommRankRefs& refs = comm_ranks_[CommRankKey(m.comm, m.rank)];
  for (auto& h : refs.holders) {
    if (h.list != open) continue;
    --h.count;
    if (h.newest == idx) h.newest = -1;  // only read when count is 1: found again below
    if (h.count == 1 && h.newest < 0) {
      // The one left: the open membership of that communicator in this list.
      for (int i = lists_[open].head; i >= 0; i = comms[i].next[kOpenByRank]) {
        if (comms[i].comm == m.comm) h.newest = i;
      }
    }
  }
  if (lists_[open].counted) {
    for (int link : refs.links) HoldAll(job.links[link], link_raw_[link], open, m.comm, -1);
  }
}

void MembershipIndex::Forget(std::vector<ProcState>* procs, int proc, int idx) {
  Memberships& comms = (*procs)[proc].comms;
  ProcComm& m = comms[idx];
  for (int k = 0; k < kRecencyKinds; ++k) {
    if (m.list[k] < 0) continue;
    Unlink(comms, lists_[m.list[k]], idx, k);
    m.list[k] = -1;
  }
}

void MembershipIndex::Touch(std::vector<ProcState>* procs, int proc, int idx) {
  Memberships& comms = (*procs)[proc].comms;
  ProcComm& m = comms[idx];
  for (int k = 0; k < kRecencyKinds; ++k) {
    // Not on it, or its only member (the head's prev is the tail): nothing moves.
    if (m.list[k] < 0 || m.prev[k] == idx) continue;
    RecencyList& l = lists_[m.list[k]];
    if (l.head == idx) continue;
    Unlink(comms, l, idx, k);
    PushFront(comms, l, idx, k);
  }
}

void MembershipIndex::AddLink(const Job& job, int link, std::string_view raw) {
  if (link_raw_.size() <= static_cast<size_t>(link)) link_raw_.resize(link + 1, -1);
  const Link& l = job.links[link];
  if (l.comm < 0) return;
  auto it = raw_ids_.find(raw);
  if (it == raw_ids_.end())
    it = raw_ids_.emplace(std::string(raw), static_cast<int>(raw_ids_.size())).first;
  link_raw_[link] = it->second;
  comm_ranks_[CommRankKey(l.comm, l.src)].links.push_back(link);
  if (l.dst != l.src) comm_ranks_[CommRankKey(l.comm, l.dst)].links.push_back(link);
}

void MembershipIndex::Hold(const Link& l, int raw, int channel, int conn_index) {
  if (counted_lists_ == 0) return;  // Nothing counted yet: the usual job.
  for (int side = 0; side < 2; ++side) {
    const int rank = side == 0 ? l.src : l.dst;
    if (side == 1 && l.dst == l.src) break;
    auto it = comm_ranks_.find(CommRankKey(l.comm, rank));
    if (it == comm_ranks_.end()) continue;
    for (const auto& h : it->second.holders) {
      if (!lists_[h.list].counted) continue;
      Held& held = held_[HeldKey{h.list, l.src, l.dst, raw, channel, conn_index}];
      held.count += static_cast<uint32_t>(h.count);
      held.comm_sum += static_cast<uint64_t>(h.count) * static_cast<uint64_t>(l.comm);
    }
  }
}

void MembershipIndex::HoldAll(const Link& l, int raw, int list, int comm, int count) {
  auto add = [&](int channel, int conn) {
    Held& held = held_[HeldKey{list, l.src, l.dst, raw, channel, conn}];
    held.count += static_cast<uint32_t>(count);
    held.comm_sum += static_cast<uint64_t>(count) * static_cast<uint64_t>(comm);
  };
  for (int channel : l.channels) {
    add(channel, -1);
    for (int conn : l.conn_indexes) add(channel, conn);
  }
}

void MembershipIndex::ChannelAdded(const Job& job, int link, int channel) {
  const Link& l = job.links[link];
  if (l.comm < 0) return;
  const int raw = link_raw_[link];
  Hold(l, raw, channel, -1);
  for (int conn : l.conn_indexes) Hold(l, raw, channel, conn);
}

void MembershipIndex::ConnIndexAdded(const Job& job, int link, int conn_index) {
  const Link& l = job.links[link];
  if (l.comm < 0) return;
  const int raw = link_raw_[link];
  for (int channel : l.channels) Hold(l, raw, channel, conn_index);
}

Held MembershipIndex::HeldBy(int list, int src, int dst, std::string_view raw, int channel,
                             int conn_index) const {
  auto r = raw_ids_.find(raw);
  if (r == raw_ids_.end()) return {};
  auto it = held_.find(HeldKey{list, src, dst, r->second, channel, conn_index});
  return it == held_.end() ? Held{} : it->second;
}

int MembershipIndex::OnlyMembershipOf(int list, int comm, int rank) const {
  auto it = comm_ranks_.find(CommRankKey(comm, rank));
  if (it == comm_ranks_.end()) return -1;
  for (const auto& h : it->second.holders) {
    if (h.list == list) return h.count == 1 ? h.newest : -1;
  }
  return -1;
}

}  // namespace ncclscope
