// EventRelay: hands parsed events from the reading thread to a second thread that runs the sink
// (the job model), so that parsing and modelling one stream use two cores.
//
// Events are views into the line they were parsed from (events.h). The relay makes them outlive
// the reading: it is the LineReader's BufferRecycler, so a read buffer the reader moves on from
// stays alive (with the batch that last used it) until the sink has seen the batch's events, and
// a line whose bytes lie elsewhere (decoded by the stream) is copied into the batch (Stage). A
// few events point into the parser's own state instead (a message joined from two
// lines, a body with markdown links removed): Owns() says no, and the caller drains the relay and
// calls the sink itself. The sink thus sees every event, in order, one at a time.
#ifndef NCCLSCOPE_ANALYSIS_EVENT_RELAY_H_
#define NCCLSCOPE_ANALYSIS_EVENT_RELAY_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "ncclscope/input/buffer_recycler.h"
#include "ncclscope/input/line.h"
#include "ncclscope/parse/events.h"

namespace ncclscope {

class EventRelay : public BufferRecycler {
 public:
  using Sink = std::function<void(const Event&)>;
  struct Tuning {
    size_t batch_lines = 2048;        ///< Lines per batch handed over.
    size_t batch_bytes = 256 * 1024;  ///< Text per batch (a longer line gets a batch of its own).
    size_t batches = 4;               ///< Batches in flight (filled, queued, being consumed).
    size_t batch_buffers = 4;  ///< Retired read buffers a batch may hold before it is handed on.
    /// Tests: the consumer starts only at Drain, after every event was queued, so that a view
    /// into state the reading thread changes later would be seen changed (and fail the test).
    bool hold_until_drain = false;
  };

  /// Starts the consumer thread. `sink` runs on it (and on the caller's thread after Drain).
  explicit EventRelay(Sink sink) : EventRelay(std::move(sink), Tuning{}) {}
  EventRelay(Sink sink, Tuning tuning);
  /// Drains, then stops the consumer thread.
  ~EventRelay() override;
  EventRelay(const EventRelay&) = delete;
  EventRelay& operator=(const EventRelay&) = delete;

  /// Puts `line` into the current batch: its text and its prefixes' views stay where they are
  /// when they lie in `reader_buffer` (the reader's current buffer, kept by Retire), and are
  /// copied into the batch otherwise. The returned line is valid until the events parsed from it
  /// were consumed. Starts a new batch when full.
  const Line& Stage(const Line& line, std::string_view reader_buffer = {});
  /// Whether every view of the event's context lies in the line last staged or in the reader's
  /// buffer given with it (or is empty): the event may then be queued. Payload views are cut
  /// from the context's body and text.
  bool Owns(const Event& event) const;
  /// Queues an event parsed from the line last staged; Owns(event) must hold.
  void Push(const Event& event);
  /// Returns when the sink has seen every queued event (those of the current batch on this
  /// thread) and the consumer is idle: the caller may then call the sink itself, or change what
  /// the sink reads. Rethrows what the sink threw. The line last staged stays valid.
  void Drain();

  /// The sink for the next events; only when drained (after Drain, before the next Stage).
  void Rebind(Sink sink);
  /// Called on the consumer thread after a batch's events were consumed and before its texts and
  /// read buffers are reused: a sink that keeps views of event texts copies them then. Empty: no
  /// call. Only when drained, like Rebind.
  void set_release_hook(std::function<void()> hook);

  // BufferRecycler (the reading thread's LineReader calls these).
  std::unique_ptr<char[]> Take(size_t bytes) override;
  void Retire(std::unique_ptr<char[]> buffer, size_t bytes) override;

 private:
  struct Buffer {
    std::unique_ptr<char[]> data;
    size_t bytes = 0;
  };
  struct Batch {
    std::vector<char> text;   ///< Staged line texts (capacity fixed while the batch fills).
    std::vector<Line> lines;  ///< Staged lines (capacity fixed likewise: events point at metas).
    std::vector<Event> events;
    std::vector<Buffer> buffers;  ///< Read buffers retired while this batch was filling.
  };
  void AddFreeBatch();  ///< A new batch, reserved to the tuning, on the free list.
  void Submit();        ///< Queues the current batch and takes a free one (waits for one).
  void Consume();

  Sink sink_;
  std::function<void()> release_hook_;
  Tuning tuning_;
  std::vector<std::unique_ptr<Batch>> storage_;
  Batch* current_ = nullptr;
  /// Where the last staged line's bytes (text and prefix views) lie in current_->text.
  const char* staged_begin_ = nullptr;
  const char* staged_end_ = nullptr;
  std::string_view reader_buffer_;  ///< The reader's buffer as of the last Stage.

  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Batch*> free_;
  std::deque<Batch*> queue_;   ///< Filled batches in order.
  std::vector<Buffer> spare_;  ///< Read buffers the sink is done with, for Take.
  bool consuming_ = false;
  bool released_ = false;  ///< hold_until_drain: the consumer may run.
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread consumer_;
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_EVENT_RELAY_H_
