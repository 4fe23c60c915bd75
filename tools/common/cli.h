// Options every tool shares (ws(7)), declared once so --help, the man
// pages and the completions agree. Each tool adds its own table on top.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/arguments.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"

namespace wscli {

enum Exit { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

struct CommonOptions {
  std::string dir = ".";
  std::string session;       // from --session, else WS_SESSION, else "default"
  std::string color = "auto";
  bool json = false;
  bool nul = false;          // -z
  bool version = false;
  bool quiet = false;        // -q/--quiet: nothing on stdout (ws(7), EXIT STATUS)
};

struct ViewOptions {
  bool staged = false;
  std::string rev;
  std::string base;
  std::string proposal;
  bool statuses = true;  // see ws::ViewSpec::statuses
  bool changes_only = false;  // see ws::ViewSpec::changes_only
  bool merge = false;         // see ws::ViewSpec::merge
};

// Adds -C, --session, --color, --json, -q/--quiet and --version. `with_z` adds -z.
void add_common_options(CLI::App& app, CommonOptions& o, bool with_z);
// Adds --staged, --rev, --base, --proposal.
void add_view_options(CLI::App& app, ViewOptions& v);

// Adds a long option whose value is optional: NAME alone sets `target` to
// `when_bare`, NAME=VALUE sets VALUE. The value is taken only after '=', so
// the next argument is never eaten (ws(7), OPTIONS). `value_name` ("REV") is
// shown as "[=REV]" in --help and the option table.
CLI::Option* add_optional_value_option(CLI::App& app, const std::string& name, std::string& target,
                                       const std::string& when_bare, const std::string& value_name,
                                       const std::string& help);

// Resolves the session (flag, WS_SESSION, "default") and validates it.
ws::Result<std::string> resolve_session(const CommonOptions& o);
ws::Result<ws::ViewSpec> to_view_spec(const ViewOptions& v);

// --color auto|always|never, honouring NO_COLOR and whether `stream` is a TTY.
bool use_color(const CommonOptions& o, std::FILE* stream);

// Opens the workspace for a tool; on error prints one line and returns nullopt
// with `exit_code` set. `for_build`: the tool builds the view next, so the
// definition cache is loaded while the view is computed. The lines about
// an interrupted apply (`on_interrupted`: report them, or refuse) go to stderr.
std::optional<ws::Workspace> open_or_report(const char* tool, const CommonOptions& o,
                                            const ViewOptions& v, int& exit_code, bool for_build = false,
                                            ws::InterruptedApply on_interrupted = ws::InterruptedApply::report);

// Ends the process with `code` once its output is flushed, without
// destroying what main built: freeing a view and a cache of 100,000 entries
// one by one takes longer than the kernel takes to drop the whole process
// (bench/DIAGNOSES.md, C7). For tools that have finished writing files.
[[noreturn]] void exit_without_teardown(int code);

// Prints "TOOL: message" to stderr, and maps an error to an exit status.
int report_error(const char* tool, const ws::Error& e);
int exit_code_for(const ws::Error& e);

// Every line a tool prints on stderr: "TOOL: message", or "TOOL: warning:
// message". Messages quote user input (a path, a revision, a branch name), so
// the message is shown as one line with every control character escaped
// (ws(7), TERMINAL OUTPUT).
void print_error(const char* tool, std::string_view message);
void print_warning(const char* tool, std::string_view message);

// Writes all of `bytes` to stdout, a write cut short by a signal resumed;
// false when the reader has gone (the servers' client: SIGPIPE ignored).
bool write_all_stdout(std::string_view bytes);

// A one-line field of human output (a path, a name, a subject): its control
// characters, line feeds included, escaped (ws(7), TERMINAL OUTPUT).
std::string shown(std::string_view text);

// "ws-ls 0.1.0 (tree-sitter@0.25.1, grammars: tree-sitter-c-sharp@0.23.5, ...)"
std::string version_line(const char* tool);

// Parses argv with CLI11, every option taking exactly what it says
// (common/arguments.h); returns an exit code to stop with (help, version,
// --help-options, usage error), or nullopt to go on. Adds the hidden flag
// --help-options, which prints option_table(app) and exits 0 as soon as
// it is seen, whatever else is on the command line. With --quiet, standard
// output is /dev/null from here on.
std::optional<int> parse(App& app, int argc, char** argv, const CommonOptions& o,
                         const char* tool);

// The option table of `app`, machine-readable, for the bash completion and the
// test that keeps the man pages in step with the tools. One line per option, in
// the order the options were added, four fields separated by a tab:
//   NAMES   every name, short ones first, comma-joined: "-l,--long", "--json";
//           a positional argument is its name without dashes: "pathspec"
//   TYPE    the value's type name: "DIR", "REV", "N", "KIND"; empty for a flag;
//           "[=REV]" for an optional value (--opt=REV)
//   VALUES  the accepted values, comma-joined: those of a CLI::IsMember check
//           ("auto,always,never"); for a KIND option without one, the kinds of
//           the default kind pack (a workspace may add more in .ws/kinds);
//           otherwise empty
//   HELP    the help text, on one line
// Hidden options (empty group), --help-options itself among them, are left out.
std::string option_table(CLI::App& app);

}  // namespace wscli
