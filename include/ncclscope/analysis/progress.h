// ProgressMeter: a one-line progress bar for reading large inputs (bytes read / total, MB/s),
// redrawn with '\r' at most every `min_interval` seconds and erased at the end. The clock and the
// stream are injected, so tests drive it with a fake clock and a string stream. Whether to show
// it at all (stderr a terminal, not --quiet) is the caller's decision.
#ifndef NCCLSCOPE_ANALYSIS_PROGRESS_H_
#define NCCLSCOPE_ANALYSIS_PROGRESS_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace ncclscope {

/// Progress of reading one input: its display name, bytes read so far, total bytes (-1 if
/// unknown: stdin, pipes, gzip).
using ProgressHook = std::function<void(const std::string& name, uint64_t done, int64_t total)>;

/// Seconds on a monotonic clock.
using SecondsClock = std::function<double()>;

/// The process's monotonic clock (std::chrono::steady_clock) in seconds.
double SteadySeconds();

class ProgressMeter {
 public:
  /// Inputs smaller than this get no bar (they are read in well under a second).
  static constexpr int64_t kDefaultMinTotal = 64ll << 20;

  /// Draws on `out` (must outlive the meter). `min_interval`: seconds between redraws.
  ProgressMeter(std::ostream* out, SecondsClock now, double min_interval = 0.1,
                int64_t min_total = kDefaultMinTotal);
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  /// Reports `done` bytes of an input of `total` bytes (-1: unknown, no bar). A new `name`
  /// starts a new input (its rate is measured from then). Redraws if the interval has passed.
  void Update(const std::string& name, uint64_t done, int64_t total);
  /// Erases the bar if one was drawn. Idempotent.
  void Finish();

  /// Number of redraws so far (tests).
  int draws() const { return draws_; }
  /// The last line drawn, without '\r' and padding (tests).
  const std::string& last_line() const { return last_line_; }

 private:
  std::ostream* out_;
  SecondsClock now_;
  double min_interval_;
  int64_t min_total_;
  std::string name_;
  double start_ = 0;
  double last_draw_ = -1;
  size_t drawn_width_ = 0;  // characters on screen, for erasing
  int draws_ = 0;
  std::string last_line_;
};

/// The bar text for `done` of `total` bytes after `seconds`, e.g.
/// "big.log [#########           ]  45%  450/1000 MB  1234 MB/s".
std::string ProgressLine(const std::string& name, uint64_t done, int64_t total, double seconds);

}  // namespace ncclscope

#endif  // NCCLSCOPE_ANALYSIS_PROGRESS_H_
