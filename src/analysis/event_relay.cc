#include "ncclscope/analysis/event_relay.h"

#include <algorithm>
#include <array>

#include "ncclscope/base/view_inside.h"

namespace ncclscope {
namespace {

/// Copies `view` to the end of `text` (whose capacity suffices) and points it at the copy,
/// unless it lies in `kept` (a read buffer the relay keeps alive).
void Rebase(std::string_view kept, std::vector<char>* text, std::string_view* view) {
  if (view->empty() || ViewInside(*view, kept)) return;
  const size_t at = text->size();
  text->insert(text->end(), view->begin(), view->end());
  *view = std::string_view(text->data() + at, view->size());
}

/// The views of a line (`Line` or `const Line`): its text and what its prefixes said.
template <typename L>
auto ViewsOf(L* line) {
  auto& m = line->meta;
  return std::array{&line->text, &m.timestamp, &m.pod, &m.service, &m.origin_host, &m.origin_name};
}

}  // namespace

EventRelay::EventRelay(Sink sink, Tuning tuning) : sink_(std::move(sink)), tuning_(tuning) {
  tuning_.batches = std::max<size_t>(2, tuning_.batches);
  tuning_.batch_lines = std::max<size_t>(1, tuning_.batch_lines);
  for (size_t i = 0; i < tuning_.batches; ++i) AddFreeBatch();
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

void EventRelay::AddFreeBatch() {
  storage_.push_back(std::make_unique<Batch>());
  Batch* b = storage_.back().get();
  b->text.reserve(tuning_.batch_bytes);
  b->lines.reserve(tuning_.batch_lines);
  free_.push_back(b);
}

const Line& EventRelay::Stage(const Line& line, std::string_view reader_buffer) {
  reader_buffer_ = reader_buffer;
  size_t need = 0;  // the bytes to copy: those outside the reader's buffer
  for (const std::string_view* v : ViewsOf(&line))
    need += ViewInside(*v, reader_buffer) ? 0 : v->size();
  if (current_->lines.size() == current_->lines.capacity() ||
      current_->text.size() + need > current_->text.capacity()) {
    if (!current_->lines.empty()) Submit();
    if (need > current_->text.capacity()) current_->text.reserve(need);  // empty: may move
  }
  Batch* b = current_;
  b->lines.push_back(line);
  Line& staged = b->lines.back();
  staged_begin_ = b->text.data() + b->text.size();
  for (std::string_view* v : ViewsOf(&staged)) Rebase(reader_buffer, &b->text, v);
  staged_end_ = b->text.data() + b->text.size();
  return staged;
}

bool EventRelay::Owns(const Event& event) const {
  const EventContext& ctx = event.ctx;
  if (current_->lines.empty() || (ctx.meta != nullptr && ctx.meta != &current_->lines.back().meta))
    return false;
  const std::string_view staged(staged_begin_, staged_end_ - staged_begin_);
  auto inside = [&](std::string_view v) {
    return v.empty() || ViewInside(v, staged) || ViewInside(v, reader_buffer_);
  };
  return inside(ctx.text) && inside(ctx.body) && inside(ctx.host) && inside(ctx.timestamp) &&
         inside(ctx.location) && inside(ctx.function);
}

void EventRelay::Push(const Event& event) { current_->events.push_back(event); }

void EventRelay::Rebind(Sink sink) {
  std::lock_guard<std::mutex> lock(mu_);  // the consumer is idle: it reads sink_ after the lock
  sink_ = std::move(sink);
}

void EventRelay::set_release_hook(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mu_);  // as Rebind
  release_hook_ = std::move(hook);
}

std::unique_ptr<char[]> EventRelay::Take(size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = spare_.size(); i-- > 0;) {
      if (spare_[i].bytes != bytes) continue;
      std::unique_ptr<char[]> data = std::move(spare_[i].data);
      spare_.erase(spare_.begin() + static_cast<std::ptrdiff_t>(i));
      return data;
    }
  }
  return std::unique_ptr<char[]>(new char[bytes]);
}

void EventRelay::Retire(std::unique_ptr<char[]> buffer, size_t bytes) {
  // The lines staged so far may lie in it: it lives as long as the batch filling now, whose
  // events come after theirs.
  current_->buffers.push_back(Buffer{std::move(buffer), bytes});
  if (current_->buffers.size() >= tuning_.batch_buffers && !current_->lines.empty()) Submit();
}

void EventRelay::Submit() {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(current_);
  current_ = nullptr;
  changed_.notify_all();
  // Held: the consumer frees nothing yet.
  if (free_.empty() && tuning_.hold_until_drain && !released_) AddFreeBatch();
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
        if (release_hook_) release_hook_();  // before the batch's texts and buffers are reused
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    b->events.clear();
    b->lines.clear();
    b->text.clear();
    lock.lock();
    // Kept for Take, never freed while the relay lives: Stage may still copy a line out of a
    // buffer retired with a batch just handed over. Take reuses them, so their number stays
    // that of the buffers in flight at once (batches x batch_buffers, and the reader's).
    for (Buffer& buf : b->buffers) spare_.push_back(std::move(buf));
    b->buffers.clear();
    consuming_ = false;
    free_.push_back(b);
    changed_.notify_all();
  }
}

}  // namespace ncclscope
