// CondenseInParallel: a bounded pool of worker threads condensing input pieces, consumed in order.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "ncclscope/analysis/condensed.h"

namespace ncclscope {

void CondenseInParallel(const std::vector<InputPath>& inputs,
                        const std::vector<InputPiece>& pieces, unsigned jobs,
                        const std::function<void(size_t, CondensedInput&&)>& consume) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  const size_t n = pieces.size();
  // The calling thread is one of the `jobs`: it replays the pieces in order and, while the next
  // one is not ready, condenses pieces itself. So `jobs` threads share the work and none waits
  // while another would need its core (with one worker per job, the replay competed with them).
  const size_t workers = std::min<size_t>(jobs - 1, n);
  // Pieces are taken in order; nobody starts piece i while i - next_consumed reaches the window,
  // so memory stays bounded when the replay is slower than the workers: at most `window` pieces
  // are held condensed (a condensed piece is at most its 4 MiB of kept lines, and mostly far
  // less). The slack beyond one piece per thread matters: while the calling thread condenses a
  // piece itself, it replays nothing, and with a window of workers + 2 the workers soon found it
  // full and idled (mixed, -j 2: the worker was busy 43 % of the samples; 48 % with this one).
  const size_t window = workers + 6;
  std::vector<std::optional<CondensedInput>> done(n);
  std::mutex mu;
  std::condition_variable cv;
  size_t next_start = 0, next_consumed = 0;
  auto may_start = [&] { return next_start < n && next_start < next_consumed + window; };
  // Condenses piece next_start; `lock` is held on entry and on return.
  auto condense_next = [&](std::unique_lock<std::mutex>& lock) {
    const size_t i = next_start++;
    lock.unlock();
    CondensedInput c = CondenseInput(inputs[pieces[i].input], pieces[i]);
    lock.lock();
    done[i] = std::move(c);
    cv.notify_all();
  };

  auto work = [&] {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return next_start >= n || may_start(); });
      if (next_start >= n) return;
      condense_next(lock);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  {
    std::unique_lock lock(mu);
    while (next_consumed < n) {
      if (!done[next_consumed].has_value()) {
        if (may_start()) {
          condense_next(lock);
        } else {
          cv.wait(lock, [&] { return done[next_consumed].has_value() || may_start(); });
        }
        continue;
      }
      CondensedInput c = std::move(*done[next_consumed]);
      done[next_consumed].reset();
      lock.unlock();
      consume(next_consumed, std::move(c));
      lock.lock();
      ++next_consumed;
      cv.notify_all();
    }
  }
  for (auto& t : pool) t.join();
}

void CondenseInParallel(const std::vector<InputPath>& inputs, unsigned jobs,
                        const std::function<void(CondensedInput&&)>& consume) {
  std::vector<InputPiece> whole(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) whole[i].input = i;
  CondenseInParallel(inputs, whole, jobs,
                     [&](size_t, CondensedInput&& c) { consume(std::move(c)); });
}

}  // namespace ncclscope
