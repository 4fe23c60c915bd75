#include "common/progress.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>

namespace wscli {

namespace {

// Long enough that a build of a few hundred files shows nothing; short
// enough that a cold build of thousands is not silent while it works.
constexpr long kDefaultDelayMs = 200;

std::chrono::milliseconds progress_delay() {
  const char* env = std::getenv("WS_PROGRESS_DELAY_MS");
  if (!env || !*env) return std::chrono::milliseconds(kDefaultDelayMs);
  std::string_view s(env);
  long ms = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), ms);
  // A cosmetic knob: a value that is not a number of milliseconds is
  // ignored rather than failing the build.
  if (ec != std::errc() || end != s.data() + s.size() || ms < 0) ms = kDefaultDelayMs;
  return std::chrono::milliseconds(ms);
}

}  // namespace

void add_progress_options(CLI::App& app, ProgressMode& mode) {
  // Callbacks run as each flag is parsed, so the last one given wins, as in git.
  app.add_flag_callback("--progress", [&mode] { mode = ProgressMode::always; },
                        "show progress on stderr even when it is not a terminal")
      ->trigger_on_parse();
  app.add_flag_callback("--no-progress", [&mode] { mode = ProgressMode::never; }, "never show progress")
      ->trigger_on_parse();
}

ws::ProgressFn build_progress(const char* tool, ProgressMode mode, bool machine_output) {
  bool show = mode == ProgressMode::always ||
              (mode == ProgressMode::auto_ && !machine_output && isatty(STDERR_FILENO));
  if (!show) return {};
  auto line = std::make_shared<ws::ProgressLine>(std::cerr, std::string(tool) + ": reading definitions",
                                                 progress_delay());
  return [line](std::size_t done, std::size_t total) { line->update(done, total); };
}

}  // namespace wscli
