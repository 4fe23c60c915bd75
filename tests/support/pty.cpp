#include "support/pty.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>

#include "support/spawn.h"

namespace wstest {

PtyResult ws_on_pty(const std::string& name, const std::vector<std::string>& args, const std::string& cwd,
                    const RunOptions& extra, bool stdout_on_tty) {
  RunOptions o = ws_options(cwd, extra);
  std::vector<std::string> env_strings = environment(o);
  std::vector<char*> envp = exec_array(env_strings);
  std::vector<std::string> argv{tool(name)};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> argp = exec_array(argv);

  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC)) throw std::runtime_error("pipe failed");
  termios raw{};
  cfmakeraw(&raw);
  cfsetspeed(&raw, B38400);
  winsize size{};
  size.ws_row = 24;
  size.ws_col = 80;
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, &raw, &size);
  if (pid < 0) throw std::runtime_error("forkpty failed");
  if (pid == 0) {
    if (!stdout_on_tty) dup2(out_pipe[1], 1);
    if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) _exit(127);
    execve(argp[0], argp.data(), envp.data());
    _exit(127);
  }
  close(out_pipe[1]);
  fcntl(master, F_SETFD, FD_CLOEXEC);

  PtyResult r;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_seconds);
  int out_fd = out_pipe[0];
  int tty_fd = master;
  while (out_fd >= 0 || tty_fd >= 0) {
    pollfd fds[2];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (tty_fd >= 0) fds[n++] = {tty_fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    int pr = poll(fds, n, static_cast<int>(left));
    if (pr < 0 && errno == EINTR) continue;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      char buf[65536];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      std::string& sink = fds[i].fd == out_fd ? r.out : r.tty;
      if (got > 0) {
        sink.append(buf, static_cast<std::size_t>(got));
      } else {
        // 0 at the end of the pipe; EIO on the master once the last holder
        // of the terminal (the tool) has exited.
        close(fds[i].fd);
        (fds[i].fd == out_fd ? out_fd : tty_fd) = -1;
      }
    }
  }
  if (out_fd >= 0) close(out_fd);
  if (tty_fd >= 0) close(tty_fd);
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

}  // namespace wstest
