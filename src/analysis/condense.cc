// CondenseInput / ReplayCondensed: the lines of an input that the job model needs, and their
// replay. The rules for what may be dropped follow JobBuilder (src/model): see condensed.h.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "ncclscope/analysis/condensed.h"
#include "ncclscope/analysis/event_pipeline.h"
#include "ncclscope/parse/line_parser.h"

namespace ncclscope {
namespace {

constexpr size_t kEventTypes = std::variant_size_v<EventData>;

/// A line's text held between events: a buffer that only grows (a memcpy per line; replacing a
/// std::string's contents costs several times more).
class TextBuf {
 public:
  void Set(std::string_view s) {
    if (s.size() > buf_.size()) buf_.resize(std::max<size_t>(s.size(), 2 * buf_.size()));
    if (!s.empty()) std::memcpy(buf_.data(), s.data(), s.size());
    size_ = s.size();
  }
  void Clear() { size_ = 0; }
  std::string_view view() const { return {buf_.data(), size_}; }

 private:
  std::vector<char> buf_;
  size_t size_ = 0;
};

/// A line not yet known to be kept: what CondensedLine holds, in reusable buffers.
struct HeldLine {
  uint32_t source = 0;
  uint64_t line = 0;
  int launcher_rank = -1;
  uint32_t origin_pid = 0;
  MultiNodePrefix multi_node = MultiNodePrefix::kNone;
  TextBuf text;
  TextBuf timestamp;
  TextBuf origin_host;

  void Set(const Event& e) {
    source = e.ctx.source;
    line = e.ctx.line;
    text.Set(e.ctx.text);
    const LineMeta* meta = e.ctx.meta;
    if (meta == nullptr) {
      launcher_rank = -1;
      timestamp.Clear();
      origin_host.Clear();
      origin_pid = 0;
      multi_node = MultiNodePrefix::kNone;
      return;
    }
    launcher_rank = meta->launcher_rank;
    // Most lines have no collector prefix: no copy then.
    if (meta->timestamp.empty()) {
      timestamp.Clear();
    } else {
      timestamp.Set(meta->timestamp);
    }
    if (meta->origin_host.empty()) {
      origin_host.Clear();
    } else {
      origin_host.Set(meta->origin_host);
    }
    origin_pid = meta->origin_pid;
    multi_node = meta->multi_node;
  }
  CondensedLine Take(TextArena* arena) const {
    CondensedLine l;
    l.source = source;
    l.line = line;
    l.text = arena->Add(text.view());
    l.launcher_rank = launcher_rank;
    l.timestamp = arena->Add(timestamp.view());
    l.origin_host = arena->Add(origin_host.view());
    l.origin_pid = origin_pid;
    l.multi_node = multi_node;
    return l;
  }
};

/// What replay needs of an event's line, its texts copied into `arena`.
CondensedLine MakeLine(const Event& e, TextArena* arena) {
  CondensedLine l;
  l.source = e.ctx.source;
  l.line = e.ctx.line;
  l.text = arena->Add(e.ctx.text);
  if (e.ctx.meta) {
    l.launcher_rank = e.ctx.meta->launcher_rank;
    l.timestamp = arena->Add(e.ctx.meta->timestamp);
    l.origin_host = arena->Add(e.ctx.meta->origin_host);
    l.origin_pid = e.ctx.meta->origin_pid;
    l.multi_node = e.ctx.meta->multi_node;
  }
  return l;
}

/// A folded line that may turn out to be the last event of its process in its source.
struct PendingLast {
  uint32_t source = 0;
  bool valid = false;
  size_t type = 0;  ///< Variant index of its event.
  HeldLine line;
};

/// One COLL line of a run, with its communicator pointer.
struct RunEntry {
  std::string comm;
  HeldLine line;
};

/// Per process (host, pid) of one input.
struct ProcTrack {
  std::string host;
  uint32_t pid = 0;
  /// The COLL lines since the process's last kept event, at most one per communicator pointer:
  /// the last one. Within a run only the order of each communicator's last touch matters. A run
  /// holds the communicators a process used between two kept lines: a few. Entries past
  /// run_size are spare buffers.
  std::vector<RunEntry> run;
  size_t run_size = 0;
  std::vector<uint32_t> sources_seen;  ///< Sources in which this process printed an event.
  std::vector<PendingLast> pending;    ///< Per source: its folded last event, if any.
  /// (operation, algorithm, protocol) of the TUNING lines kept: the first line of each choice
  /// is kept (Process::coll_algos), the repeats are folded.
  std::set<std::string, std::less<>> algos;

