// Internal state of JobBuilder, shared by the files that implement it (job_builder.cc,
// comm_tracker.cc, job_finish.cc). Not part of the public API.
#ifndef NCCLSCOPE_SRC_MODEL_BUILDER_STATE_H_
#define NCCLSCOPE_SRC_MODEL_BUILDER_STATE_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "incident_recorder.h"
#include "line_quotes.h"
#include "membership_index.h"
#include "ncclscope/base/text_pool.h"
#include "ncclscope/model/job.h"
#include "ncclscope/model/job_builder.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

/// Caps that keep memory bounded by the job, not by the log.
inline constexpr size_t kMaxEvidencePerRecord = 5;
inline constexpr size_t kMaxWarnRecords = 500;
inline constexpr size_t kMaxTrailsPerProcess = 12;
inline constexpr size_t kMaxFrameworkRecords = 200;
inline constexpr size_t kMaxUnrecognizedSamples = 20;

/// The text of a process's last line: a plain buffer that only grows (a memcpy per line, where
/// std::string::assign costs several times more), or, for a line whose text the reader keeps
/// for a while (EventContext::text_kept), a view copied only when that text expires
/// (JobBuilder::KeepLineTexts): a process's lines mostly replace each other long before then.
/// Moved into Process::last_line.text when the job is finished.
class LineText {
 public:
  void Set(std::string_view text) {
    if (text.size() > buf_.size()) buf_.resize(text.size() < 256 ? 256 : text.size() * 2);
    if (!text.empty()) std::memcpy(buf_.data(), text.data(), text.size());
    size_ = text.size();
    viewing_ = false;
  }
  /// Views `text` until Keep(). Returns true when it did not view a text already (the caller
  /// lists it for KeepLineTexts once).
  bool View(std::string_view text) {
    const bool first = !viewing_;
    view_ = text;
    viewing_ = true;
    return first;
  }
  /// Copies a viewed text into the buffer.
  void Keep() {
    if (viewing_) Set(view_);
  }
  std::string_view view() const { return viewing_ ? view_ : std::string_view(buf_.data(), size_); }

 private:
  std::vector<char> buf_;
  size_t size_ = 0;
  std::string_view view_;
  bool viewing_ = false;
};

/// A comm pointer of 8 to 16 bytes as a fixed-size key: its first and last eight bytes and its
/// length name it exactly. len == 0: not cacheable (other lengths), or an empty slot.
struct PtrKey {
  uint64_t head = 0, tail = 0;
  uint32_t len = 0;
  explicit PtrKey(std::string_view ptr) {
    if (ptr.size() < 8 || ptr.size() > 16) return;
    std::memcpy(&head, ptr.data(), 8);
    std::memcpy(&tail, ptr.data() + ptr.size() - 8, 8);
    len = static_cast<uint32_t>(ptr.size());
  }
  PtrKey() = default;
  bool operator==(const PtrKey&) const = default;
};
struct PtrHit {
  PtrKey key;
  int idx = -1;  ///< Index into ProcState::comms.
};

struct ProcState {
  /// Process::last_line, kept here (next to the per-line state) until the job is finished.
  bool has_line = false;
  uint32_t last_source = 0;
  uint64_t last_line = 0;
  LineText last_text;
  /// The process's last COLL line, quoted by LastCollective. Its text is last_text's while
  /// coll_in_last_text (a run of COLL lines replaces it line by line). When another line of the
  /// process comes, it is copied out only if the process is then behind another rank of that
  /// communicator (a rank that may be stuck), else dropped: a job of thousands of ranks keeps
  /// the texts of the few that lag, not one per rank.
  bool has_coll = false;
  bool coll_in_last_text = false;
  int last_coll_membership = -1;  ///< Index into comms of its membership, -1 if unknown.
  uint32_t last_coll_source = 0;
  uint64_t last_coll_line = 0;
  std::shared_ptr<std::string> last_coll_text;  ///< Its copy, while kept (shared by snapshots).
  Memberships comms;  ///< Chunked: a process may create thousands.
  int current = -1;  ///< Index into comms of the most recently active membership.
  int previous = -1;  ///< The one that was current before it (runs of COLL lines alternate).
  PtrIndex by_ptr;   ///< comms by their current pointer (cleared ones under "").
  int shared_ptrs = 0;  ///< Pointers of by_ptr held by more than one membership.
  /// The comm pointers MembershipByPtr resolved last, newest first (PtrKey; COLL lines of a
  /// process cycle through a few communicators). Exact while no pointer is shared, cleared
  /// whenever by_ptr changes.
  std::array<PtrHit, 4> ptr_hits{};
  bool saw_version = false;  ///< The process printed NCCL's version banner.
  int last_head_dev = -1;    ///< The `[dev]` of its last line's head (Process::head_devs).
  size_t open_from = 0;      ///< comms before this index are closed (a restart closed them).
  /// Anonymous (pre-commId) communicators created so far, per nranks, for old NCCL versions.
  std::map<int, int> anon_count;
  /// Slots of comms whose communicator was folded (comm_folding.cc), for the next memberships.
  std::vector<int> free_slots;
  /// Reused slots below open_from: still open, so the next restart must close them too.
  std::vector<int> reopened;
};

