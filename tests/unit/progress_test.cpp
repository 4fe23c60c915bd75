// Progress of a build: what the compile reports (counts, from worker
// threads), how the meter throttles it, and the exact bytes of the line a
// tool draws from it.
#include <catch2/catch.hpp>

#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "definition_cache.h"
#include "libcheck/compile.h"
#include "libcheck/progress.h"
#include "progress_meter.h"
#include "support/memory_content.h"

using namespace ws;
using namespace std::chrono_literals;
using wstest::MemoryFile;

namespace {

using Calls = std::vector<std::pair<std::size_t, std::size_t>>;

const KindPack& pack() { return wstest::default_kind_pack(); }

std::string agent(const std::string& name) { return "{\n  \"name\": \"" + name + "\"\n}\n"; }

// A sink that records every call.
struct Recorder {
  std::mutex mu;
  Calls calls;
  ProgressFn fn() {
    return [this](std::size_t done, std::size_t total) {
      std::lock_guard lock(mu);
      calls.emplace_back(done, total);
    };
  }
};

// Checks the promise of ProgressFn: first 0, strictly increasing, the total
// never changing, and the last call done == total.
void check_well_formed(const Calls& calls, std::size_t total) {
  REQUIRE(calls.size() >= 2);
  CHECK(calls.front() == std::make_pair(std::size_t{0}, total));
  CHECK(calls.back() == std::make_pair(total, total));
  for (std::size_t i = 1; i < calls.size(); ++i) {
    INFO("call " << i << ": " << calls[i].first << "/" << calls[i].second);
    CHECK(calls[i].first > calls[i - 1].first);
    CHECK(calls[i].second == total);
  }
}

// A view of `n` agents, of which every tenth is modified, one over the size
// cap below, and, with `worktree`, the changed ones read as working-tree
// files (looked up in the cache by their bytes).
View agents_view(std::size_t n, bool worktree) {
  std::vector<MemoryFile> files;
  for (std::size_t i = 0; i < n; ++i) {
    std::string path = "agents/a" + std::to_string(i) + ".json";
    std::string name = "A" + std::to_string(i);
    if (i % 10 == 0)
      files.push_back({path, ChangeStatus::modified, agent(name), agent(name + "Old")});
    else if (i == 7)
      files.push_back({path, ChangeStatus::unchanged, agent(name) + std::string(600, ' ')});
    else
      files.push_back({path, ChangeStatus::unchanged, agent(name)});
  }
  View v = wstest::memory_view(files);
  if (!worktree) return v;
  std::vector<ViewEntry> entries = v.entries();
  for (auto& e : entries)
    if (e.status != ChangeStatus::unchanged) e.from_worktree = true;
  return View(std::move(entries), v.content_ptr(), "");
}

WorkspaceConfig small_cap() {
  WorkspaceConfig c;
  c.size_cap = 500;
  return c;
}

}  // namespace

TEST_CASE("progress: a compile reports 0, then growing counts, then every definition it read", "[progress]") {
  View view = agents_view(300, false);
  Recorder rec;
  BuildOptions o;
  o.progress = rec.fn();
  auto r = compile_view(view, pack(), small_cap(), o, nullptr);
  REQUIRE(r.ok());
  // Every file once, and the 30 modified ones' bases: 330, the one refused
  // for its size included.
  CHECK(r->stats.parsed == 329);
  check_well_formed(rec.calls, 330);
  CHECK(r->summary.errors == 0);  // the oversize file is unchanged and not checked
}

TEST_CASE("progress: cache hits count as done, and a build with nothing to read reports nothing", "[progress]") {
  View view = agents_view(100, true);
  DefinitionCache cache(tool_version(), pack().digest());
  {
    Recorder cold;
    BuildOptions o;
    o.progress = cold.fn();
    auto r = compile_view(view, pack(), small_cap(), o, &cache);
    REQUIRE(r.ok());
    check_well_formed(cold.calls, 110);
  }
  // Warm: the unchanged files and the bases come from the cache before any
  // job is made. Left: the ten working-tree files, jobs that end as cache
  // hits, and the oversize file, refused again. Eleven jobs, none parsed.
  Recorder warm;
  BuildOptions o;
  o.progress = warm.fn();
  auto r = compile_view(view, pack(), small_cap(), o, &cache);
  REQUIRE(r.ok());
  CHECK(r->stats.parsed == 0);
  CHECK(r->stats.cache_hits == 109);  // 89 unchanged, 10 bases, 10 working-tree files
  check_well_formed(warm.calls, 11);

  // Committed changes are looked up by blob id before any job is made; under
  // the default cap the big file is parsed (and cached): one job.
  View committed = agents_view(100, false);
  Recorder one;
  BuildOptions all;
  all.all = true;
  all.progress = one.fn();
  auto again = compile_view(committed, pack(), {}, all, &cache);
  REQUIRE(again.ok());
  CHECK(again->stats.parsed == 1);
  CHECK(one.calls == Calls{{0, 1}, {1, 1}});
  // Then nothing is left to read: no call at all.
  Recorder none;
  all.progress = none.fn();
  auto warmest = compile_view(committed, pack(), {}, all, &cache);
  REQUIRE(warmest.ok());
  CHECK(warmest->stats.parsed == 0);
  CHECK(none.calls.empty());
}

