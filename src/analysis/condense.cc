// CondenseInput / ReplayCondensed: the lines of an input that the job model needs, and their
// replay. The rules for what may be dropped follow JobBuilder (src/model): see condensed.h.
#include <algorithm>
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

/// A folded line that may turn out to be the last event of its process in its source.
struct PendingLast {
  CondensedLine line;
  std::string_view type;  ///< EventTypeName of its event (static storage).
};

/// One COLL line of a run, with its communicator pointer.
struct RunEntry {
  std::string comm;
  CondensedLine line;
};

/// Per process (host, pid) of one input.
struct ProcTrack {
  std::string host;
  /// The COLL lines since the process's last kept event, at most one per communicator pointer:
  /// the last one. Within a run only the order of each communicator's last touch matters.
  std::vector<RunEntry> run;
  std::vector<uint32_t> sources_seen;  ///< Sources in which this process printed an event.
  std::unordered_map<uint32_t, PendingLast> pending;  ///< source → folded last event, if any.
  /// (operation, algorithm, protocol) of the TUNING lines kept: the first line of each choice
  /// is kept (Process::coll_algos), the repeats are folded.
  std::set<std::string> algos;
};

class Condenser {
 public:
  explicit Condenser(CondensedInput* out) : out_(out) {}

  /// Receives every event of the input in order.
  void OnEvent(const Event& e, std::vector<SourceInfo>* sources) {
    SourceInfo& s = (*sources)[e.ctx.source];
    ++s.events;
    if (const auto* u = std::get_if<Unrecognized>(&e.data)) ++(u->mention ? s.unrecognized_mentions : s.unrecognized);
    ProcTrack* proc = e.ctx.host.empty() ? nullptr : Track(e.ctx);
    bool first_in_source = false;
    if (proc) {
      auto& seen = proc->sources_seen;
      if (std::find(seen.begin(), seen.end(), e.ctx.source) == seen.end()) {
        seen.push_back(e.ctx.source);
        first_in_source = true;
      }
    }
    if (proc && !first_in_source) {
      if (const auto* c = std::get_if<Collective>(&e.data)) {
        AddToRun(proc, *c, e);
        return;
      }
      const auto* algo = std::get_if<CollAlgo>(&e.data);
      if (std::holds_alternative<KnownNoise>(e.data) || (algo && !NewAlgo(proc, *algo))) {
        // Counters only. Kept in case it is the process's last line in this source.
        std::string_view type = EventTypeName(e.data);
        ++folded_[e.ctx.source][type];
        proc->pending[e.ctx.source] = PendingLast{MakeLine(e), type};
        return;
      }
    } else if (!proc && std::holds_alternative<KnownNoise>(e.data)) {
      ++folded_[e.ctx.source][EventTypeName(e.data)];
      return;
    }
    if (proc) {
      FlushRun(proc);
      proc->pending.erase(e.ctx.source);
    }
    if (NeedsLastErrorMarker(e)) {
      CondensedLine marker;
      marker.source = e.ctx.source;
      marker.line = e.ctx.line > 0 ? e.ctx.line - 1 : 0;
      marker.text = "Last error:";
      out_->lines.push_back(std::move(marker));
    }
    out_->lines.push_back(MakeLine(e));
  }

  /// Flushes the runs, promotes the pending last lines and fills the folded counters.
  void Finish(std::vector<SourceInfo> sources) {
    for (auto& [pid, bucket] : procs_) {
      for (auto& proc : bucket) {
        FlushRun(&proc);
        for (auto& [source, p] : proc.pending) {
          --folded_[source][p.type];
          out_->lines.push_back(std::move(p.line));
        }
      }
    }
    // Runs and last lines were added late: back to input order.
    std::stable_sort(
        out_->lines.begin(), out_->lines.end(),
        [](const CondensedLine& a, const CondensedLine& b) { return a.line < b.line; });
    out_->sources.reserve(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      CondensedSource cs;
      cs.info = std::move(sources[i]);
      auto it = folded_.find(static_cast<uint32_t>(i));
      if (it != folded_.end()) {
        for (const auto& [type, n] : it->second) {
          if (n > 0) cs.folded.emplace(std::string(type), n);
        }
      }
      out_->sources.push_back(std::move(cs));
    }
  }

 private:
  ProcTrack* Track(const EventContext& ctx) {
    if (last_ && last_pid_ == ctx.pid && last_->host == ctx.host) return last_;
    auto& bucket = procs_[ctx.pid];
    ProcTrack* found = nullptr;
    for (auto& p : bucket) {
      if (p.host == ctx.host) found = &p;
    }
    if (!found) {
      bucket.emplace_back();
      bucket.back().host = std::string(ctx.host);
      found = &bucket.back();
    }
    last_ = found;
    last_pid_ = ctx.pid;
    return found;
  }

  /// A COLL line touches its communicator (JobBuilder: OnCollective) and nothing else. Of a run
  /// of them, replaying only each communicator's last touch, in order, leaves the same current
  /// communicator and the same order of last activity: the others are folded.
  void AddToRun(ProcTrack* proc, const Collective& c, const Event& e) {
    proc->pending.erase(e.ctx.source);  // A later line of the process follows.
    auto& run = proc->run;
    for (size_t i = 0; i < run.size(); ++i) {
      if (run[i].comm != c.comm) continue;
      ++folded_[run[i].line.source][EventTypeName(e.data)];
      run.erase(run.begin() + static_cast<ptrdiff_t>(i));
      break;
    }
    run.push_back(RunEntry{std::string(c.comm), MakeLine(e)});
  }