  PendingLast* Pending(uint32_t source) {
    for (auto& p : pending) {
      if (p.source == source) return &p;
    }
    pending.emplace_back();
    pending.back().source = source;
    return &pending.back();
  }
  void DropPending(uint32_t source) {
    for (auto& p : pending) {
      if (p.source == source) p.valid = false;
    }
  }
};

class Condenser {
 public:
  explicit Condenser(CondensedInput* out) : out_(out) {}

  /// Receives every event of the input in order.
  void OnEvent(const Event& e, std::vector<SourceInfo>* sources) {
    SourceInfo& s = (*sources)[e.ctx.source];
    ++s.events;
    const size_t type = e.data.index();
    if (const auto* u = std::get_if<Unrecognized>(&e.data))
      ++(u->mention ? s.unrecognized_mentions : s.unrecognized);
    ProcTrack* proc = e.ctx.host.empty() ? nullptr : Track(e.ctx);
    bool first_in_source = false;
    if (proc) {
      auto& seen = proc->sources_seen;
      if (std::find(seen.begin(), seen.end(), e.ctx.source) == seen.end()) {
        seen.push_back(e.ctx.source);
        first_in_source = true;
      }
    }
    // TUNING lines are noise except the first of each choice of a process (Process::coll_algos).
    const auto* algo = std::get_if<CollAlgo>(&e.data);
    const bool noise = std::holds_alternative<KnownNoise>(e.data) ||
                       (algo && !(proc && NewAlgo(proc, *algo)));
    if (proc && !first_in_source) {
      if (const auto* c = std::get_if<Collective>(&e.data)) {
        AddToRun(proc, *c, e);
        return;
      }
      if (noise) {
        // Counters only. Kept in case it is the process's last line in this source.
        Fold(e.ctx.source, e.data);
        PendingLast* p = proc->Pending(e.ctx.source);
        p->valid = true;
        p->type = type;
        p->line.Set(e);
        return;
      }
    } else if (!proc && std::holds_alternative<KnownNoise>(e.data)) {
      Fold(e.ctx.source, e.data);
      return;
    }
    if (proc) {
      FlushRun(proc);
      proc->DropPending(e.ctx.source);
    }
    if (NeedsLastErrorMarker(e)) {
      AddMarker(e, LastErrorMarker(e));
    } else if (NeedsStallHeader(e)) {
      AddMarker(e, "Stalled ranks:");
    }
    out_->lines.push_back(MakeLine(e, &out_->arena));
  }

  /// Flushes the runs, promotes the pending last lines and fills the folded counters.
  void Finish(std::vector<SourceInfo> sources) {
    for (auto& proc : tracks_) {
      FlushRun(&proc);
      for (auto& p : proc.pending) {
        if (!p.valid) continue;
        --folded_[p.source][p.type];
        out_->lines.push_back(p.line.Take(&out_->arena));
      }
    }
    // Runs and last lines were added late: back to input order (sorting the line numbers, then
    // moving each line once).
    auto& lines = out_->lines;
    std::vector<std::pair<uint64_t, uint32_t>> order(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) order[i] = {lines[i].line, static_cast<uint32_t>(i)};
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<CondensedLine> sorted;
    sorted.reserve(lines.size());
    for (const auto& [line, i] : order) sorted.push_back(std::move(lines[i]));
    lines = std::move(sorted);
    out_->sources.reserve(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      CondensedSource cs;
      cs.info = std::move(sources[i]);
      if (i < folded_.size()) {
        for (size_t t = 0; t < kEventTypes; ++t) {
          if (folded_[i][t] > 0) cs.folded.emplace(std::string(type_names_[t]), folded_[i][t]);
        }
      }
      out_->sources.push_back(std::move(cs));
    }
  }