TEST_CASE("progress: the meter reports at most once an interval, and always the end", "[progress]") {
  ProgressMeter::Clock::time_point t0{};
  ProgressMeter::Clock::time_point now = t0;
  Calls calls;
  ProgressMeter m([&](std::size_t d, std::size_t t) { calls.emplace_back(d, t); }, 6, 100ms, [&] { return now; });
  m.start();
  CHECK(calls == Calls{{0, 6}});
  now = t0 + 99ms;
  m.tick();  // 1: not due
  CHECK(calls == Calls{{0, 6}});
  now = t0 + 100ms;
  m.tick();  // 2: due
  now = t0 + 150ms;
  m.tick();  // 3: not due, 100 ms from the last report
  now = t0 + 199ms;
  m.tick();  // 4
  CHECK(calls == Calls{{0, 6}, {2, 6}});
  now = t0 + 200ms;
  m.tick();  // 5: due
  now = t0 + 201ms;
  m.tick();  // 6: the end, due or not
  CHECK(calls == Calls{{0, 6}, {2, 6}, {5, 6}, {6, 6}});
  CHECK(m.done() == 6);

  // Nothing to do: nothing to say. No sink: counting only.
  Calls none;
  ProgressMeter idle([&](std::size_t d, std::size_t t) { none.emplace_back(d, t); }, 0);
  idle.start();
  CHECK(none.empty());
  ProgressMeter mute({}, 3);
  mute.start();
  mute.tick();
  CHECK(mute.done() == 1);
}

TEST_CASE("progress: the meter stays in order when many threads tick at once", "[progress]") {
  constexpr std::size_t kThreads = 4, kEach = 20000;
  Calls calls;
  std::mutex mu;
  int inside = 0, overlap = 0;
  // Interval 0: every tick is due, so the threads fight for every report.
  ProgressMeter m(
      [&](std::size_t d, std::size_t t) {
        {
          std::lock_guard lock(mu);
          if (++inside > 1) ++overlap;
          calls.emplace_back(d, t);
        }
        std::this_thread::yield();
        std::lock_guard lock(mu);
        --inside;
      },
      kThreads * kEach, ProgressMeter::Clock::duration::zero());
  m.start();
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < kThreads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i = 0; i < kEach; ++i) m.tick();
    });
  for (auto& t : pool) t.join();
  CHECK(overlap == 0);
  check_well_formed(calls, kThreads * kEach);
}

TEST_CASE("progress: the line's text, git's layout", "[progress]") {
  CHECK(progress_text("ws-build: reading definitions", 0, 3) == "ws-build: reading definitions:   0% (0/3)");
  CHECK(progress_text("t", 1, 3) == "t:  33% (1/3)");
  CHECK(progress_text("t", 2, 3) == "t:  66% (2/3)");
  CHECK(progress_text("t", 9000, 20000) == "t:  45% (9000/20000)");
  CHECK(progress_text("t", 19999, 20000) == "t:  99% (19999/20000)");  // rounded down: 100% means finished
  CHECK(progress_text("t", 20000, 20000) == "t: 100% (20000/20000), done");
}

TEST_CASE("progress: the line shows after the delay, rewrites itself with CR, and ends with done", "[progress]") {
  using Clock = ProgressLine::Clock;
  Clock::time_point t0{};
  std::ostringstream out;
  ProgressLine line(out, "ws-build: reading definitions", 200ms, t0);
  line.update(0, 20000, t0);
  line.update(5000, 20000, t0 + 199ms);
  CHECK(out.str() == "");
  CHECK(!line.shown());
  line.update(9000, 20000, t0 + 200ms);
  CHECK(out.str() == "\rws-build: reading definitions:  45% (9000/20000)");
  CHECK(line.shown());
  line.update(19999, 20000, t0 + 300ms);
  line.update(20000, 20000, t0 + 400ms);
  const std::string finished =
      "\rws-build: reading definitions:  45% (9000/20000)"
      "\rws-build: reading definitions:  99% (19999/20000)"
      "\rws-build: reading definitions: 100% (20000/20000), done\n";
  CHECK(out.str() == finished);
  // Finished: a stray update writes nothing.
  line.update(20000, 20000, t0 + 500ms);
  CHECK(out.str().size() == finished.size());
}

TEST_CASE("progress: work that ends within the delay leaves no trace, and no delay shows every update", "[progress]") {
  using Clock = ProgressLine::Clock;
  Clock::time_point t0{};
  std::ostringstream quick;
  ProgressLine q(quick, "t", 200ms, t0);
  q.update(0, 5, t0);
  q.update(5, 5, t0 + 150ms);
  q.update(5, 5, t0 + 1s);  // after the end: still nothing, not a lone done line
  CHECK(quick.str() == "");
  CHECK(!q.shown());

  std::ostringstream eager;
  ProgressLine e(eager, "t", Clock::duration::zero(), t0);
  e.update(0, 3, t0);
  e.update(3, 3, t0);
  CHECK(eager.str() == "\rt:   0% (0/3)\rt: 100% (3/3), done\n");
}
