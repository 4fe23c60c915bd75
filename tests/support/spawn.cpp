#include "support/spawn.h"

#include <unistd.h>

#include <stdexcept>

extern char** environ;

namespace wstest {

std::vector<char*> exec_array(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& cwd,
            ChildFds fds) {
  // Everything the child needs is made before fork(), so that the child
  // only moves descriptors and calls exec.
  std::vector<std::string> args = argv, env_strings = env;
  std::vector<char*> argp = exec_array(args), envp = exec_array(env_strings);
  bool search_path = args.at(0).find('/') == std::string::npos;
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid > 0) return pid;
  if (fds.in >= 0) dup2(fds.in, 0);
  if (fds.out >= 0) dup2(fds.out, 1);
  if (fds.err >= 0) dup2(fds.err, 2);
  if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
  if (search_path) {
    environ = envp.data();
    execvp(argp[0], argp.data());
  } else {
    execve(argp[0], argp.data(), envp.data());
  }
  _exit(127);
}

}  // namespace wstest