 private:
  void Fold(uint32_t source, const EventData& data) {
    if (folded_.size() <= source) folded_.resize(source + 1);
    const size_t t = data.index();
    if (type_names_[t].empty()) type_names_[t] = EventTypeName(data);
    ++folded_[source][t];
  }

  /// The process of a line: by the parser's prefix id first (most lines), else by host and pid.
  ProcTrack* Track(const EventContext& ctx) {
    CacheSlot* slot = nullptr;
    if (ctx.prefix_id != 0) {
      slot = &cache_[(ctx.prefix_id * 2654435761u ^ ctx.source) % kCacheSize];
      if (slot->prefix_id == ctx.prefix_id && slot->source == ctx.source && slot->pid == ctx.pid)
        return slot->track;
    }
    const uint64_t key = std::hash<std::string_view>{}(ctx.host) ^ (uint64_t{ctx.pid} * 0x9E3779B97F4A7C15ull);
    auto& bucket = by_key_[key];
    ProcTrack* found = nullptr;
    for (ProcTrack* p : bucket) {
      if (p->pid == ctx.pid && p->host == ctx.host) found = p;
    }
    if (!found) {
      tracks_.emplace_back();
      found = &tracks_.back();
      found->host = std::string(ctx.host);
      found->pid = ctx.pid;
      bucket.push_back(found);
    }
    if (slot) *slot = CacheSlot{ctx.source, ctx.prefix_id, ctx.pid, found};
    return found;
  }

  /// A COLL line touches its communicator (JobBuilder: OnCollective) and nothing else. Of a run
  /// of them, replaying only each communicator's last touch, in order, leaves the same current
  /// communicator and the same order of last activity: the others are folded.
  void AddToRun(ProcTrack* proc, const Collective& c, const Event& e) {
    proc->DropPending(e.ctx.source);  // A later line of the process follows.
    auto& run = proc->run;
    const size_t n = proc->run_size;
    for (size_t i = 0; i < n; ++i) {
      if (run[i].comm != c.comm) continue;
      Fold(run[i].line.source, e.data);
      // Move it to the end (the newest) and reuse its buffers for this line.
      std::rotate(run.begin() + static_cast<ptrdiff_t>(i),
                  run.begin() + static_cast<ptrdiff_t>(i) + 1,
                  run.begin() + static_cast<ptrdiff_t>(n));
      run[n - 1].line.Set(e);
      return;
    }
    if (n == run.size()) run.emplace_back();
    run[n].comm.assign(c.comm);
    run[n].line.Set(e);
    proc->run_size = n + 1;
  }

  /// True the first time this process reports this (operation, algorithm, protocol).
  bool NewAlgo(ProcTrack* proc, const CollAlgo& a) {
    algo_key_.clear();
    algo_key_.append(a.op).append(1, ' ').append(a.algo).append(1, '/').append(a.proto);
    if (proc->algos.find(std::string_view(algo_key_)) != proc->algos.end()) return false;
    proc->algos.emplace(algo_key_);
    return true;
  }

  void FlushRun(ProcTrack* proc) {
    for (size_t i = 0; i < proc->run_size; ++i)
      out_->lines.push_back(proc->run[i].line.Take(&out_->arena));
    proc->run_size = 0;
  }

  /// The "Last error:" line before a detail line: with the detail line's logger head, if any
  /// (`ERROR 04-07 00:57:46 ray_utils.py:45] Last error:`), so that replay reads it alike.
  static std::string LastErrorMarker(const Event& e) {
    const auto* w = std::get_if<Warning>(&e.data);
    const std::string_view text = e.ctx.text;
    std::string marker;
    if (w != nullptr && w->message.data() > text.data() &&
        w->message.data() <= text.data() + text.size()) {
      marker.assign(text.substr(0, static_cast<size_t>(w->message.data() - text.data())));
    }
    return marker + "Last error:";
  }

  /// A line before `e` that gives replay's parser the state it had when it parsed `e`.
  void AddMarker(const Event& e, std::string_view text) {
    CondensedLine marker;
    marker.source = e.ctx.source;
    marker.line = e.ctx.line > 0 ? e.ctx.line - 1 : 0;
    marker.text = out_->arena.Add(text);
    out_->lines.push_back(std::move(marker));
  }

