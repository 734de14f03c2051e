// MembershipIndex: the communicator memberships of every process, indexed so that the builder's
// per-line questions cost O(1) amortised however many communicators, restarts or ranks the job has:
//
// - "the membership of this process whose comm pointer is P" (COLL, topology, end lines):
//   PtrIndex, per process;
// - "the most recently active membership with rank R (and size N)" (ring order, init timings):
//   recency lists per (process, rank), (process, rank, size) and (process, size), most recent
//   first, a membership moved to their fronts when it is touched;
// - "which memberships with rank R could have printed this connection line, and is there only
//   one" (connection attribution): the (process, rank) list, plus per (process, rank) and
//   connection (src, dst, transport, channel, connection index) the number of its memberships
//   whose communicator already has that connection (Held), kept up to date as links gain
//   channels. Memberships that lack the connection are the candidates; when there is one, the
//   sum of communicator indexes names it without a walk. Counting starts when a list reaches
//   count_from open memberships: shorter lists are simply walked.
//
// Internal to the builder (src/model); the attribution rules themselves are in comm_tracker.cc.
#ifndef NCCLSCOPE_SRC_MODEL_MEMBERSHIP_INDEX_H_
#define NCCLSCOPE_SRC_MODEL_MEMBERSHIP_INDEX_H_

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "list_id_table.h"
#include "ncclscope/base/chunked_vector.h"
#include "ncclscope/base/flat_int_set.h"
#include "ncclscope/model/job.h"

namespace ncclscope {

/// The recency lists a membership is on. kOpenByRank holds only open memberships: not ended
/// (Destroy/Abort/Revoke printed for it) and not left behind by a restart of the process.
enum RecencyKind : int {
  kByRank = 0,
  kByRankSize = 1,
  kBySize = 2,
  kOpenByRank = 3,
  kRecencyKinds = 4
};

/// One communicator membership of a process.
struct ProcComm {
  int index = -1;  ///< Its position in ProcState::comms.
  int comm = -1;
  int rank = -1;
  int nranks = 0;
  uint64_t last_activity = 0;
  std::string ptr;
  /// Its last COLL line's opCount (LastCollective, written into the job when it is finished);
  /// saturates at 2^32 - 1 (four billion collectives of one communicator).
  bool coll_seen = false;
  bool p2p = false;  ///< It logged Send or Recv.
  uint32_t op_count = 0;
  /// Per RecencyKind: the list (MembershipIndex::lists) and the neighbours in it (indexes into
  /// ProcState::comms; -1 at the ends). Lists are ordered by last_activity, newest first.
  std::array<int, kRecencyKinds> list{-1, -1, -1, -1};  ///< -1: not on it (closed)
  std::array<int, kRecencyKinds> prev{-1, -1, -1, -1};
  std::array<int, kRecencyKinds> next{-1, -1, -1, -1};
};

/// A process's memberships. Small chunks: most processes have a few, and a job of one file per
/// rank has thousands of processes.
using Memberships = ChunkedVector<ProcComm, 512>;

/// Memberships of one process by comm pointer: pointer → indexes into ProcState::comms, in
/// increasing order (a pointer is reused after a communicator is destroyed; NCCL's lines name
/// the oldest first). Nearly always one index: a FlatIntSet, not a tree node per index.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using PtrIndex = std::unordered_map<std::string, FlatIntSet, StringHash, std::equal_to<>>;

/// One recency list: its newest member, its length and (for kOpenByRank lists) the sum of the
/// communicator indexes of its members.
struct RecencyList {
  uint64_t comm_sum = 0;
  int head = -1;
  int size : 31 = 0;  ///< A process holds far fewer than 2^30 memberships. 16 bytes a list.
  /// Held counts are kept for this list (kOpenByRank lists that reached count_from members).
  bool counted : 1 = false;
};

/// A connection as one line names it, seen from the memberships of one (process, rank) list.
struct HeldKey {
  int list = -1;
  int src = -1, dst = -1;
  int raw = -1;  ///< MembershipIndex::raw_ids
  int channel = -1;
  int conn_index = -1;  ///< -1: any (the line has no connection index)
  bool operator==(const HeldKey&) const = default;
};
struct HeldKeyHash {
  size_t operator()(const HeldKey& k) const {
    uint64_t h = static_cast<uint32_t>(k.list);
    for (int v : {k.src, k.dst, k.raw, k.channel, k.conn_index})
      h = (h ^ static_cast<uint32_t>(v)) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};
/// How many members of the list hold the connection, and the sum of their communicators.
struct Held {
  uint32_t count = 0;
  uint64_t comm_sum = 0;
};

/// For one rank of one communicator: the links that touch it and the open (process, rank) lists
/// that hold memberships of it.
struct CommRankRefs {
  struct Holder {
    int list = -1;
    int count = 0;    ///< Memberships of the communicator in that list.
    int newest = -1;  ///< The last one added (index into its process's comms).
  };
  std::vector<int> links;
  std::vector<Holder> holders;
  /// Every membership of the communicator with this rank, open or closed: (process, index into
  /// its comms).
  std::vector<std::pair<int, int>> members;
};

struct ProcState;

class MembershipIndex {
 public:
  /// Open lists shorter than count_from are walked; from that size on, their held connections
  /// are counted (a count per connection and channel costs more memory than a short walk).
  void set_count_from(int n) { count_from_ = n; }

