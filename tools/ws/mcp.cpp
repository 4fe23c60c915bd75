// ws mcp (ws-mcp(1)): the Model Context Protocol server over stdio. Reads
// lines from stdin, hands each message to the library's server, writes
// what it answers one line each, and looks at the subscribed files once a
// second while the input is quiet.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/cli.h"
#include "common/tools.h"
#include "libcheck/mcp.h"

namespace {

constexpr const char* kTool = "ws mcp";
// How often, while the input is quiet, subscribed files are looked at.
constexpr int kWatchMs = 1000;

struct Options {
  wscli::CommonOptions common;
  std::size_t max_records = 1000;
  std::size_t max_bytes = 256u << 10;
};

void add_options(wscli::App& app, Options& o) {
  app.get_formatter()->column_width(30);
  app.add_option("-C", o.common.dir, "serve the workspace of DIR (default: the current directory)")->type_name("DIR");
  app.add_option("--session", o.common.session,
                 "the session this connection's proposals are kept under (default: one made up, 'mcp-XXXXXXXX')")
      ->type_name("NAME");
  app.add_option("--max-records", o.max_records, "the most records a result holds (default 1000)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  app.add_option("--max-bytes", o.max_bytes, "the most bytes of records a result holds (default 262144)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{64} << 20));
}

bool send(const std::vector<std::string>& messages) {
  std::string out;
  for (const std::string& m : messages) out += m + "\n";
  return wscli::write_all_stdout(out);
}

// SIGTERM, SIGINT and SIGHUP ask the server to stop. They are blocked
// except while it waits for input (ppoll), so a message in hand, a write
// above all, is always finished before the server exits.
volatile std::sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

sigset_t block_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sigset_t stop, waiting;
  sigemptyset(&stop);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    ::sigaction(sig, &sa, nullptr);
    sigaddset(&stop, sig);
  }
  ::sigprocmask(SIG_BLOCK, &stop, &waiting);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigdelset(&waiting, sig);
  return waiting;
}

enum class Wait { input, idle, stop };

// Waits for input; while files are watched, for at most kWatchMs.
Wait wait_for_input(const ws::mcp::Server& server, const sigset_t& waiting) {
  pollfd in{STDIN_FILENO, POLLIN, 0};
  const timespec watch{kWatchMs / 1000, (kWatchMs % 1000) * 1000000L};
  for (;;) {
    int n = ::ppoll(&in, 1, server.watching() ? &watch : nullptr, &waiting);
    if (g_stop) return Wait::stop;
    if (n < 0 && errno == EINTR) continue;
    return n == 0 ? Wait::idle : Wait::input;
  }
}

// Every whole line read so far, answered in order; false when the client has gone.
bool answer_lines(ws::mcp::LineReader& reader, ws::mcp::Server& server) {
  for (;;) {
    auto next = reader.next();
    if (!next) {
      if (!send({server.line_error(next.error())})) return false;
      continue;
    }
    if (!*next) return true;
    if (!send(server.handle(**next))) return false;
  }
}

int serve(ws::mcp::Server& server) {
  const sigset_t waiting = block_stop_signals();
  ws::mcp::LineReader reader;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    Wait w = wait_for_input(server, waiting);
    if (w == Wait::stop) return 0;
    if (w == Wait::idle) {
      if (!send(server.changed_resources())) return 0;
      continue;
    }
    ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    // The client closed the stream: the end of the connection. Each
    // request was answered, and each write finished, before this read.
    if (n <= 0) return 0;
    reader.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    if (!answer_lines(reader, server)) return 0;
  }
}

}  // namespace

int wstools::run_mcp(int argc, char** argv) {
  Options o;
  o.common.session.clear();
  wscli::App app{"Serve the workspace to an AI agent: the Model Context Protocol over stdin and stdout, one "
                 "session per connection (docs/mcp.md).",
                 kTool};
  add_options(app, o);
  if (auto code = wscli::parse(app, argc, argv, o.common, kTool)) return *code;
  // --session, else WS_SESSION, else one made up for this connection.
  const char* env = std::getenv("WS_SESSION");
  if (!o.common.session.empty() || (env && *env)) {
    auto session = wscli::resolve_session(o.common);
    if (!session) return wscli::report_error(kTool, session.error());
    o.common.session = *session;
  }
  ws::mcp::ServerOptions so;
  so.dir = o.common.dir;
  so.session = o.common.session;
  so.max_records = o.max_records;
  so.max_bytes = o.max_bytes;
  ws::mcp::Server server(so);
  // A client that goes away closes the pipe: a write then fails and ends
  // the server, instead of a signal.
  std::signal(SIGPIPE, SIG_IGN);
  return serve(server);
}