  /// What `text` gives a parser that has not seen the lines before it (its first event).
  static bool ParseAlone(std::string_view text, Event* alone) {
    LineParser fresh;
    Line line;
    line.text = text;
    return fresh.Parse(line, alone) == ParseOutcome::kEvent;
  }

  /// A rank line of Horovod's stall report that the parser read only because "Stalled ranks:"
  /// came before it (LineParser keeps that too): replay needs a header before it.
  static bool NeedsStallHeader(const Event& e) {
    const auto* f = std::get_if<FrameworkEvent>(&e.data);
    if (f == nullptr || f->kind != FrameworkKind::kStallMissing) return false;
    Event alone;
    if (!ParseAlone(e.ctx.text, &alone)) return true;
    const auto* f2 = std::get_if<FrameworkEvent>(&alone.data);
    return f2 == nullptr || f2->kind != FrameworkKind::kStallMissing;
  }

  /// A PyTorch-level warning that the parser produced only because the previous line was
  /// "Last error:" (LineParser keeps that one bit of state): replay needs that line too.
  static bool NeedsLastErrorMarker(const Event& e) {
    if (e.ctx.level != Level::kTorch) return false;
    const auto* w = std::get_if<Warning>(&e.data);
    if (!w) return false;
    Event alone;
    if (!ParseAlone(e.ctx.text, &alone)) return true;
    const auto* w2 = std::get_if<Warning>(&alone.data);
    return !w2 || alone.ctx.level != Level::kTorch || w2->message != w->message;
  }

  struct CacheSlot {
    uint32_t source = 0;
    uint32_t prefix_id = 0;  ///< 0: empty
    uint32_t pid = 0;
    ProcTrack* track = nullptr;
  };
  static constexpr size_t kCacheSize = 512;

