#pragma once
// Work over millions of pairs in contiguous chunks on separate threads (the pairs analysis and
// correlate at scale): each chunk is a range of indices [begin, end); callers keep one result per
// chunk and merge them in chunk order, so the result is the same for any number of threads.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace podperf {

// Threads for `items` pairs: one below 200,000 (threads cost more than they save), else one per
// hardware thread, at most 8.
inline std::size_t analysis_threads(std::size_t items) {
  constexpr std::size_t kItemsPerThread = 200000;
  if (items < kItemsPerThread) return 1;
  const std::size_t hardware = std::max(1U, std::thread::hardware_concurrency());
  return std::min<std::size_t>({hardware, 8, items / kItemsPerThread});
}

// Calls work(w, begin, end) for chunk w of `workers` (at least 1) equal chunks of [0, total), the
// last on this thread; rethrows the first chunk's exception after all have finished.
template <class Work>
void in_chunks(std::size_t total, std::size_t workers, Work&& work) {
  workers = std::max<std::size_t>(1, workers);
  const std::size_t chunk = (total + workers - 1) / workers;
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w) {
    const std::size_t begin = std::min(total, w * chunk);
    const std::size_t end = std::min(total, begin + chunk);
    auto task = [&work, &errors, w, begin, end] {
      try {
        work(w, begin, end);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    };
    if (w + 1 == workers) {
      task();
    } else {
      pool.emplace_back(task);
    }
  }
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace podperf
