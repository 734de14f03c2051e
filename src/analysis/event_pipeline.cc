#include "ncclscope/analysis/event_pipeline.h"

#include <memory>

#include "ncclscope/analysis/event_relay.h"
#include "ncclscope/base/view_inside.h"
#include "ncclscope/input/line_stream.h"
#include "ncclscope/parse/line_parser.h"

namespace ncclscope {

namespace {

/// Adds the line counters a reading thread kept (SourceInfo and JobStats name them alike).
template <typename Counters>
void AddLineCounts(const Counters& from, Counters* to) {
  to->lines += from.lines;
  to->nccl_lines += from.nccl_lines;
  to->info_lines += from.info_lines;
  to->framework_lines += from.framework_lines;
  to->mention_lines += from.mention_lines;
}

/// Whether an event is of the bulk kinds (a collective, a noise line): cheap to model, so a
/// stream of them gains nothing from a second thread and pays for the hand-over.
bool IsBulk(const EventData& d) {
  return std::holds_alternative<Collective>(d) || std::holds_alternative<KnownNoise>(d) ||
         std::holds_alternative<CollAlgo>(d);
}

/// The reader's buffers while the sink keeps views of line texts (set_text_keeper): a buffer
/// the reader moves on from is reused (or freed) only after the sink copied what it views.
class TextKeeper : public BufferRecycler {
 public:
  explicit TextKeeper(const std::function<void()>& keep) : keep_(keep) {}
  std::unique_ptr<char[]> Take(size_t bytes) override {
    if (spare_ != nullptr && spare_bytes_ == bytes) return std::move(spare_);
    return std::unique_ptr<char[]>(new char[bytes]);
  }
  void Retire(std::unique_ptr<char[]> buffer, size_t bytes) override {
    keep_();
    spare_ = std::move(buffer);
    spare_bytes_ = bytes;
  }

 private:
  const std::function<void()>& keep_;
  std::unique_ptr<char[]> spare_;
  size_t spare_bytes_ = 0;
};

}  // namespace

/// The relay during one Run: the pipeline's relay (nullptr when off), this thread's own line
/// counters while it runs (the model's thread writes its counters beside the shared ones,
/// SourceInfo::events and JobStats::events, and sharing those cache lines on every line costs
/// more than the second thread gains), and the sample of the first event lines of the
/// pipeline's inputs that decides whether it pays.
class EventPipeline::RunRelay {
 public:
  RunRelay(EventRelay* relay, RelaySample* sample, LineStream* stream,
           std::vector<SourceInfo>* sources, JobStats* stats, const std::function<void()>& keep)
      : relay_(relay),
        sample_(sample),
        stream_(stream),
        sources_(sources),
        stats_(stats),
        keep_(keep) {
    if (!relay_) return;
    stream_->set_recycler(relay_);    // read buffers live until their lines are used
    relay_->set_release_hook(keep_);  // the relay is drained between Runs
  }
  ~RunRelay() {
    if (relay_) stream_->set_recycler(nullptr);
  }

  EventRelay* get() const { return relay_; }
  /// Where this thread counts the lines of `source`, and the totals. Own counters start at the
  /// first source counted (a Run reads one input, and the sources it adds come after it), so
  /// that the thousandth of a thousand per-rank files does not count into a thousand entries.
  SourceInfo& Counters(uint32_t source) {
    if (!relay_) return (*sources_)[source];
    if (own_sources_.empty()) {
      own_base_ = source;
    } else if (source < own_base_) {  // Not expected: keeps counting right, only slower.
      own_sources_.insert(own_sources_.begin(), own_base_ - source, SourceInfo{});
      own_base_ = source;
    }
    const size_t i = source - own_base_;
    if (i >= own_sources_.size()) own_sources_.resize(i + 1);
    return own_sources_[i];
  }
  JobStats* stats() { return relay_ ? &own_stats_ : stats_; }

  /// The first event of a line: counted in the sample.
  void NoteLine(const Event& first) {
    if (!relay_ || sample_->sampled >= kSample) return;
    sample_->bulk += IsBulk(first.data);
    ++sample_->sampled;
  }
  /// Between lines (the line last staged is no longer used): ends the relay, for this input and
  /// the pipeline's later ones, once the sample of the first kSample event lines is complete
  /// and most of them were bulk ones.
  void EndIfBulk() {
    if (relay_ && sample_->sampled == kSample && sample_->bulk * 10 >= kSample * 6) {
      sample_->ended = true;
      End();
    }
  }
  /// Delivers what is queued and hands the counters over; from here the sink runs on this thread.
  void End() {
    if (!relay_) return;
    relay_->Drain();
    // The sink's views into the batch filling now and the reader's buffer: copied before the
    // reader, without the relay, compacts its buffer in place.
    if (keep_) keep_();
    stream_->set_recycler(nullptr);
    for (size_t i = 0; i < own_sources_.size(); ++i)
      AddLineCounts(own_sources_[i], &(*sources_)[own_base_ + i]);
    AddLineCounts(own_stats_, stats_);
    relay_ = nullptr;
  }

