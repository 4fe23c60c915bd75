// The language server in process (lsp.h), fed 5,000 mutations of valid
// messages: bytes flipped, cut short, values of another type in their
// place. Every message gets its answer or none, never an exception or a
// crash (the suite also runs under ASan and UBSan), and the server answers
// a well-formed request rightly afterwards.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/lsp.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `message` with a value somewhere in it replaced by one of another type.
json retyped(json message, std::mt19937& rng) {
  static const std::vector<json> others{nullptr, 7, -1, 4294967296.5, "x", json::array({1}), json::object(), true,
                                        "file:///etc/passwd", std::string(300, '\x01')};
  std::vector<json*> values;
  std::vector<json*> stack{&message};
  while (!stack.empty()) {
    json* j = stack.back();
    stack.pop_back();
    values.push_back(j);
    if (j->is_structured())
      for (auto& child : *j) stack.push_back(&child);
  }
  *values[rng() % values.size()] = others[rng() % others.size()];
  return message;
}

std::string mutated(const std::string& text, std::mt19937& rng) {
  std::string out = text;
  switch (rng() % 3) {
    case 0:
      for (int i = 0; i < 3; ++i) out[rng() % out.size()] = static_cast<char>(rng() % 256);
      break;
    case 1: out.resize(rng() % out.size()); break;
    default: out = retyped(json::parse(text), rng).dump(); break;
  }
  return out;
}

}  // namespace

TEST_CASE("5,000 mutated messages: each answered or dropped, never a crash", "[lsp]") {
  wstest::TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  std::string root = fs::canonical(repo.path()).string();
  std::string route = "file://" + root + "/ai-tools/TLroute01.cs";
  ws::lsp::Server server(ws::lsp::ServerOptions{"", std::string(WS_SOURCE_DIR) + "/schemas/kinds"});
  auto one = [&](const json& m) { return server.handle({m.dump()}); };
  REQUIRE(one({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"rootUri", "file://" + root}}}}).size() == 1);
  json position = {{"textDocument", {{"uri", route}}}, {"position", {{"line", 7}, {"character", 26}}}};
  const std::vector<json> corpus{
      {{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
       {"params", {{"textDocument", {{"uri", route}, {"languageId", "csharp"}, {"version", 1}, {"text", repo.read("ai-tools/TLroute01.cs")}}}}}},
      {{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
       {"params", {{"textDocument", {{"uri", route}, {"version", 2}}},
                   {"contentChanges", json::array({{{"range", {{"start", {{"line", 7}, {"character", 25}}},
                                                               {"end", {{"line", 7}, {"character", 26}}}}},
                                                    {"text", "i"}}})}}}},
      {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/definition"}, {"params", position}},
      {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "textDocument/references"}, {"params", position}},
      {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "textDocument/hover"}, {"params", position}},
      {{"jsonrpc", "2.0"}, {"id", 5}, {"method", "textDocument/completion"}, {"params", position}},
      {{"jsonrpc", "2.0"}, {"id", 6}, {"method", "textDocument/prepareRename"}, {"params", position}},
      {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "textDocument/documentSymbol"}, {"params", {{"textDocument", {{"uri", route}}}}}},
      {{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 2}}}},
  };
  std::mt19937 rng(5000);
  for (int i = 0; i < 5000; ++i) {
    std::string text = mutated(corpus[rng() % corpus.size()].dump(), rng);
    INFO(text);
    std::vector<std::string> out;
    REQUIRE_NOTHROW(out = server.handle({text}));
    for (const std::string& m : out) CHECK(json::accept(m));
    if (server.pending()) REQUIRE_NOTHROW(server.publish());
  }
  // The buffer may hold anything now: open it afresh, then ask.
  one(corpus[0]);
  auto answer = one({{"jsonrpc", "2.0"}, {"id", 99}, {"method", "textDocument/definition"}, {"params", position}});
  REQUIRE(answer.size() == 1);
  json def = json::parse(answer[0]);
  REQUIRE(def["result"].is_array());
  REQUIRE(def["result"].size() == 1);
  CHECK(def["result"][0]["uri"] == "file://" + root + "/agents/AGbilling01.json");
}
