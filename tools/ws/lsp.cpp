// ws lsp (ws-lsp(1)): the language server over stdio. Reads frames from
// stdin, hands the messages of each read to the library's server, writes
// what it answers, and publishes diagnostics once the input has been quiet
// for the debounce interval.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/tools.h"
#include "libcheck/lsp.h"

namespace {

constexpr const char* kTool = "ws lsp";
// How long the input must be quiet after a change before the view is built:
// a burst of keys is one build.
constexpr int kDebounceMs = 10;

struct Options {
  wscli::CommonOptions common;
  std::string kinds_dir;
  bool stdio = true;
};

void add_options(wscli::App& app, Options& o) {
  app.get_formatter()->column_width(30);
  app.add_option("-C", o.common.dir, "the workspace when the editor names no root folder")->type_name("DIR");
  app.add_flag("--stdio", o.stdio, "talk over stdin and stdout (the only transport; editors pass it)");
}

bool send(const std::vector<std::string>& messages) {
  for (const std::string& m : messages)
    if (!wscli::write_all_stdout(ws::lsp::frame(m))) return false;
  return true;
}

// Every whole frame read so far; a malformed one is answered as a parse error.
bool take_frames(ws::lsp::FrameReader& reader, ws::lsp::Server& server, std::vector<std::string>& messages) {
  for (;;) {
    auto next = reader.next();
    if (!next) {
      if (!send({server.frame_error(next.error())})) return false;
      continue;
    }
    if (!*next) return true;
    messages.push_back(std::move(**next));
  }
}

// Waits for input, or for the debounce to pass when diagnostics are due:
// true when there is input to read.
bool wait_for_input(const ws::lsp::Server& server) {
  pollfd in{STDIN_FILENO, POLLIN, 0};
  for (;;) {
    int n = ::poll(&in, 1, server.pending() ? kDebounceMs : -1);
    if (n < 0 && errno == EINTR) continue;
    return n != 0;
  }
}

int serve(const Options& o) {
  ws::lsp::Server server(ws::lsp::ServerOptions{o.common.dir == "." ? "" : o.common.dir, o.kinds_dir});
  ws::lsp::FrameReader reader;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    if (!wait_for_input(server)) {
      if (!send(server.publish())) return 1;
      continue;
    }
    ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return server.exit_code().value_or(1);  // the editor closed the stream without exit
    reader.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    std::vector<std::string> messages;
    if (!take_frames(reader, server, messages)) return 1;
    if (!send(server.handle(messages))) return 1;
    if (auto code = server.exit_code()) return *code;
  }
}

}  // namespace

int wstools::run_lsp(int argc, char** argv) {
  Options o;
  wscli::App app{"Serve the workspace to an editor: the Language Server Protocol over stdin and stdout, with the "
                 "editor's unsaved files laid over the working tree.",
                 kTool};
  add_options(app, o);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;
  // An editor that goes away closes the pipe: a write then fails, and
  // ends the server, instead of a signal.
  std::signal(SIGPIPE, SIG_IGN);
  return serve(o);
}
