// ProgressMeter: throttled '\r' redraws of one progress line on a terminal.
#include "ncclscope/analysis/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace ncclscope {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string ProgressLine(const std::string& name, uint64_t done, int64_t total, double seconds) {
  constexpr int kWidth = 20;
  const double frac =
      total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total)) : 0.0;
  const int filled = static_cast<int>(frac * kWidth);
  const double mb = static_cast<double>(done) / 1e6;
  const double rate = seconds > 0 ? mb / seconds : 0.0;
  // Long paths keep their tail: the file name is the informative part.
  std::string shown = name.size() > 40 ? "..." + name.substr(name.size() - 37) : name;
  return fmt::format("{} [{}{}] {:3d}%  {:.0f}/{:.0f} MB  {:.0f} MB/s", shown,
                     std::string(static_cast<size_t>(filled), '#'),
                     std::string(static_cast<size_t>(kWidth - filled), ' '),
                     static_cast<int>(frac * 100), mb, static_cast<double>(total) / 1e6, rate);
}

ProgressMeter::ProgressMeter(std::ostream* out, SecondsClock now, double min_interval,
                             int64_t min_total)
    : out_(out), now_(std::move(now)), min_interval_(min_interval), min_total_(min_total) {}

void ProgressMeter::Update(const std::string& name, uint64_t done, int64_t total) {
  const double t = now_();
  if (name != name_) {
    name_ = name;
    start_ = t;
    last_draw_ = t;  // First draw after one interval: quick inputs never show a bar.
    return;
  }
  if (total < 0 || total < min_total_ || t - last_draw_ < min_interval_) return;
  last_draw_ = t;
  last_line_ = ProgressLine(name, done, total, t - start_);
  // Pad with spaces over a longer previous line instead of relying on terminal escapes.
  const size_t width = last_line_.size();
  *out_ << '\r' << last_line_ << std::string(drawn_width_ > width ? drawn_width_ - width : 0, ' ');
  out_->flush();
  drawn_width_ = std::max(drawn_width_, width);
  ++draws_;
}

void ProgressMeter::Finish() {
  if (drawn_width_ == 0) return;
  *out_ << '\r' << std::string(drawn_width_, ' ') << '\r';
  out_->flush();
  drawn_width_ = 0;
}

}  // namespace ncclscope
