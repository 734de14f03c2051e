#include "ncclscope/analysis/event_relay.h"

#include <algorithm>

namespace ncclscope {
namespace {

/// Copies `view` to the end of `text` (whose capacity suffices) and points it at the copy.
void Rebase(std::vector<char>* text, std::string_view* view) {
  if (view->empty()) return;
  const size_t at = text->size();
  text->insert(text->end(), view->begin(), view->end());
  *view = std::string_view(text->data() + at, view->size());
}

size_t StagedBytes(const Line& line) {
  const LineMeta& m = line.meta;
  return line.text.size() + m.timestamp.size() + m.pod.size() + m.service.size() +
         m.origin_host.size() + m.origin_name.size();
}

}  // namespace

EventRelay::EventRelay(Sink sink, Tuning tuning) : sink_(std::move(sink)), tuning_(tuning) {
  tuning_.batches = std::max<size_t>(2, tuning_.batches);
  tuning_.batch_lines = std::max<size_t>(1, tuning_.batch_lines);
  for (size_t i = 0; i < tuning_.batches; ++i) {
    storage_.push_back(std::make_unique<Batch>());
    Batch* b = storage_.back().get();
    b->text.reserve(tuning_.batch_bytes);
    b->lines.reserve(tuning_.batch_lines);
    free_.push_back(b);
  }
  current_ = free_.back();
  free_.pop_back();
  consumer_ = std::thread([this] { Consume(); });
}

EventRelay::~EventRelay() {
  try {
    Drain();
  } catch (...) {  // A sink's error was the caller's to take; nothing is left to deliver.
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  changed_.notify_all();
  consumer_.join();
}

const Line& EventRelay::Stage(const Line& line) {
  const size_t need = StagedBytes(line);
  if (current_->lines.size() == current_->lines.capacity() ||
      current_->text.size() + need > current_->text.capacity()) {
    if (!current_->lines.empty()) Submit();
    if (need > current_->text.capacity()) current_->text.reserve(need);  // empty: may move
  }
  Batch* b = current_;
  b->lines.push_back(line);
  Line& staged = b->lines.back();
  staged_begin_ = b->text.data() + b->text.size();
  Rebase(&b->text, &staged.text);
  LineMeta& m = staged.meta;
  Rebase(&b->text, &m.timestamp);
  Rebase(&b->text, &m.pod);
  Rebase(&b->text, &m.service);
  Rebase(&b->text, &m.origin_host);
  Rebase(&b->text, &m.origin_name);
  staged_end_ = b->text.data() + b->text.size();
  return staged;
}

bool EventRelay::Owns(const Event& event) const {
  const EventContext& ctx = event.ctx;
  if (current_->lines.empty() || (ctx.meta != nullptr && ctx.meta != &current_->lines.back().meta))
    return false;
  auto inside = [this](std::string_view v) {
    return v.empty() || (v.data() >= staged_begin_ && v.data() + v.size() <= staged_end_);
  };
  return inside(ctx.text) && inside(ctx.body) && inside(ctx.host) && inside(ctx.timestamp) &&
         inside(ctx.location) && inside(ctx.function);
}

void EventRelay::Push(const Event& event) { current_->events.push_back(event); }

void EventRelay::Submit() {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(current_);
  current_ = nullptr;
  changed_.notify_all();
  if (free_.empty() && tuning_.hold_until_drain && !released_) {
    storage_.push_back(std::make_unique<Batch>());  // Held: the consumer frees nothing yet.
    Batch* b = storage_.back().get();
    b->text.reserve(tuning_.batch_bytes);
    b->lines.reserve(tuning_.batch_lines);
    free_.push_back(b);
  }
  changed_.wait(lock, [this] { return !free_.empty(); });
  current_ = free_.back();
  free_.pop_back();
}

void EventRelay::Drain() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    released_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return queue_.empty() && !consuming_; });
    released_ = !tuning_.hold_until_drain;
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
  }
  // The consumer is idle: the current batch's events go to the sink on this thread. Its lines
  // stay, since the events of the line last staged may still be parsed.
  for (const Event& e : current_->events) sink_(e);
  current_->events.clear();
}

void EventRelay::Consume() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] {
      return stop_ || (!queue_.empty() && (released_ || !tuning_.hold_until_drain));
    });
    if (queue_.empty()) return;  // stop_ with nothing left
    Batch* b = queue_.front();
    queue_.pop_front();
    consuming_ = true;
    lock.unlock();
    if (!error_) {
      try {
        for (const Event& e : b->events) sink_(e);
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    b->events.clear();
    b->lines.clear();
    b->text.clear();
    lock.lock();
    consuming_ = false;
    free_.push_back(b);
    changed_.notify_all();
  }
}

}  // namespace ncclscope
