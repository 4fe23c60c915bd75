// ws lsp (ws-lsp(1)): a Language Server Protocol 3.17 server over the
// workspace, its editor's unsaved buffers one more layer of the working
// tree's view (buffer_overlay.h). The library part: the base protocol's
// frames and a server that turns messages into messages. The caller owns
// the stream: it reads stdin, feeds the frames, writes what comes back,
// and says when the debounce of a change has passed (publish()).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws::lsp {

// The largest message the server takes: past it, the frame is refused and
// skipped (an editor's buffer is under the size cap of every definition).
inline constexpr std::size_t kMaxMessage = 64u << 20;

// The base protocol's frames: "Content-Length: N\r\n" (other headers
// ignored), an empty line, then N bytes of JSON.
class FrameReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole message, nullopt while its bytes have not all come. A
  // malformed header (no Content-Length, a bad number, a message over
  // kMaxMessage) is an Error and is skipped up to its blank line, so the
  // stream goes on with the next frame.
  Result<std::optional<std::string>> next();

 private:
  std::string buffer_;
  std::size_t skip_ = 0;  // bytes of a refused message body still to drop
};

// `json` as one frame.
std::string frame(std::string_view json);

struct ServerOptions {
  // The workspace when the client names no root (ws lsp -C DIR); "" : the
  // client's rootUri, else the current directory.
  std::string dir;
  std::string kinds_dir;  // empty: default_kinds_dir()
};

class Server {
 public:
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Handles the messages read together (JSON text each) and returns the
  // messages to send (JSON text each), in order. A $/cancelRequest among
  // them cancels a request before it that is not answered yet (error
  // -32800). Never throws: a malformed message gets an error response.
  std::vector<std::string> handle(const std::vector<std::string>& messages);
  // A malformed frame (FrameReader::next's error) answered as JSON-RPC's
  // parse error.
  std::string frame_error(const Error& error) const;
  // True when a change waits for its diagnostics.
  bool pending() const;
  // Builds the view with the buffers and returns the publishDiagnostics
  // notifications: for every file with findings, and an empty one for every
  // file that had findings and has none now.
  std::vector<std::string> publish();
  // After the exit notification: the process's exit status (0 when
  // shutdown came first, 1 otherwise).
  std::optional<int> exit_code() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ws::lsp
