// ws lsp under 10,000 random didChange edits (a fixed seed): inserts and
// deletes of code, strings, line ends and characters outside the Basic
// Multilingual Plane, addressed in UTF-16 as editors do. After every
// hundred, the diagnostics the server publishes for the file must be
// exactly those ws-build gives for the same bytes on disk.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/lsp_client.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFile = "ai-tools/TLroute01.cs";

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The LSP position (UTF-16) of byte `at` of `text`, whose lines end in "\n"
// or "\r\n" only.
std::pair<int, int> position(const std::string& text, std::size_t at) {
  int line = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      start = i + 1;
    }
  int character = 0;
  for (std::size_t i = start; i < at; ++i) {
    if (continuation(text[i])) continue;
    character += (static_cast<unsigned char>(text[i]) >= 0xF0) ? 2 : 1;
  }
  return {line, character};
}

// A byte offset where an edit may start or end: not inside a UTF-8
// sequence, nor between "\r" and "\n".
std::size_t boundary(const std::string& text, std::size_t at) {
  while (at > 0 && at < text.size() && (continuation(text[at]) || (text[at] == '\n' && text[at - 1] == '\r'))) --at;
  return at;
}

using Finding = std::tuple<std::string, int, int, std::string>;  // code, line, character, message

std::set<Finding> server_findings(const json& params) {
  std::set<Finding> out;
  for (const json& d : params["diagnostics"])
    out.emplace(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"]);
  return out;
}

// ws-build's findings in kFile for `text`, positions as the server gives them.
std::set<Finding> build_findings(const wstest::TempRepo& repo, const std::string& text) {
  repo.write(kFile, text);
  auto r = wstest::ws("ws-build", {"--format", "json"}, repo.path());
  std::set<Finding> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    json d = json::parse(line);
    if (d["type"] != "diagnostic" || d["path"] != kFile) continue;
    std::size_t at = 0;
    for (int l = 1; l < d["line"].get<int>(); ++l) at = text.find('\n', at) + 1;
    at += d["column"].get<std::size_t>() - 1;
    auto [l, c] = position(text, at);
    out.emplace(d["code"], l, c, d["message"]);
  }
  return out;
}

}  // namespace

TEST_CASE("10,000 random didChange edits publish what ws-build says of the same bytes", "[lsp][fuzz]") {
  wstest::TempRepo repo, disk;
  for (const wstest::TempRepo* r : {&repo, &disk}) {
    wstest::commit_example_workspace(*r, "Support desk workspace");
    REQUIRE(wstest::ws("ws-build", {}, r->path()).status == 0);
  }
  std::string root = fs::canonical(repo.path()).string();
  std::string uri = wstest::file_uri(root + "/" + kFile);
  wstest::LspClient client(repo.path(), {wstest::tool("ws"), "lsp"}, wstest::environment(wstest::ws_options(repo.path())));
  client.initialize(root);
  std::string text = repo.read(kFile);
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "csharp"}, {"version", 0}, {"text", text}}}});

  const std::vector<std::string> pieces{"a",  "Z", "_",  ".", "(",  ")",       "{",          "}",       ";",
                                        "\"", " ", "\n", "\r\n", "é", "\xF0\x9F\x98\x80", "Agents.", "N.Ticket.",
                                        "Billing", "// ", "@", "\\", "'"};
  std::mt19937 rng(20261202);
  int version = 0;
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 100; ++i) {
      std::size_t from = boundary(text, std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
      std::size_t length = std::uniform_int_distribution<std::size_t>(0, 6)(rng);
      // Keep the file from shrinking to nothing or growing without end.
      if (text.size() < 100) length = 0;
      std::size_t to = boundary(text, std::min(text.size(), from + length));
      std::string insert = text.size() > 2000 ? "" : pieces[rng() % pieces.size()];
      auto a = position(text, from), b = position(text, to);
      text.replace(from, to - from, insert);
      client.notify("textDocument/didChange",
                    {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                     {"contentChanges", json::array({{{"range", {{"start", {{"line", a.first}, {"character", a.second}}},
                                                                  {"end", {{"line", b.first}, {"character", b.second}}}}},
                                                      {"text", insert}}})}});
    }
    json published;
    do published = client.diagnostics_for(uri);
    while (!published.is_null() && published["version"] != version);
    REQUIRE(!published.is_null());
    INFO("after " << version << " changes, the text:\n" << text);
    CHECK(server_findings(published) == build_findings(disk, text));
  }
  CHECK(client.request("shutdown", nullptr)["result"].is_null());
  client.notify("exit", nullptr);
  CHECK(client.wait() == 0);
}