  /// True the first time this process reports this (operation, algorithm, protocol).
  static bool NewAlgo(ProcTrack* proc, const CollAlgo& a) {
    std::string key;
    key.reserve(a.op.size() + a.algo.size() + a.proto.size() + 2);
    key.append(a.op).append(1, ' ').append(a.algo).append(1, '/').append(a.proto);
    return proc->algos.insert(std::move(key)).second;
  }

  void FlushRun(ProcTrack* proc) {
    for (auto& entry : proc->run) out_->lines.push_back(std::move(entry.line));
    proc->run.clear();
  }

  /// A PyTorch-level warning that the parser produced only because the previous line was
  /// "Last error:" (LineParser keeps that one bit of state): replay needs that line too.
  bool NeedsLastErrorMarker(const Event& e) {
    if (e.ctx.level != Level::kTorch) return false;
    const auto* w = std::get_if<Warning>(&e.data);
    if (!w) return false;
    LineParser fresh;
    Line line;
    line.text = e.ctx.text;
    Event alone;
    if (fresh.Parse(line, &alone) != ParseOutcome::kEvent) return true;
    const auto* w2 = std::get_if<Warning>(&alone.data);
    return !w2 || alone.ctx.level != Level::kTorch || w2->message != w->message;
  }

  static CondensedLine MakeLine(const Event& e) {
    CondensedLine l;
    l.source = e.ctx.source;
    l.line = e.ctx.line;
    l.text.assign(e.ctx.text);
    if (e.ctx.meta) {
      l.launcher_rank = e.ctx.meta->launcher_rank;
      l.timestamp.assign(e.ctx.meta->timestamp);
      l.origin_host.assign(e.ctx.meta->origin_host);
      l.origin_pid = e.ctx.meta->origin_pid;
    }
    return l;
  }

  CondensedInput* out_;
  std::unordered_map<uint32_t, std::vector<ProcTrack>> procs_;  ///< pid → processes
  ProcTrack* last_ = nullptr;
  uint32_t last_pid_ = 0;
  std::unordered_map<uint32_t, std::map<std::string_view, uint64_t>> folded_;
};

CondensedInput Condense(const InputPath& input, std::unique_ptr<ByteSource> bytes) {
  CondensedInput out;
  out.path = input.path;
  out.name = input.name;
  std::vector<SourceInfo> sources;
  JobStats stats;
  EventPipeline pipeline(&sources, &stats);
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

void ReplayCondensed(const CondensedInput& input, Job* job, JobBuilder* builder,
                     std::vector<InputProblem>* problems) {
  const uint32_t base = static_cast<uint32_t>(job->sources.size());
  for (const auto& s : input.sources) {
    SourceInfo info = s.info;
    info.events = 0;        // Counted again by the builder (kept lines + folded counts).
    info.unrecognized = 0;  // Unrecognized lines are always kept: counted by the builder.
    info.unrecognized_mentions = 0;
    job->sources.push_back(std::move(info));
    job->stats.lines += s.info.lines;
    job->stats.nccl_lines += s.info.nccl_lines;
    job->stats.framework_lines += s.info.framework_lines;
    job->stats.mention_lines += s.info.mention_lines;
  }
  job->stats.bytes += input.bytes;
  LineParser parser;
  Event event;
  for (const auto& l : input.lines) {
    Line line;
    line.text = l.text;
    line.number = l.line;
    line.source = base + l.source;
    line.meta.timestamp = l.timestamp;
    line.meta.launcher_rank = l.launcher_rank;
    line.meta.origin_host = l.origin_host;
    line.meta.origin_pid = l.origin_pid;
    if (l.source < input.sources.size()) line.meta.pod = input.sources[l.source].info.pod;
    if (line.source >= job->sources.size()) continue;  // Damaged summary: ignore the line.
    if (parser.Parse(line, &event) != ParseOutcome::kEvent) continue;
    // A kept line holds one message (Condenser keeps each glued message as its own line).
    builder->Add(event);
  }
  for (size_t i = 0; i < input.sources.size(); ++i) {
    for (const auto& [type, n] : input.sources[i].folded)
      builder->AddFoldedEvents(base + static_cast<uint32_t>(i), type, n);
  }
  problems->insert(problems->end(), input.problems.begin(), input.problems.end());
}

size_t CondensedBytes(const CondensedInput& input) {
  size_t n = sizeof(input) + input.lines.capacity() * sizeof(CondensedLine);
  for (const auto& l : input.lines) {
    if (l.text.capacity() > 15) n += l.text.capacity() + 1;
    if (l.timestamp.capacity() > 15) n += l.timestamp.capacity() + 1;
    if (l.origin_host.capacity() > 15) n += l.origin_host.capacity() + 1;
  }
  for (const auto& s : input.sources) n += sizeof(s) + s.info.name.size() + s.folded.size() * 64;
  return n;
}

}  // namespace ncclscope
