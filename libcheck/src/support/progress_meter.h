// Counting finished work across worker threads for a ProgressFn
// (libcheck/progress.h): the workers only bump an atomic; one of them at a
// time, and only when a report is due, calls the function, so a slow sink
// never holds up the others.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>

#include "libcheck/progress.h"

namespace ws {

class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration kInterval = std::chrono::milliseconds(100);

  // `fn` may be empty: the meter then only counts. `now` stands in for the
  // clock in tests.
  ProgressMeter(ProgressFn fn, std::size_t total, Clock::duration interval = kInterval,
                std::function<Clock::time_point()> now = &Clock::now);

  // Reports 0 of total (nothing when there is no work); call once, before
  // the work starts.
  void start();
  // One unit finished, whatever became of it. Thread-safe.
  void tick();

  std::size_t done() const { return done_.load(std::memory_order_relaxed); }

 private:
  void report_locked(std::size_t done, Clock::time_point now);

  ProgressFn fn_;
  std::size_t total_;
  Clock::duration interval_;
  std::function<Clock::time_point()> now_;
  std::atomic<std::size_t> done_{0};
  // When the next intermediate report is due, read without the lock so that
  // a worker finding it not due yet takes no lock at all.
  std::atomic<Clock::rep> due_{0};
  std::mutex mu_;
  std::size_t reported_ = 0;  // guarded by mu_
  bool started_ = false;      // guarded by mu_
};

}  // namespace ws
