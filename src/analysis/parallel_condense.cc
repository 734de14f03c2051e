// CondenseInParallel: a bounded pool of worker threads condensing inputs, consumed in order.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "ncclscope/analysis/condensed.h"

namespace ncclscope {

void CondenseInParallel(const std::vector<InputPath>& inputs, unsigned jobs,
                        const std::function<void(CondensedInput&&)>& consume) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  const size_t n = inputs.size();
  const size_t workers = std::min<size_t>(jobs, n);
  // Inputs are taken in order; a worker does not start input i while i - next_consumed reaches
  // the window, so memory stays bounded when one early input is much larger than the rest.
  const size_t window = std::max<size_t>(2 * workers, 4);
  std::vector<std::optional<CondensedInput>> done(n);
  std::mutex mu;
  std::condition_variable cv;
  size_t next_start = 0, next_consumed = 0;

  auto work = [&] {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return next_start >= n || next_start < next_consumed + window; });
      if (next_start >= n) return;
      const size_t i = next_start++;
      lock.unlock();
      CondensedInput c = CondenseInput(inputs[i]);
      lock.lock();
      done[i] = std::move(c);
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  {
    std::unique_lock lock(mu);
    while (next_consumed < n) {
      cv.wait(lock, [&] { return done[next_consumed].has_value(); });
      CondensedInput c = std::move(*done[next_consumed]);
      done[next_consumed].reset();
      lock.unlock();
      consume(std::move(c));
      lock.lock();
      ++next_consumed;
      cv.notify_all();
    }
  }
  for (auto& t : pool) t.join();
}

}  // namespace ncclscope
