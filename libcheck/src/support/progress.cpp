#include "libcheck/progress.h"

#include <fmt/core.h>

#include "progress_meter.h"

namespace ws {

std::string progress_text(const std::string& title, std::size_t done, std::size_t total) {
  std::size_t percent = total ? done * 100 / total : 100;
  // Three columns for the percentage, as git does, so the counts after it
  // stay put while the line is rewritten.
  return fmt::format("{}: {:>3}% ({}/{}){}", title, percent, done, total, done >= total ? ", done" : "");
}

ProgressLine::ProgressLine(std::ostream& out, std::string title, Clock::duration delay, Clock::time_point start)
    : out_(out), title_(std::move(title)), show_after_(start + delay) {}

void ProgressLine::update(std::size_t done, std::size_t total, Clock::time_point now) {
  if (finished_) return;
  bool last = done >= total;
  if (!shown_ && now < show_after_) {
    // Over before the delay: leave no trace, not even the final line.
    if (last) finished_ = true;
    return;
  }
  shown_ = true;
  // The counts only grow, so each rewrite is at least as long as the one it
  // covers: '\r' alone is enough, no padding to blank a longer tail.
  out_ << '\r' << progress_text(title_, done, total);
  if (last) {
    out_ << '\n';
    finished_ = true;
  }
  out_.flush();
}

ProgressMeter::ProgressMeter(ProgressFn fn, std::size_t total, Clock::duration interval,
                             std::function<Clock::time_point()> now)
    : fn_(std::move(fn)), total_(total), interval_(interval), now_(std::move(now)) {}

void ProgressMeter::report_locked(std::size_t done, Clock::time_point now) {
  // Strictly increasing: a report that lost the race to a later one is
  // dropped, and nothing follows the final one.
  if (started_ && done <= reported_) return;
  started_ = true;
  reported_ = done;
  due_.store((now + interval_).time_since_epoch().count(), std::memory_order_relaxed);
  // Progress is cosmetic: a sink that throws (out of memory formatting a
  // line) must neither fail the build nor escape a worker thread.
  try {
    fn_(done, total_);
  } catch (...) {
  }
}

void ProgressMeter::start() {
  if (!fn_ || total_ == 0) return;
  std::lock_guard lock(mu_);
  report_locked(0, now_());
}

void ProgressMeter::tick() {
  std::size_t done = done_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (!fn_ || total_ == 0) return;
  if (done == total_) {
    // The last one waits for the lock: the final count is never dropped.
    std::lock_guard lock(mu_);
    report_locked(total_, now_());
    return;
  }
  Clock::time_point now = now_();
  if (now.time_since_epoch().count() < due_.load(std::memory_order_relaxed)) return;
  std::unique_lock lock(mu_, std::try_to_lock);
  if (!lock) return;  // another worker is reporting right now
  if (now.time_since_epoch().count() < due_.load(std::memory_order_relaxed)) return;
  report_locked(done_.load(std::memory_order_relaxed), now);
}

}  // namespace ws
