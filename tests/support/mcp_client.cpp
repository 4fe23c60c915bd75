#include "support/mcp_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

#include "support/spawn.h"

namespace wstest {

using nlohmann::json;

McpClient::McpClient(const std::string& cwd, const std::vector<std::string>& argv,
                     const std::vector<std::string>& env) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_ = spawn(argv, env, cwd, ChildFds{in[0], out[1], devnull});
  ::close(in[0]);
  ::close(out[1]);
  ::close(devnull);
  to_ = in[1];
  from_ = out[0];
}

McpClient::~McpClient() { close(); }

void McpClient::send(const std::string& lines) {
  const std::string bytes = lines + "\n";
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(to_, bytes.data() + done, bytes.size() - done);
    if (n <= 0) throw std::runtime_error("ws mcp has gone: its input is closed");
    done += static_cast<std::size_t>(n);
  }
}

std::optional<json> McpClient::next(int timeout_ms) {
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      json m = json::parse(buffer_.substr(0, nl));
      buffer_.erase(0, nl + 1);
      return m;
    }
    pollfd p{from_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return std::nullopt;
    char chunk[1 << 16];
    ssize_t n = ::read(from_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

json McpClient::ask(const std::string& message) {
  send(message);
  auto answer = next();
  if (!answer) throw std::runtime_error("ws mcp did not answer: " + message.substr(0, 200));
  return *answer;
}

json McpClient::initialize() {
  json answer = ask(json{{"jsonrpc", "2.0"},
                         {"id", 0},
                         {"method", "initialize"},
                         {"params",
                          {{"protocolVersion", "2025-06-18"},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "ws-test-client"}, {"version", "1"}}}}}}
                        .dump());
  send(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump());
  return answer;
}

void McpClient::signal(int sig) const { ::kill(pid_, sig); }

int McpClient::wait() {
  if (pid_ < 0) return status_;
  int st = 0;
  ::waitpid(pid_, &st, 0);
  pid_ = -1;
  if (to_ >= 0) ::close(to_);
  ::close(from_);
  to_ = from_ = -1;
  status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return status_;
}

int McpClient::close() {
  if (pid_ < 0) return status_;
  ::close(to_);
  to_ = -1;
  return wait();
}

}  // namespace wstest
