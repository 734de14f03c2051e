// EventPipeline: inputs → lines (prefixes stripped) → typed events, handed to a sink one by one.
// Registers one SourceInfo per input (and per kubectl --prefix pod inside an input) and counts
// lines, NCCL messages, framework lines, other lines that mention NCCL, and damaged input on it.
#ifndef NCCLSCOPE_ANALYSIS_EVENT_PIPELINE_H_
#define NCCLSCOPE_ANALYSIS_EVENT_PIPELINE_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ncclscope/analysis/event_relay.h"
#include "ncclscope/analysis/progress.h"
#include "ncclscope/input/byte_source.h"
#include "ncclscope/input/input_set.h"
#include "ncclscope/model/job.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

using EventSink = std::function<void(const Event&)>;

class EventPipeline {
 public:
  /// `sources` and `stats` receive the per-input and total counters; they must outlive this.
  EventPipeline(std::vector<SourceInfo>* sources, JobStats* stats);
  ~EventPipeline();

  /// Reads one input to its end, sending every event to `sink`. An input that cannot be opened
  /// or is damaged adds an InputProblem (the events read before the damage were delivered).
  void Run(const InputPath& input, const EventSink& sink, std::vector<InputProblem>* problems);
  /// Same over an already opened byte source (tests, in-memory text).
  void Run(std::unique_ptr<ByteSource> bytes, const InputPath& input, const EventSink& sink,
           std::vector<InputProblem>* problems);

  /// Calls `hook` every few thousand lines and at the end of each input (progress bars).
  void set_progress(ProgressHook hook) { progress_ = std::move(hook); }
  /// Runs the sink on a second thread (EventRelay, one for all inputs of the pipeline): parsing
  /// and modelling then take a core each. When most of the first 32,768 event lines are
  /// collectives or noise (cheap to model), the relay ends and the sink runs on the calling
  /// thread again, for the rest of the inputs too. Events reach the sink in the same order, one
  /// at a time, and all of an input's before its Run returns; the per-source line counters are
  /// complete only when Run returns. Every Run must pass a sink that may run on another thread.
  void set_relay(EventRelay::Tuning tuning) { relay_tuning_ = tuning; }

  /// Lets the sink keep views of line texts instead of copies: events whose text lives on past
  /// the line are marked EventContext::text_kept, and `keep` is called before that text is
  /// reused or freed; the sink then copies what it still views (JobBuilder::KeepLineTexts).
  /// Without the relay, the reader's buffers stay alive until `keep` ran (when the reader moves
  /// on from one, and at the end of the input); with it, a batch's texts and buffers do (the
  /// relay's release hook, on the sink's thread, and when the relay is drained at the end).
  void set_text_keeper(std::function<void()> keep) { text_keeper_ = std::move(keep); }

  /// The raw line (with its newline) that preceded the next input's first byte, when that input
  /// is a piece of a larger one: the parser reads it first, so the state it leaves (PyTorch's
  /// "Last error:" continuation) carries over. It yields nothing and is not counted.
  void set_primer(std::string primer) { primer_ = std::move(primer); }

 private:
  class RunRelay;
  /// The relay's sample of event lines, over all inputs.
  struct RelaySample {
    uint64_t sampled = 0;
    uint64_t bulk = 0;
    bool ended = false;  ///< Mostly bulk: the model runs on the reading thread.
  };
  uint32_t SourceFor(uint32_t input_source, std::string_view pod, EventRelay* relay);
  /// Counts a parsed line on its source and in the totals: NCCL message, framework line, mention.
  /// Inline: it runs for every line.
  void CountLine(const Event& event, SourceInfo* s, JobStats* stats) {
    switch (event.ctx.level) {
      case Level::kTorch:
      case Level::kLibfabric:
      case Level::kVerbs:
        ++s->framework_lines;
        ++stats->framework_lines;
        if (event.ctx.text.find("NCCL") != std::string_view::npos) {
          ++s->mention_lines;
          ++stats->mention_lines;
        }
        break;
      case Level::kNone:  // A line that only mentions NCCL (Unrecognized with `mention`).
        ++s->mention_lines;
        ++stats->mention_lines;
        break;
      default:
        if (event.ctx.level == Level::kInfo || event.ctx.level == Level::kTrace) {
          ++s->info_lines;
          ++stats->info_lines;
        }
        ++s->nccl_lines;
        ++stats->nccl_lines;
        break;
    }
  }

  std::vector<SourceInfo>* sources_;
  JobStats* stats_;
  std::map<std::pair<uint32_t, std::string>, uint32_t> pods_;  ///< (input, pod) → source
  uint32_t last_input_ = 0;
  std::string last_pod_;  ///< Cache: consecutive lines usually come from the same pod.
  uint32_t last_pod_source_ = 0;
  ProgressHook progress_;
  std::string primer_;
  std::function<void()> text_keeper_;
  std::optional<EventRelay::Tuning> relay_tuning_;
  std::unique_ptr<EventRelay> relay_;  ///< Made by the first Run that uses it.
  RelaySample sample_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_EVENT_PIPELINE_H_
