// Running a built tool on a pseudo-terminal, for what a tool does only when
// a person is watching (progress lines, colour).
#pragma once

#include <string>
#include <vector>

#include "support/process.h"

namespace wstest {

struct PtyResult {
  int status = -1;        // exit status; 128+N when killed by signal N
  std::string out;        // stdout, through a pipe; empty when stdout is the terminal
  std::string tty;        // every byte written to the terminal, as written
  bool timed_out = false;
};

// Runs a built tool as ws() does (same clean environment), but with stdin and
// stderr on a new pseudo-terminal (forkpty: the tool's controlling terminal,
// 80 columns) in raw mode, so that "\n" is not turned into "\r\n" on the way.
// stdout stays a pipe unless `stdout_on_tty`. No shell: the binary is exec'd.
PtyResult ws_on_pty(const std::string& name, const std::vector<std::string>& args, const std::string& cwd,
                    const RunOptions& extra = {}, bool stdout_on_tty = false);

}  // namespace wstest