  /// Adds membership `idx` of process `proc` (already in procs[proc].comms) to its lists, as the
  /// least recent member (Touch follows), and counts the connections its communicator has.
  void Add(const Job& job, std::vector<ProcState>* procs, int proc, int idx);
  /// Moves the membership to the front of its lists.
  void Touch(std::vector<ProcState>* procs, int proc, int idx);
  /// Takes an open membership off the open list (its communicator ended, or the process
  /// restarted): it no longer counts for connection attribution. No-op if already closed.
  void Close(const Job& job, std::vector<ProcState>* procs, int proc, int idx);

  /// Takes a closed membership off every list, before its slot is reused (its communicator was
  /// folded). Its open-list bookkeeping must be gone already (Close).
  void Forget(std::vector<ProcState>* procs, int proc, int idx);
  /// The references of (communicator, rank): its links and memberships; nullptr if none.
  const CommRankRefs* FindCommRank(int comm, int rank) const {
    auto it = comm_ranks_.find(CommRankKey(comm, rank));
    return it == comm_ranks_.end() ? nullptr : &it->second;
  }
  /// Drops them (the communicator was folded; its slot will be reused).
  void EraseCommRank(int comm, int rank) { comm_ranks_.erase(CommRankKey(comm, rank)); }
  /// The link's slot is free (its communicator was folded).
  void ForgetLink(int link) {
    if (static_cast<size_t>(link) < link_raw_.size()) link_raw_[link] = -1;
  }

  /// List of the process's memberships with this rank (kByRank), -1 if none.
  int RankList(int proc, int rank) const { return Find(proc, kByRank, rank, 0); }
  /// List of its open memberships with this rank (kOpenByRank), -1 if none ever.
  int OpenRankList(int proc, int rank) const { return Find(proc, kOpenByRank, rank, 0); }
  /// List of memberships with this rank and size (kByRankSize), or of this size (kBySize).
  int RankSizeList(int proc, int rank, int nranks) const {
    return Find(proc, kByRankSize, rank, nranks);
  }
  int SizeList(int proc, int nranks) const { return Find(proc, kBySize, -1, nranks); }
  const RecencyList& list(int id) const { return lists_[id]; }

  /// Registers a new link of a known communicator (before its first channel is added).
  void AddLink(const Job& job, int link, std::string_view raw);
  /// The link gained a channel / a connection index: its communicator's memberships now hold
  /// those connections. Call after inserting the value into the link's set.
  void ChannelAdded(const Job& job, int link, int channel);
  void ConnIndexAdded(const Job& job, int link, int conn_index);

  /// Members of `list` whose communicator holds the connection (src, dst, raw, channel, conn).
  /// Only for lists with `counted` set.
  Held HeldBy(int list, int src, int dst, std::string_view raw, int channel, int conn_index) const;
  /// The membership of communicator `comm` in `list` if it holds exactly one, else -1.
  int OnlyMembershipOf(int list, int comm, int rank) const;

 private:
  static uint64_t CommRankKey(int comm, int rank) {
    return uint64_t{static_cast<uint32_t>(comm)} << 32 | static_cast<uint32_t>(rank);
  }

  int Find(int proc, int kind, int rank, int nranks) const;
  int FindOrAdd(int proc, int kind, int rank, int nranks);
  static void Unlink(Memberships& comms, RecencyList& l, int idx, int kind);
  static void PushFront(Memberships& comms, RecencyList& l, int idx, int kind);
  static void PushBack(Memberships& comms, RecencyList& l, int idx, int kind);
  /// Adds `count` (may be -1) memberships of communicator `comm` in `list` to the holders of
  /// every (channel, connection index) pair that link `l` has.
  void HoldAll(const Link& l, int raw, int list, int comm, int count);
  /// Starts counting a list's held connections: once, when it reaches count_from members.
  void StartCounting(const Job& job, const Memberships& comms, int list);
  /// Adds the holders of (comm, src) and (comm, dst) to the connection's counts.
  void Hold(const Link& l, int raw, int channel, int conn_index);

  int count_from_ = 8;
  int counted_lists_ = 0;
  std::vector<RecencyList> lists_;
  ListIdTable list_ids_;
  std::unordered_map<uint64_t, CommRankRefs> comm_ranks_;
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> raw_ids_;
  std::vector<int> link_raw_;  ///< Raw id per link index (-1 for links of unknown comm).
  std::unordered_map<HeldKey, Held, HeldKeyHash> held_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_MEMBERSHIP_INDEX_H_
