// ws-bench-lsp: how long ws lsp takes to publish the diagnostics of a
// one-character change (bench/README.md). Run inside a workspace:
//
//   ws-bench-lsp WS_BINARY FILE CHANGES
//
// Starts `WS_BINARY lsp`, opens FILE (root-relative), then CHANGES times
// replaces one character of the first `Agents.` chain's name with another
// (a typo, then the fix), and measures from the write of each didChange
// to the read of the publishDiagnostics of that version. Prints one JSON
// object: {"changes": N, "p50_ms": ..., "p95_ms": ..., "max_ms": ...}.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/lsp_client.h"

extern char** environ;

using nlohmann::json;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: ws-bench-lsp WS_BINARY FILE CHANGES\n");
    return 2;
  }
  std::string file = argv[2];
  int changes = std::atoi(argv[3]);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return 2;
  std::string root = cwd, uri = "file://" + root + "/" + file;
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  wstest::LspClient client(root, {argv[1], "lsp"}, env);
  client.initialize(root);

  std::string text = read_file(file);
  // The line and column of the first letter after "Agents." (ASCII files).
  std::size_t at = text.find("Agents.");
  if (at == std::string::npos) {
    std::fprintf(stderr, "ws-bench-lsp: no 'Agents.' chain in '%s'\n", file.c_str());
    return 2;
  }
  at += 7;
  int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  int column = static_cast<int>(at - (text.rfind('\n', at) + 1));
  char original = text[at];
  client.notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "csharp"}, {"version", 0}, {"text", text}}}});
  if (client.diagnostics_for(uri).is_null()) return 1;

  std::vector<double> ms;
  for (int version = 1; version <= changes; ++version) {
    std::string letter(1, version % 2 ? 'Q' : original);
    json range = {{"start", {{"line", line}, {"character", column}}}, {"end", {{"line", line}, {"character", column + 1}}}};
    auto start = std::chrono::steady_clock::now();
    client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                              {"contentChanges", json::array({{{"range", range}, {"text", letter}}})}});
    json published;
    do published = client.diagnostics_for(uri);
    while (!published.is_null() && published["version"] != version);
    if (published.is_null()) return 1;
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    // Each change its own: the next one comes after a pause an editor's keys leave.
    usleep(20000);
  }
  client.request("shutdown", nullptr);
  client.notify("exit", nullptr);
  client.wait();
  std::printf("%s\n", json{{"changes", changes},
                           {"p50_ms", percentile(ms, 0.5)},
                           {"p95_ms", percentile(ms, 0.95)},
                           {"max_ms", *std::max_element(ms.begin(), ms.end())}}
                          .dump()
                          .c_str());
  return 0;
}