  CondensedInput* out_;
  std::deque<ProcTrack> tracks_;  ///< Stable addresses.
  std::string algo_key_;          ///< NewAlgo's buffer.
  std::unordered_map<uint64_t, std::vector<ProcTrack*>> by_key_;
  std::array<CacheSlot, kCacheSize> cache_{};
  std::vector<std::array<uint64_t, kEventTypes>> folded_;  ///< source → type index → count
  std::array<std::string_view, kEventTypes> type_names_{};
};

CondensedInput Condense(const InputPath& input, std::unique_ptr<ByteSource> bytes,
                        std::string primer = {}) {
  CondensedInput out;
  out.path = input.path;
  out.name = input.name;
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
  pipeline.set_primer(std::move(primer));
  Condenser condenser(&out);
  auto sink = [&](const Event& e) { condenser.OnEvent(e, &sources); };
  if (bytes) {
    pipeline.Run(std::move(bytes), input, sink, &out.problems);
  } else {
    pipeline.Run(input, sink, &out.problems);
  }
  out.bytes = stats.bytes;
  condenser.Finish(std::move(sources));
  return out;
}

}  // namespace

CondensedInput CondenseInput(const InputPath& input) { return Condense(input, nullptr); }

CondensedInput CondenseInput(std::unique_ptr<ByteSource> bytes, const InputPath& input) {
  return Condense(input, std::move(bytes));
}

CondensedInput CondenseInput(const InputPath& input, const InputPiece& piece) {
  if (piece.whole) return Condense(input, nullptr);
  Status err;
  auto bytes = OpenPieceBytes(input, piece, &err);
  if (!bytes) {
    // The file went away since it was planned: report it as an unreadable input.
    CondensedInput out;
    out.path = input.path;
    out.name = input.name;
    CondensedSource s;
    s.info.name = input.name;
    s.info.problem = err.message();
    out.sources.push_back(std::move(s));
    out.problems.push_back(InputProblem{input.path, err.message()});
    return out;
  }
  return Condense(input, std::move(bytes), piece.primer);
}

struct CondensedReplay::State {
  bool open = false;     ///< An input is being replayed.
  bool stopped = false;  ///< A piece of it was damaged: its later pieces are ignored.
  uint32_t input_source = 0;
  std::map<std::string, uint32_t, std::less<>> pods;  ///< pod → job source, this input
  uint64_t line_offset = 0;
  LineParser parser;
};

CondensedReplay::CondensedReplay(Job* job, JobBuilder* builder,
                                 std::vector<InputProblem>* problems)
    : job_(job), builder_(builder), problems_(problems), state_(std::make_unique<State>()) {}
CondensedReplay::~CondensedReplay() = default;

void CondensedReplay::FinishInput() {
  state_ = std::make_unique<State>();
}

void CondensedReplay::Add(const CondensedInput& piece) {
  State& st = *state_;
  if (st.stopped) return;
  // Job source of each of the piece's sources: the input itself first, then its pods.
  std::vector<uint32_t> to_job(piece.sources.size());
  uint64_t lines = 0;
  for (size_t i = 0; i < piece.sources.size(); ++i) {
    const SourceInfo& s = piece.sources[i].info;
    lines += s.lines;
    uint32_t idx;
    auto pod = st.pods.find(s.pod);
    if (st.open && i == 0) {
      idx = st.input_source;
    } else if (st.open && pod != st.pods.end()) {
      idx = pod->second;
    } else {
      // The first piece brings every source in order; a later one, pods not seen before.
      idx = static_cast<uint32_t>(job_->sources.size());
      SourceInfo info;
      info.name = s.name;
      info.pod = s.pod;
      job_->sources.push_back(std::move(info));
      if (i == 0) st.input_source = idx;
      if (i > 0) st.pods.emplace(s.pod, idx);
    }
    to_job[i] = idx;
    // Counted again by the builder: events (kept lines + folded counts), unrecognized lines.
    SourceInfo& t = job_->sources[idx];
    t.lines += s.lines;
    t.nccl_lines += s.nccl_lines;
    t.info_lines += s.info_lines;
    t.framework_lines += s.framework_lines;
    t.mention_lines += s.mention_lines;
    t.malformed_records += s.malformed_records;
    t.truncated_lines += s.truncated_lines;
    t.nul_lines += s.nul_lines;
    t.invalid_utf8_lines += s.invalid_utf8_lines;
    t.wrap_width = std::max(t.wrap_width, s.wrap_width);
    t.rejoined_lines += s.rejoined_lines;
    if (t.problem.empty()) t.problem = s.problem;
    job_->stats.lines += s.lines;
    job_->stats.nccl_lines += s.nccl_lines;
    job_->stats.info_lines += s.info_lines;
    job_->stats.framework_lines += s.framework_lines;
    job_->stats.mention_lines += s.mention_lines;
  }
  st.open = true;
  job_->stats.bytes += piece.bytes;
  Event event;
  for (const auto& l : piece.lines) {
    if (l.source >= to_job.size()) continue;  // Damaged summary: ignore the line.
    Line line;
    line.text = l.text;
    line.number = st.line_offset + l.line;
    line.source = to_job[l.source];
    line.meta.timestamp = l.timestamp;
    line.meta.launcher_rank = l.launcher_rank;
    line.meta.origin_host = l.origin_host;
    line.meta.origin_pid = l.origin_pid;
    line.meta.multi_node = l.multi_node;
    line.meta.pod = piece.sources[l.source].info.pod;
    if (st.parser.Parse(line, &event) == ParseOutcome::kEvent) builder_->Add(event);
  }
  for (size_t i = 0; i < piece.sources.size(); ++i) {
    for (const auto& [type, n] : piece.sources[i].folded)
      builder_->AddFoldedEvents(to_job[i], type, n);
  }
  st.line_offset += lines;
  problems_->insert(problems_->end(), piece.problems.begin(), piece.problems.end());
  if (!piece.problems.empty()) st.stopped = true;
}

void ReplayCondensed(const CondensedInput& input, Job* job, JobBuilder* builder,
                     std::vector<InputProblem>* problems) {
  CondensedReplay replay(job, builder, problems);
  replay.Add(input);
}

size_t CondensedBytes(const CondensedInput& input) {
  size_t n = sizeof(input) + input.lines.capacity() * sizeof(CondensedLine) + input.arena.bytes();
  for (const auto& s : input.sources) n += sizeof(s) + s.info.name.size() + s.folded.size() * 64;
  return n;
}

}  // namespace ncclscope
