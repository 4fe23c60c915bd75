// --progress / --no-progress for the tools that build (ws-build, ws-commit):
// git's rules. By default progress shows only when stderr is a terminal and
// the output is for people; --progress forces it onto stderr (never stdout,
// so no report is spoilt); --no-progress turns it off. The last one given wins.
#pragma once

#include <CLI/CLI.hpp>

#include "libcheck/progress.h"

namespace wscli {

enum class ProgressMode { auto_, always, never };

// Adds --progress and --no-progress, setting `mode`.
void add_progress_options(CLI::App& app, ProgressMode& mode);

// The sink for a build's progress: a line on stderr titled
// "TOOL: reading definitions", shown after WS_PROGRESS_DELAY_MS milliseconds
// (default 200), or an empty function when progress is not to be shown.
// `machine_output`: the report is JSON, SARIF or the like, which auto mode
// takes as a sign that nobody watches the terminal.
ws::ProgressFn build_progress(const char* tool, ProgressMode mode, bool machine_output);

}  // namespace wscli
