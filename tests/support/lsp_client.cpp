#include "support/lsp_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "support/spawn.h"

namespace wstest {

using nlohmann::json;

LspClient::LspClient(const std::string& cwd, const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  int to_server[2], from_server[2];
  if (pipe2(to_server, O_CLOEXEC) != 0 || pipe2(from_server, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  pid_ = spawn(argv, env, cwd, ChildFds{to_server[0], from_server[1], -1});
  close(to_server[0]);
  close(from_server[1]);
  in_ = to_server[1];
  out_ = from_server[0];
  signal(SIGPIPE, SIG_IGN);
}

LspClient::~LspClient() {
  if (in_ >= 0) close(in_);
  if (out_ >= 0) close(out_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void LspClient::write_raw(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

void LspClient::send(const json& message) {
  std::string body = message.dump();
  write_raw("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

void LspClient::notify(const std::string& method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

int LspClient::send_request(const std::string& method, json params) {
  int id = next_id_++;
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

std::optional<json> LspClient::read(int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    std::size_t end = buffer_.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::size_t colon = buffer_.find(':');
      std::size_t length = std::stoul(buffer_.substr(colon + 1, end - colon - 1));
      if (buffer_.size() >= end + 4 + length) {
        json m = json::parse(buffer_.substr(end + 4, length));
        buffer_.erase(0, end + 4 + length);
        return m;
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{out_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
    char chunk[65536];
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

json LspClient::response_to(int id) {
  for (;;) {
    auto m = read();
    if (!m) return json();
    if (m->contains("id") && (*m)["id"] == id && !m->contains("method")) return *m;
    kept_.push_back(std::move(*m));
  }
}

json LspClient::request(const std::string& method, json params) { return response_to(send_request(method, std::move(params))); }

json LspClient::diagnostics_for(const std::string& uri) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it)
    if ((*it)["method"] == "textDocument/publishDiagnostics" && (*it)["params"]["uri"] == uri) {
      json m = std::move(*it);
      kept_.erase(it);
      return m["params"];
    }
  for (;;) {
    auto m = read();
    if (!m) return json();
    if ((*m)["method"] == "textDocument/publishDiagnostics" && (*m)["params"]["uri"] == uri) return (*m)["params"];
    kept_.push_back(std::move(*m));
  }
}

json LspClient::initialize(const std::string& root, json capabilities) {
  json r = request("initialize", {{"processId", nullptr}, {"rootUri", file_uri(root)}, {"capabilities", capabilities}});
  notify("initialized", json::object());
  return r;
}

int LspClient::wait() {
  if (in_ >= 0) close(in_);
  in_ = -1;
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string file_uri(const std::string& path) { return "file://" + path; }

}  // namespace wstest