 private:
  static constexpr uint64_t kSample = 32768;  ///< Event lines sampled.
  EventRelay* relay_;
  RelaySample* sample_;
  LineStream* stream_;
  std::vector<SourceInfo>* sources_;
  JobStats* stats_;
  const std::function<void()>& keep_;    ///< The pipeline's text keeper (may be empty).
  std::vector<SourceInfo> own_sources_;  ///< Counters of sources own_base_, own_base_ + 1, ...
  uint32_t own_base_ = 0;
  JobStats own_stats_;
};

EventPipeline::EventPipeline(std::vector<SourceInfo>* sources, JobStats* stats)
    : sources_(sources), stats_(stats) {}

EventPipeline::~EventPipeline() = default;

uint32_t EventPipeline::SourceFor(uint32_t input_source, std::string_view pod, EventRelay* relay) {
  if (pod.empty()) return input_source;
  if (!last_pod_.empty() && last_input_ == input_source && last_pod_ == pod)
    return last_pod_source_;
  auto key = std::make_pair(input_source, std::string(pod));
  auto it = pods_.find(key);
  uint32_t idx;
  if (it != pods_.end()) {
    idx = it->second;
  } else {
    if (relay) relay->Drain();  // the sink may read sources_, which may move now
    SourceInfo s;
    s.name = (*sources_)[input_source].name + "[pod/" + std::string(pod) + "]";
    s.pod = std::string(pod);
    sources_->push_back(std::move(s));
    idx = static_cast<uint32_t>(sources_->size() - 1);
    pods_.emplace(std::move(key), idx);
  }
  last_input_ = input_source;
  last_pod_ = std::string(pod);
  last_pod_source_ = idx;
  return idx;
}

void EventPipeline::Run(const InputPath& input, const EventSink& sink,
                        std::vector<InputProblem>* problems) {
  Status err;
  auto bytes = OpenByteSource(input.path, &err);
  if (!bytes) {
    problems->push_back(InputProblem{input.path, err.message()});
    SourceInfo s;
    s.name = input.name;
    s.problem = err.message();
    sources_->push_back(std::move(s));
    return;
  }
  Run(std::move(bytes), input, sink, problems);
}

void EventPipeline::Run(std::unique_ptr<ByteSource> bytes, const InputPath& input,
                        const EventSink& sink, std::vector<InputProblem>* problems) {
  SourceInfo info;
  info.name = input.name;
  sources_->push_back(std::move(info));
  const uint32_t input_source = static_cast<uint32_t>(sources_->size() - 1);
  const int64_t total = bytes ? bytes->SizeHint() : -1;
  LineStream stream(std::move(bytes), input_source);
  LineParser parser;
  Line line;
  Event event;
  if (!primer_.empty()) {
    LineStream before(MemoryByteSource(primer_.data(), primer_.size()), input_source);
    if (before.Next(&line)) parser.Parse(line, &event);
  }
  // Parsing here and modelling on a second thread (one for all the pipeline's inputs).
  EventRelay* relay_now = nullptr;
  if (relay_tuning_ && !sample_.ended) {
    if (!relay_) {
      relay_ = std::make_unique<EventRelay>(sink, *relay_tuning_);
    } else {
      relay_->Rebind(sink);
    }
    relay_now = relay_.get();
  }
  RunRelay run(relay_now, &sample_, &stream, sources_, stats_, text_keeper_);
  // Views of line texts for a sink on this thread (set_text_keeper). The reader never calls its
  // recycler when it is destroyed, only when it moves on from a buffer.
  TextKeeper keeper(text_keeper_);
  const bool keep_texts = text_keeper_ && relay_now == nullptr;
  if (keep_texts) stream.set_recycler(&keeper);
  constexpr uint64_t kProgressEvery = 8192;  // lines between progress reports (a power of two)
  uint64_t count = 0;
  while (stream.Next(&line)) {
    if ((++count & (kProgressEvery - 1)) == 0 && progress_) {
      progress_(input.name, stream.diagnostics().bytes, total);
    }
    run.EndIfBulk();
    EventRelay* relay = run.get();
    uint32_t source =
        line.meta.pod.empty() ? input_source : SourceFor(input_source, line.meta.pod, relay);
    line.source = source;
    SourceInfo& s = run.Counters(source);
    JobStats* stats = run.stats();
    ++s.lines;
    ++stats->lines;
    const Line& parsed = relay ? relay->Stage(line, stream.reader_buffer()) : line;
    if (parser.Parse(parsed, &event) != ParseOutcome::kEvent) continue;
    bool first = true;
    do {
      // Each glued NCCL message counts; a line that only mentions NCCL counts once, whatever
      // number of events it gives (the assignments of a pasted command line).
      if (first || event.ctx.level != Level::kNone) CountLine(event, &s, stats);
      if (first) run.NoteLine(event);
      first = false;
      if (relay == nullptr) {
        event.ctx.text_kept = keep_texts && ViewInside(event.ctx.text, stream.reader_buffer());
        sink(event);
      } else if (relay->Owns(event)) {
        // Its text lives until its batch is released, after the release hook (the keeper).
        event.ctx.text_kept = static_cast<bool>(text_keeper_);
        relay->Push(event);
      } else {  // A view into the parser's state: delivered now, after what was queued.
        relay->Drain();
        event.ctx.text_kept = false;
        sink(event);
      }
    } while (parser.ParseMore(&event));
  }
  run.End();
  if (keep_texts) {
    text_keeper_();  // the stream's buffer goes with it
    stream.set_recycler(nullptr);
  }
  const InputDiagnostics& d = stream.diagnostics();
  if (progress_) progress_(input.name, d.bytes, total);
  SourceInfo& s = (*sources_)[input_source];
  s.truncated_lines = d.truncated_lines;
  s.nul_lines = d.nul_lines;
  s.invalid_utf8_lines = d.invalid_utf8_lines;
  s.malformed_records = d.malformed_records;
  s.wrap_width = d.wrap_width;
  s.rejoined_lines = d.rejoined_lines;
  stats_->bytes += d.bytes;
  if (!d.status.ok()) {
    s.problem = d.status.message();
    problems->push_back(InputProblem{input.path, d.status.message()});
  }
}

}  // namespace ncclscope
