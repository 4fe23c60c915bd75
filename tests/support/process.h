// Running real programs from tests: the tools under test, git, groff...
#pragma once

#include <map>
#include <string>
#include <vector>

namespace wstest {

struct RunResult {
  int status = -1;   // exit status; 128+N when killed by signal N
  std::string out;
  std::string err;
  bool timed_out = false;
};

struct RunOptions {
  std::string cwd;
  std::map<std::string, std::string> env;  // added to (or replacing in) the environment
  std::vector<std::string> unset_env;
  std::string input;                        // written to stdin
  int timeout_seconds = 60;
};

// Runs argv[0] (searched in PATH unless it contains '/'), capturing output.
// After a ws-apply that applied a proposal (exit 0, none of --list, --show,
// --reject, --prune, --help, --version), `git fsck --strict` must be clean in its
// repository, or the running test fails: every apply of the suite is
// checked (ws-apply(1): the commit that lands is made of canonical trees).
// After a tool run with --json or --format json (json_output_tool), its
// stdout must keep schemas/output/<tool>.json, or the running test fails
// (expect_valid_output).
RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {});

// Whether `argv` runs ws-apply to apply a proposal, as run() judges it.
bool applies_proposal(const std::vector<std::string>& argv);
// What `git fsck --strict` finds in the repository ws-apply ran on (its
// -C DIR, else options.cwd): its warnings and errors, one a line, "" when
// clean. Its notices (an unborn HEAD) are not problems.
std::string fsck_problems(const std::vector<std::string>& argv, const RunOptions& options);
// The same for the repository at `dir`.
std::string fsck_problems(const std::string& dir);

// Path of a built tool: WS_BIN_DIR/name.
std::string tool(const std::string& name);

// Runs a built tool with `args` in `cwd`, with a clean, deterministic environment
// (no colour, fixed session unless given).
RunResult ws(const std::string& name, const std::vector<std::string>& args,
             const std::string& cwd, const RunOptions& extra = {});

// The id a ws-commit run `r` staged: `r` must have exited 0 with
// "proposal <id>" on its first line.
std::string staged_id(const RunResult& r);

// What ws() runs a tool with: `extra` in `cwd`, minus the variables that
// would make its output depend on the caller's environment.
RunOptions ws_options(const std::string& cwd, const RunOptions& extra = {});
// ws_options for a tool run under strace: LeakSanitizer cannot run under
// ptrace, so in a sanitizer build the leak check is left to every other test.
RunOptions traced_options(const std::string& cwd);

// The environment a child gets: this process's, minus options.unset_env,
// plus options.env; "KEY=VALUE" strings.
std::vector<std::string> environment(const RunOptions& options);

// What git and the hooks it runs need of the environment in the gate tests,
// and nothing of the user's: the built tools first on PATH, the source kind
// pack, a fixed author and committer, and no system or global git config.
std::map<std::string, std::string> hook_env();

}  // namespace wstest

namespace wstest {
// Starts argv (output discarded), waits `delay_us` microseconds, then sends
// SIGKILL (if it is still running) and reaps it. Returns the exit status
// (128+9 when the kill landed). A ws-apply that finished and applied is
// checked with git fsck as run() checks it.
int run_and_kill(const std::vector<std::string>& argv, const RunOptions& options, int delay_us);
}  // namespace wstest
