// A scripted client of ws mcp for the tests and the benchmark: runs the
// server with pipes, writes JSON-RPC lines, reads the lines it answers.
// Catch2-free, so bench/ links it too.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wstest {

class McpClient {
 public:
  // Runs `argv` in `cwd` with environment `env` (spawn()), its stdin and
  // stdout piped to this client, its stderr to /dev/null.
  McpClient(const std::string& cwd, const std::vector<std::string>& argv, const std::vector<std::string>& env);
  ~McpClient();
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  // Writes `lines` and a '\n'; throws std::runtime_error when the server
  // has gone.
  void send(const std::string& lines);
  // The next message the server writes; nullopt after `timeout_ms` or at
  // its end.
  std::optional<nlohmann::json> next(int timeout_ms = 60000);
  // send, then the next message; throws std::runtime_error when none comes.
  nlohmann::json ask(const std::string& message);
  // initialize, then the initialized notification; the initialize result.
  nlohmann::json initialize();

  void signal(int sig) const;
  // The server's process id (a wrapper that execs it, such as unshare, keeps it).
  pid_t pid() const { return pid_; }
  // The exit status once the server ends by itself (its input held open):
  // the status, or 128+N when killed by signal N.
  int wait();
  // Ends the input, then waits.
  int close();

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1, status_ = -1;
  std::string buffer_;
};

}  // namespace wstest
