// ws-bench-mcp: a round trip through ws mcp against the command-line
// process that answers the same question (bench/README.md). Run inside a
// workspace:
//
//   ws-bench-mcp BIN_DIR NAME FILE ROUNDS
//
// Starts `BIN_DIR/ws mcp` once, then ROUNDS times each: the grep tool for
// NAME (fixed string) against `ws-grep -F --json --max 1000 NAME`; the build
// tool against `ws-build --format json`; the write tool of FILE (two
// contents in turn, each naming the blob it replaces) against `cp` of the
// same bytes over FILE, the process an agent with a shell runs. Each
// server call is timed from the write of its request to the read of its
// answer; each process from its start to its exit. Prints one JSON object:
// {"rounds": N, "grep": {"server_p50_ms": ..., "cli_p50_ms": ...}, ...}.
// FILE holds its original bytes again at the end.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/mcp_client.h"
#include "support/spawn.h"

extern char** environ;

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

double p50(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<std::string> environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  return env;
}

// `ws mcp` (the tests' client), one tool call at a time.
class Server {
 public:
  explicit Server(const std::string& ws) : client_("", {ws, "mcp", "--session", "bench"}, environment()) {
    client_.initialize();
  }

  json call(const std::string& tool, json arguments) {
    json r = client_.ask(json{{"jsonrpc", "2.0"},
                              {"id", ++id_},
                              {"method", "tools/call"},
                              {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}}
                             .dump());
    if (!r.contains("result") || r["result"].value("isError", true)) {
      std::fprintf(stderr, "ws-bench-mcp: %s failed: %s\n", tool.c_str(), r.dump().c_str());
      std::exit(1);
    }
    return r["result"]["structuredContent"]["records"];
  }

 private:
  wstest::McpClient client_;
  int id_ = 0;
};

// A process run to its end, output discarded.
void run(const std::vector<std::string>& argv) {
  int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_t pid = wstest::spawn(argv, environment(), "", wstest::ChildFds{devnull, devnull, devnull});
  ::close(devnull);
  int st = 0;
  ::waitpid(pid, &st, 0);
}

std::vector<double> timed(int rounds, const std::function<void(int)>& once) {
  std::vector<double> ms;
  for (int i = 0; i < rounds; ++i) {
    auto start = Clock::now();
    once(i);
    ms.push_back(ms_since(start));
  }
  return ms;
}

json pair(const std::vector<double>& server, const std::vector<double>& cli) {
  double s = p50(server), c = p50(cli);
  return {{"server_p50_ms", s}, {"cli_p50_ms", c}, {"ratio", c > 0 ? s / c : 0}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: ws-bench-mcp BIN_DIR NAME FILE ROUNDS\n");
    return 2;
  }
  const std::string bin = argv[1], name = argv[2], file = argv[3];
  const int rounds = std::max(1, std::atoi(argv[4]));
  const std::string original = read_file(file);
  Server server(bin + "/ws");
  json out = {{"rounds", rounds}};

  // Each measured in turn: the server's rounds, then the processes'.
  std::vector<double> server_ms = timed(rounds, [&](int) {
    server.call("grep", {{"patterns", name}, {"fixed_strings", true}});
  });
  out["grep"] = pair(server_ms, timed(rounds, [&](int) {
                       run({bin + "/ws-grep", "-F", "--json", "--max", "1000", name});
                     }));
  server_ms = timed(rounds, [&](int) { server.call("build", json::object()); });
  out["build"] = pair(server_ms, timed(rounds, [&](int) { run({bin + "/ws-build", "--format", "json"}); }));

  // Two contents in turn: the original, and the original with a line more.
  // The copies cp reads, outside the workspace.
  char tmp[] = "/tmp/ws-bench-mcp-XXXXXX";
  if (!::mkdtemp(tmp)) return 2;
  const std::string copies = std::string(tmp) + "/content";
  write_file(copies + ".0", original);
  write_file(copies + ".1", original + "\n");
  std::string blob = server.call("read", {{"path", file}})[0]["blob"].get<std::string>();
  server_ms = timed(rounds, [&](int i) {
    json w = server.call("write", {{"path", file}, {"content", original + (i % 2 ? "" : "\n")}, {"expected", blob}});
    blob = w[0]["blob"].get<std::string>();
  });
  write_file(file, original);
  out["write"] = pair(server_ms, timed(rounds, [&](int i) { run({"cp", copies + (i % 2 ? ".0" : ".1"), file}); }));
  std::remove((copies + ".0").c_str());
  std::remove((copies + ".1").c_str());
  ::rmdir(tmp);
  write_file(file, original);
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
