#include "ncclscope/analysis/event_pipeline.h"

#include <memory>

#include "ncclscope/analysis/event_relay.h"
#include "ncclscope/input/line_stream.h"
#include "ncclscope/parse/line_parser.h"

namespace ncclscope {

EventPipeline::EventPipeline(std::vector<SourceInfo>* sources, JobStats* stats)
    : sources_(sources), stats_(stats) {}

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
  // Parsing here and modelling on a second thread, where the input is large enough to pay.
  std::unique_ptr<EventRelay> relay;
  if (relay_ && (total < 0 || static_cast<uint64_t>(total) >= relay_->min_bytes))
    relay = std::make_unique<EventRelay>(sink, relay_->tuning);
  if (relay) stream.set_recycler(relay.get());  // read buffers live until their lines are used
  constexpr uint64_t kProgressEvery = 8192;     // lines between progress reports (a power of two)
  uint64_t count = 0;
  while (stream.Next(&line)) {
    if ((++count & (kProgressEvery - 1)) == 0 && progress_) {
      progress_(input.name, stream.diagnostics().bytes, total);
    }
    uint32_t source =
        line.meta.pod.empty() ? input_source : SourceFor(input_source, line.meta.pod, relay.get());
    line.source = source;
    SourceInfo& s = (*sources_)[source];
    ++s.lines;
    ++stats_->lines;
    const Line& parsed = relay ? relay->Stage(line, stream.reader_buffer()) : line;
    if (parser.Parse(parsed, &event) != ParseOutcome::kEvent) continue;
    bool first = true;
    do {
      // Each glued NCCL message counts; a line that only mentions NCCL counts once, whatever
      // number of events it gives (the assignments of a pasted command line).
      if (first || event.ctx.level != Level::kNone) CountLine(event, &s);
      first = false;
      if (!relay) {
        sink(event);
      } else if (relay->Owns(event)) {
        relay->Push(event);
      } else {  // A view into the parser's state: delivered now, after what was queued.
        relay->Drain();
        sink(event);
      }
    } while (parser.ParseMore(&event));
  }
  if (relay) {
    relay->Drain();
    stream.set_recycler(nullptr);
  }
  const InputDiagnostics& d = stream.diagnostics();
  if (progress_) progress_(input.name, d.bytes, total);
  SourceInfo& s = (*sources_)[input_source];
  s.truncated_lines = d.truncated_lines;
  s.nul_lines = d.nul_lines;
  s.invalid_utf8_lines = d.invalid_utf8_lines;
  s.malformed_records = d.malformed_records;
  stats_->bytes += d.bytes;
  if (!d.status.ok()) {
    s.problem = d.status.message();
    problems->push_back(InputProblem{input.path, d.status.message()});
  }
}

}  // namespace ncclscope
