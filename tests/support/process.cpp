#include "support/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "support/output_schema.h"
#include "support/spawn.h"
#include "support/temp_repo.h"

extern char** environ;

namespace wstest {

std::vector<std::string> environment(const RunOptions& options) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (auto& u : options.unset_env) env.erase(u);
  for (auto& [k, v] : options.env) env[k] = v;
  std::vector<std::string> env_strings;
  for (auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  return env_strings;
}

std::map<std::string, std::string> hook_env() {
  const char* path = std::getenv("PATH");
  return {{"PATH", std::string(WS_BIN_DIR) + ":" + (path ? path : "/usr/bin:/bin")},
          {"WS_KINDS_DIR", std::string(WS_SOURCE_DIR) + "/schemas/kinds"},
          {"GIT_AUTHOR_NAME", "Ada Author"},
          {"GIT_AUTHOR_EMAIL", "ada@example.com"},
          {"GIT_COMMITTER_NAME", "Carl Committer"},
          {"GIT_COMMITTER_EMAIL", "carl@example.com"},
          {"GIT_CONFIG_NOSYSTEM", "1"},
          {"GIT_CONFIG_GLOBAL", "/dev/null"}};
}

namespace {

// Fails the running test when a ws-apply that applied left a repository
// git fsck --strict does not pass. Tests also run tools from threads, and
// Catch2 asserts from one thread at a time.
void check_fsck_after_apply(const std::vector<std::string>& argv, const RunOptions& options, int status) {
  if (status != 0 || !applies_proposal(argv)) return;
  std::string problems = fsck_problems(argv, options);
  if (problems.empty()) return;
  static std::mutex one_at_a_time;
  std::lock_guard<std::mutex> lock(one_at_a_time);
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
  FAIL_CHECK("git fsck --strict is not clean after '" << command << "' in '" << options.cwd << "':\n" << problems);
}

}  // namespace

bool applies_proposal(const std::vector<std::string>& argv) {
  if (argv.empty()) return false;
  const std::string& program = argv[0];
  std::size_t slash = program.rfind('/');
  if (program.substr(slash == std::string::npos ? 0 : slash + 1) != "ws-apply") return false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    for (const char* mode : {"--list", "--show", "--reject", "--prune", "-h", "--help", "--version", "--help-options"})
      if (a == mode || a.rfind(std::string(mode) + "=", 0) == 0) return false;
  }
  return true;
}

std::string fsck_problems(const std::vector<std::string>& argv, const RunOptions& options) {
  std::string dir = options.cwd.empty() ? "." : options.cwd;
  for (std::size_t i = 1; i + 1 < argv.size(); ++i)
    if (argv[i] == "-C") dir = argv[i + 1][0] == '/' ? argv[i + 1] : dir + "/" + argv[i + 1];
  return fsck_problems(dir);
}

std::string fsck_problems(const std::string& dir) {
  RunOptions o;
  o.cwd = dir;
  o.unset_env = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"};
  RunResult r = run({"git", "fsck", "--strict", "--no-progress", "--no-dangling"}, o);
  // git fsck exits 0 on what it calls warnings (a bad file mode among
  // them), so every line but its notices ("HEAD points to an unborn
  // branch") counts.
  std::string problems;
  std::size_t at = 0;
  while (at < r.err.size()) {
    std::size_t end = r.err.find('\n', at);
    if (end == std::string::npos) end = r.err.size();
    std::string line = r.err.substr(at, end - at);
    if (line.rfind("notice: ", 0) != 0) problems += line + "\n";
    at = end + 1;
  }
  if (r.status != 0) problems = "git fsck exited " + std::to_string(r.status) + "\n" + r.out + problems;
  return problems;
}

RunResult run(const std::vector<std::string>& argv, const RunOptions& options) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC))
    throw std::runtime_error("pipe failed");

  pid_t pid = spawn(argv, environment(options), options.cwd, ChildFds{in_pipe[0], out_pipe[1], err_pipe[1]});
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);

  RunResult r;
  std::size_t written = 0;
  int in_fd = in_pipe[1];
  if (options.input.empty()) { close(in_fd); in_fd = -1; }
  else fcntl(in_fd, F_SETFL, O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  int out_fd = out_pipe[0], err_fd = err_pipe[0];
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) { r.timed_out = true; kill(pid, SIGKILL); break; }
    int pr = poll(fds, n, static_cast<int>(left));
    if (pr < 0 && errno == EINTR) continue;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in_fd) {
        ssize_t w = write(in_fd, options.input.data() + written, options.input.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 || written == options.input.size()) { close(in_fd); in_fd = -1; }
        continue;
      }
      char buf[65536];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      std::string& sink = fds[i].fd == out_fd ? r.out : r.err;
      if (got > 0) sink.append(buf, static_cast<std::size_t>(got));
      else {
        close(fds[i].fd);
        (fds[i].fd == out_fd ? out_fd : err_fd) = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0) close(err_fd);
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (!r.timed_out) check_fsck_after_apply(argv, options, r.status);
  // Every --json output of a tool that ran to its end keeps the published
  // contract (ws(7), JSON OUTPUT), whatever the test then reads of it.
  if (!r.timed_out && r.status < 128)
    if (std::string json_tool = json_output_tool(argv); !json_tool.empty()) expect_valid_output(json_tool, r.out);
  return r;
}

std::string tool(const std::string& name) { return std::string(WS_BIN_DIR) + "/" + name; }

RunResult ws(const std::string& name, const std::vector<std::string>& args,
             const std::string& cwd, const RunOptions& extra) {
  std::vector<std::string> argv{tool(name)};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, ws_options(cwd, extra));
}

std::string staged_id(const RunResult& r) {
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto ls = lines(r.out);
  REQUIRE(!ls.empty());
  REQUIRE(ls[0].rfind("proposal ", 0) == 0);
  return ls[0].substr(9);
}

RunOptions ws_options(const std::string& cwd, const RunOptions& extra) {
  RunOptions o = extra;
  o.cwd = cwd;
  o.unset_env.insert(o.unset_env.end(), {"NO_COLOR", "WS_SESSION", "CLICOLOR_FORCE", "GIT_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                                         "GIT_WORK_TREE", "GIT_INDEX_FILE", "WS_PROGRESS_DELAY_MS"});
  if (!o.env.count("WS_KINDS_DIR")) o.env["WS_KINDS_DIR"] = std::string(WS_SOURCE_DIR) + "/schemas/kinds";
  return o;
}

RunOptions traced_options(const std::string& cwd) {
  RunOptions o = ws_options(cwd);
  const char* asan = std::getenv("ASAN_OPTIONS");
  o.env["ASAN_OPTIONS"] = std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "detect_leaks=0";
  return o;
}

}  // namespace wstest

namespace wstest {
int run_and_kill(const std::vector<std::string>& argv, const RunOptions& options, int delay_us) {
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) throw std::runtime_error("cannot open /dev/null");
  pid_t pid = spawn(argv, environment(options), options.cwd, ChildFds{devnull, devnull, devnull});
  close(devnull);
  usleep(static_cast<useconds_t>(delay_us));
  kill(pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
  int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  check_fsck_after_apply(argv, options, status);
  return status;
}
}  // namespace wstest
