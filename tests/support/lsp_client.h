// A scripted Language Server Protocol client for the tests and the
// benchmark: runs a server with pipes, sends frames, and reads the
// server's frames with a timeout.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wstest {

class LspClient {
 public:
  // Runs `argv` in `cwd` with environment `env` (spawn()), its stdin and
  // stdout piped to this client.
  LspClient(const std::string& cwd, const std::vector<std::string>& argv, const std::vector<std::string>& env);
  ~LspClient();
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  // Writes raw bytes to the server's stdin.
  void write_raw(const std::string& bytes);
  void send(const nlohmann::json& message);
  void notify(const std::string& method, nlohmann::json params);
  // Sends a request; returns its id.
  int send_request(const std::string& method, nlohmann::json params);
  // The next message from the server; nullopt after `timeout_ms` or at its end.
  std::optional<nlohmann::json> read(int timeout_ms = 20000);
  // Sends a request and returns its response; notifications read on the way
  // are kept (notifications()).
  nlohmann::json request(const std::string& method, nlohmann::json params);
  // The response to request `id`, notifications kept on the way.
  nlohmann::json response_to(int id);
  // The next publishDiagnostics for `uri` (kept ones first).
  nlohmann::json diagnostics_for(const std::string& uri);
  // initialize with the root `root`, then initialized.
  nlohmann::json initialize(const std::string& root, nlohmann::json capabilities = nlohmann::json::object());
  // The notifications read while waiting for something else, in order.
  const std::vector<nlohmann::json>& kept() const { return kept_; }
  // Closes stdin and waits for the exit status.
  int wait();

 private:
  pid_t pid_ = -1;
  int in_ = -1;   // the server's stdin
  int out_ = -1;  // the server's stdout
  std::string buffer_;
  int next_id_ = 1;
  std::vector<nlohmann::json> kept_;
};

// file:// URI of an absolute path (no character of the tests' paths needs escaping).
std::string file_uri(const std::string& path);

}  // namespace wstest