/// Links are looked up per line without allocating: integer key, then the raw text.
struct LinkBucketKey {
  int comm;
  int reporter;  ///< Only for unattributed links (comm == -1); else -1.
  int src;
  int dst;
  bool operator==(const LinkBucketKey&) const = default;
};
struct LinkBucketHash {
  size_t operator()(const LinkBucketKey& k) const {
    uint64_t h = static_cast<uint32_t>(k.comm);
    h = h * 1000003u ^ static_cast<uint32_t>(k.reporter);
    h = h * 1000003u ^ static_cast<uint32_t>(k.src);
    h = h * 1000003u ^ static_cast<uint32_t>(k.dst);
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct JobBuilder::State {
  bool remember_pointers = true;  ///< BuilderTuning::remember_pointers (ProcState::ptr_hits)
  // Processes by a hash of (host, pid), entries verified; in front of it a direct-mapped cache
  // for the interleaved lines of many processes (-1 when empty).
  std::unordered_map<uint64_t, std::vector<int>> proc_by_key;
  static constexpr int kProcCacheBits = 12;
  static constexpr size_t kProcCacheSize = size_t{1} << kProcCacheBits;
  std::array<int, kProcCacheSize> proc_cache = [] {
    std::array<int, kProcCacheSize> a{};
    a.fill(-1);
    return a;
  }();
  std::vector<ProcState> procs;
  /// Processes whose last line's text is a view (LineText::View), for KeepLineTexts.
  std::vector<int> viewed_texts;
  /// The highest opCount any rank's COLL line showed, per communicator (Job::comms index).
  std::vector<uint32_t> top_op_count;
  /// Processes of headless NCCL messages (no `host:pid:tid`), by what the prefixes say.
  std::map<std::string, int> headless_procs;

  std::unordered_map<std::string, int> comm_by_id;
  uint64_t tick = 0;
  MembershipIndex memberships;
  /// Process::global_rank → the first process (lowest index) with it, for framework lines.
  std::unordered_map<int, int> proc_of_global_rank;

  std::unordered_map<LinkBucketKey, std::vector<int>, LinkBucketHash> link_index;
  /// Link::raw, devices, mode and net: one copy of each distinct text.
  TextPool link_texts;

  /// Folding of ended communicators that repeat an earlier one's shape (comm_folding.cc).
  struct Folding {
    size_t from = 0;  ///< BuilderTuning::fold_from (0: off).
    /// Slots of Job::comms and Job::links freed by a fold, reused by the next ones created.
    std::vector<int> free_comms, free_links;
    /// Creation order of every slot's current occupant: Finish restores it when compacting.
    std::vector<uint64_t> comm_serial, link_serial;
    uint64_t next_serial = 0;
    /// Shape text (FoldShape) of ended communicators → the one kept for that shape.
    std::unordered_map<std::string, int> kept_by_shape;
    std::vector<char> kept;  ///< Per comm slot: it is some shape's kept communicator.
  } folding;

  /// Process of the lines of one NCCL prefix (EventContext::prefix_id) of one source: most
  /// lines skip FindOrAddProcess. Direct-mapped; an entry is used only if source, prefix id and
  /// pid all match.
  struct PrefixProcess {
    uint32_t source = 0;
    uint32_t prefix_id = 0;  ///< 0: empty
    uint32_t pid = 0;
    int proc = -1;
  };
  static constexpr size_t kPrefixProcessSize = 4096;
  std::array<PrefixProcess, kPrefixProcessSize> prefix_process{};

  /// GRAPH path lines: hostname → (busId a, busId b) → "count/bw/TYPE".
  std::map<std::string, std::map<std::pair<std::string, std::string>, std::string>> graph_paths;
  /// For unattributed connection lines: comm-local rank → printing process.
  std::map<int, int> unknown_rank_owner;

  std::unordered_map<std::string, int> warn_index;
  std::unordered_map<std::string, int> notice_index;
  std::map<std::pair<int, int>, int> torch_index;  ///< (pg_id, rank) → Job::torch_ranks index
  std::map<int, size_t> trails_per_process;

  std::array<uint64_t, std::variant_size_v<EventData>> events_by_index{};
  /// The line of the event being folded, quoted once for all the records that keep it.
  LineQuotes quotes;
  IncidentRecorder incidents;  ///< Job::incidents (incident_recorder.cc).
  std::vector<std::string> type_names;  ///< Filled lazily (EventTypeName per index).
  std::string last_origin_host;  ///< The previous line's origin host (most lines repeat it).
  /// NCCL_* assignments of pasted command lines (EnvSetting::command_line), with their source:
  /// Finish gives them to that source's processes that did not echo the variable.
  struct CommandSetting {
    uint32_t source = 0;
    std::string name;
    Setting setting;
  };
  std::vector<CommandSetting> command_env;
};

/// Helpers implemented in job_builder.cc and used by the other builder files.
int FindOrAddProcess(Job* job, JobBuilder::State* st, const EventContext& ctx);
/// The process of a headless message: one per (source, prefix identity, device).
int FindOrAddHeadlessProcess(Job* job, JobBuilder::State* st, const EventContext& ctx);

/// comm_tracker.cc
/// Takes membership `idx` out of ProcState::by_ptr (before its pointer changes or it is freed).
void DropMembershipPtr(ProcState* ps, int idx);
void OnCommInit(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                const CommInit& e);
/// The process printed NCCL's version banner (once per process: again means a restart).
void OnProcessStart(Job* job, JobBuilder::State* st, int proc);
void OnCommEnd(Job* job, JobBuilder::State* st, int proc, const CommEnd& e);
void OnCommTopology(Job* job, JobBuilder::State* st, int proc, const CommTopology& e);
void OnRingOrder(Job* job, JobBuilder::State* st, int proc, const RingOrder& e);
void OnInitTimings(Job* job, JobBuilder::State* st, int proc, const InitTimings& e);
void OnChannelCounts(Job* job, JobBuilder::State* st, int proc, const ChannelCounts& e);
void OnGraphPattern(Job* job, JobBuilder::State* st, int proc, const GraphPattern& e);
void OnCollective(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                  const Collective& e);
void OnConnection(Job* job, JobBuilder::State* st, int proc, const EventContext& ctx,
                  const Connection& e);

/// comm_folding.cc
/// Index slot for a new communicator / link (a freed one, else the end); records its creation
/// order. The caller stores the record at that index (assigning, or push_back at the end).
int NewCommSlot(Job* job, JobBuilder::State* st);
int NewLinkSlot(Job* job, JobBuilder::State* st);
/// After the last rank of `comm` ended: folds it into an earlier communicator of the same shape
/// when the job is large enough (BuilderTuning::fold_from), freeing its slots.
void FoldIfRepeat(Job* job, JobBuilder::State* st, int comm);
/// Removes freed slots from Job::comms and Job::links, in creation order (first step of Finish).
void CompactFolded(Job* job, JobBuilder::State* st);

/// job_finish.cc
void FinishJob(Job* job, JobBuilder::State* st, const BuildOptions& options);

}  // namespace ncclscope

#endif  // NCCLSCOPE_SRC_MODEL_BUILDER_STATE_H_
