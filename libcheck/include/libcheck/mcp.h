// ws mcp (ws-mcp(1), docs/mcp.md): the workspace served to an AI agent
// over the Model Context Protocol. The library part: the transport's lines
// and a server that turns messages into messages. The caller owns the
// stream: it reads stdin, feeds the lines, writes what comes back, and asks
// between messages and when idle whether a subscribed file changed.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws::mcp {

// The longest message the server takes: past it, the line is refused and
// skipped (a write carries one file, under the size cap of every file).
inline constexpr std::size_t kMaxMessage = 16u << 20;

// The stdio transport: one JSON-RPC message a line, ended by '\n' (a '\r'
// before it is dropped). Empty lines are skipped.
class LineReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole line, nullopt while it has not all come. A line over
  // kMaxMessage is an Error once, and is dropped up to its end, so the
  // stream goes on with the next line.
  Result<std::optional<std::string>> next();

 private:
  std::string buffer_;
  std::size_t scanned_ = 0;   // bytes of buffer_ known to hold no '\n'
  bool skipping_ = false;     // inside a refused line
};

struct ServerOptions {
  std::string dir = ".";     // the workspace (ws mcp -C DIR)
  std::string kinds_dir;     // empty: default_kinds_dir()
  std::string session;       // empty: one is made up (generated_session)
  // The server's caps on every result: records, and bytes of records. A
  // call may ask for less, never for more.
  std::size_t max_records = 1000;
  std::size_t max_bytes = 256u << 10;
};

// "mcp-" and 8 random hex digits: a session name for a connection that
// names none.
std::string generated_session();

class Server {
 public:
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // One message (JSON text) in; the messages to send (JSON text each, no
  // line end) out, in order: its answer, if any, then the notifications
  // of subscribed files that changed. Never throws: a malformed message
  // gets a JSON-RPC error response.
  std::vector<std::string> handle(std::string_view message);
  // A line the LineReader refused, answered as JSON-RPC's parse error.
  std::string line_error(const Error& error) const;
  // notifications/resources/updated for each subscribed file that changed
  // on disk since it was last looked at.
  std::vector<std::string> changed_resources();
  // True while a resource is subscribed: the caller then asks
  // changed_resources() when the input has been quiet a while.
  bool watching() const;
  const std::string& session() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ws::mcp
