// Progress of long work (the parse of a cold build: seconds at 20,000
// definitions). The library only counts: a ProgressFn is told how far a step
// has got. ProgressLine turns those counts into git's delayed progress line,
// written to a stream the caller gives (a tool gives std::cerr on a terminal);
// whether to show one at all is the tool's business.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace ws {

// `done` of `total` units of a step finished. A step with work to do calls
// it once with done == 0, then at most about ten times a second as work
// finishes, and once with done == total; done only grows. Calls may come
// from any thread, never two at a time.
using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

// One progress line, rewritten in place with '\r', like git's:
//   "\rws-build: reading definitions:  45% (9000/20000)"
//   "\rws-build: reading definitions: 100% (20000/20000), done\n"
// Nothing is written before `delay` has passed since `start`, so a step that
// ends sooner leaves no trace; once shown, every update rewrites the line and
// the one with done == total ends it. Updates after that are ignored.
class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  ProgressLine(std::ostream& out, std::string title, Clock::duration delay,
               Clock::time_point start = Clock::now());

  void update(std::size_t done, std::size_t total, Clock::time_point now = Clock::now());
  bool shown() const { return shown_; }

 private:
  std::ostream& out_;
  std::string title_;
  Clock::time_point show_after_;
  bool shown_ = false;
  bool finished_ = false;
};

// The text of one update, without the leading '\r': "TITLE:  45% (9/20)",
// and ", done" after it when done == total. The percentage is rounded down,
// so 100% means finished.
std::string progress_text(const std::string& title, std::size_t done, std::size_t total);

}  // namespace ws
