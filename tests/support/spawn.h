// Starting a child process for the tests and the benchmarks, without Catch2
// (bench/ links it): one fork and exec for run(), run_and_kill() and the
// LSP client.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace wstest {

// Pointers to `strings`, ending in a null pointer, as execve takes argv and
// envp; they stay valid while `strings` does.
std::vector<char*> exec_array(std::vector<std::string>& strings);

// The descriptors a child gets as its stdin, stdout and stderr; -1 keeps
// the parent's.
struct ChildFds {
  int in = -1, out = -1, err = -1;
};

// Starts `argv` in `cwd` (the parent's when empty) with exactly the
// environment `env` ("KEY=VALUE" strings) and `fds`; returns its pid. An
// argv[0] without a '/' is looked up on `env`'s PATH, as execvp does. A
// child that cannot change to `cwd` or exec exits 127, as a shell's would.
// Every other descriptor the parent opened with O_CLOEXEC stays behind.
pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& cwd,
            ChildFds fds);

}  // namespace wstest
