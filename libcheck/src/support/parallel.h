// A minimal parallel-for over indices: the work of a tool is a list of
// independent files, so a shared atomic counter is all the scheduling needed.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ws {

inline unsigned worker_count() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

// Calls fn(i) for every i in [0, n), on up to worker_count() threads.
// fn must not throw.
template <class Fn>
void parallel_for(std::size_t n, Fn&& fn) {
  unsigned threads = static_cast<unsigned>(std::min<std::size_t>(worker_count(), n));
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) fn(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace ws
