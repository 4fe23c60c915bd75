// ws lsp (ws-lsp(1)) driven over its pipes by a scripted client: the
// diagnostics of a typo at its range and of the unchanged files an edit
// breaks, navigation, a rename equal to ws rename's, and every malformed
// frame or request answered with an error while the server goes on.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/lsp_client.h"
#include "support/process.h"
#include "support/source_scan.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using nlohmann::json;
using wstest::LspClient;
using wstest::TempRepo;

namespace {

constexpr const char* kRoute = "ai-tools/TLroute01.cs";
constexpr const char* kBilling = "agents/AGbilling01.json";

struct Session {
  TempRepo repo;
  std::string root;
  std::unique_ptr<LspClient> client;

  Session() {
    wstest::commit_example_workspace(repo, "Support desk workspace");
    REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
    root = fs::canonical(repo.path()).string();
    client = std::make_unique<LspClient>(repo.path(), std::vector<std::string>{wstest::tool("ws"), "lsp"},
                                         wstest::environment(wstest::ws_options(repo.path())));
  }
  std::string uri(const std::string& rel) const { return wstest::file_uri(root + "/" + rel); }
  void open(const std::string& rel, const std::string& language) {
    client->notify("textDocument/didOpen", {{"textDocument",
                                             {{"uri", uri(rel)}, {"languageId", language}, {"version", 1}, {"text", repo.read(rel)}}}});
  }
  void change(const std::string& rel, int version, int line, int from, int to, const std::string& text) {
    client->notify("textDocument/didChange",
                   {{"textDocument", {{"uri", uri(rel)}, {"version", version}}},
                    {"contentChanges", json::array({{{"range", {{"start", {{"line", line}, {"character", from}}},
                                                                 {"end", {{"line", line}, {"character", to}}}}},
                                                     {"text", text}}})}});
  }
  json at(const std::string& rel, int line, int character) const {
    return {{"textDocument", {{"uri", uri(rel)}}}, {"position", {{"line", line}, {"character", character}}}};
  }
};

json range(int l1, int c1, int l2, int c2) {
  return {{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}};
}

json location(const std::string& uri, int line, int from, int to) { return {{"uri", uri}, {"range", range(line, from, line, to)}}; }

// `text` with the LSP edits applied (ASCII text: a character is a byte).
std::string apply_edits(std::string text, json edits) {
  auto offset = [&](const json& pos) {
    std::size_t at = 0;
    for (int line = 0; line < pos["line"].get<int>(); ++line) at = text.find('\n', at) + 1;
    return at + pos["character"].get<std::size_t>();
  };
  std::sort(edits.begin(), edits.end(), [](const json& a, const json& b) {
    return std::make_pair(a["range"]["start"]["line"].get<int>(), a["range"]["start"]["character"].get<int>()) >
           std::make_pair(b["range"]["start"]["line"].get<int>(), b["range"]["start"]["character"].get<int>());
  });
  for (const json& e : edits) {
    std::size_t from = offset(e["range"]["start"]), to = offset(e["range"]["end"]);
    text.replace(from, to - from, e["newText"].get<std::string>());
  }
  return text;
}

}  // namespace

TEST_CASE("ws lsp publishes a typo's diagnostic at its range and the files an edit breaks", "[lsp]") {
  Session s;
  json init = s.client->initialize(s.root);
  REQUIRE(init.contains("result"));
  CHECK(init["result"]["capabilities"]["positionEncoding"] == "utf-16");
  CHECK(init["result"]["capabilities"]["renameProvider"] == json{{"prepareProvider", true}});
  CHECK(init["result"]["serverInfo"]["name"] == "ws");

  s.open(kRoute, "csharp");
  CHECK(s.client->diagnostics_for(s.uri(kRoute)) ==
        json{{"uri", s.uri(kRoute)}, {"version", 1}, {"diagnostics", json::array()}});

  // `return await Agents.Billing.Handoff(ticket);`: Billing -> Bxlling.
  s.change(kRoute, 2, 7, 25, 26, "x");
  json typo = s.client->diagnostics_for(s.uri(kRoute));
  CHECK(typo["version"] == 2);
  REQUIRE(typo["diagnostics"].size() == 1);
  json d = typo["diagnostics"][0];
  CHECK(d["range"] == range(7, 17, 7, 31));
  CHECK(d["code"] == "WS010");
  CHECK(d["severity"] == 1);
  CHECK(d["source"] == "ws");
  CHECK(d["message"] == "unresolved reference 'Agents.Bxlling'");
  CHECK(d["relatedInformation"][0]["message"] == "did you mean 'Billing'?");

  s.change(kRoute, 3, 7, 25, 26, "i");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());

  // Renaming the agent in its buffer breaks its unchanged referrers, on disk
  // or open, each at its own line.
  s.open(kBilling, "json");
  s.change(kBilling, 2, 1, 11, 18, "Payments");
  json grant = s.client->diagnostics_for(s.uri("access/grants/GTsupport01.json"));
  REQUIRE(grant["diagnostics"].size() == 1);
  CHECK(grant["diagnostics"][0]["range"] == range(4, 24, 4, 31));
  CHECK(grant["diagnostics"][0]["code"] == "WS013");
  json route = s.client->diagnostics_for(s.uri(kRoute));
  REQUIRE(route["diagnostics"].size() == 1);
  CHECK(route["diagnostics"][0]["range"] == range(7, 17, 7, 31));
  CHECK(route["version"] == 3);

  // Nothing was written.
  CHECK(s.repo.read(kBilling).find("\"Billing\"") != std::string::npos);
  CHECK(s.client->request("shutdown", nullptr)["result"].is_null());
  s.client->notify("exit", nullptr);
  CHECK(s.client->wait() == 0);
}

TEST_CASE("ws lsp goes to definitions, finds references, hovers, completes and lists symbols", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  s.open(kRoute, "csharp");
  std::string billing = s.uri(kBilling);

  CHECK(s.client->request("textDocument/definition", s.at(kRoute, 7, 26))["result"] ==
        json::array({location(billing, 1, 11, 18)}));
  json refs = s.at(kRoute, 7, 26);
  refs["context"] = {{"includeDeclaration", false}};
  CHECK(s.client->request("textDocument/references", refs)["result"] ==
        json::array({location(s.uri("access/grants/GTsupport01.json"), 4, 24, 31),
                     location(s.uri("agents/AGtriage01.json"), 7, 16, 23), location(s.uri(kRoute), 7, 24, 31)}));
  // From the JSON side: the grant's "Billing" is the same agent.
  CHECK(s.client->request("textDocument/definition", s.at("access/grants/GTsupport01.json", 4, 26))["result"] ==
        json::array({location(billing, 1, 11, 18)}));

  json hover = s.client->request("textDocument/hover", s.at(kRoute, 7, 26))["result"];
  CHECK(hover["contents"]["value"] ==
        "**agent** `Billing`\n\nAnswers invoice and refund questions\n\ndefined in `agents/AGbilling01.json` at line 2");
  CHECK(hover["range"] == range(7, 24, 7, 31));

  // A field: N.Ticket.Status names node type Ticket's field.
  json field = s.client->request("textDocument/definition", s.at(kRoute, 3, 23))["result"];
  REQUIRE(field.size() == 1);
  CHECK(field[0]["uri"] == s.uri("node-types/NTticket01.json"));

  json completion = s.client->request("textDocument/completion", s.at(kRoute, 7, 24))["result"];
  std::vector<std::string> labels;
  for (const json& item : completion) labels.push_back(item["label"]);
  CHECK(labels == std::vector<std::string>{"Billing", "Triage"});

  json symbols = s.client->request("textDocument/documentSymbol", {{"textDocument", {{"uri", s.uri(kRoute)}}}})["result"];
  REQUIRE(symbols.size() == 1);
  CHECK(symbols[0]["name"] == "RouteTicket");
  CHECK(symbols[0]["detail"] == "ai-tool");
  CHECK(symbols[0]["selectionRange"] == range(0, 9, 0, 20));

  // A position on no symbol: no answer, no error.
  CHECK(s.client->request("textDocument/definition", s.at(kRoute, 6, 2))["result"] == json::array());
}

TEST_CASE("ws lsp's rename is ws rename's, as one WorkspaceEdit, and writes nothing", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  s.open(kRoute, "csharp");
  json prepared = s.client->request("textDocument/prepareRename", s.at(kRoute, 7, 26))["result"];
  CHECK(prepared == json{{"range", range(7, 24, 7, 31)}, {"placeholder", "Billing"}});
  json params = s.at(kRoute, 7, 26);
  params["newName"] = "Payments";
  json edit = s.client->request("textDocument/rename", params)["result"];
  REQUIRE(edit.contains("changes"));
  CHECK(edit["changes"].size() == 4);

  std::map<std::string, std::string> by_lsp;
  for (auto& [uri, edits] : edit["changes"].items()) {
    std::string rel = uri.substr(s.uri("").size());
    by_lsp[rel] = apply_edits(s.repo.read(rel), edits);
  }
  // The same rename by ws rename, in the working tree.
  REQUIRE(wstest::ws("ws", {"rename", "--no-build", "agent", "Billing", "Payments"}, s.repo.path()).status == 0);
  for (const auto& [rel, bytes] : by_lsp) {
    INFO(rel);
    CHECK(s.repo.read(rel) == bytes);
  }

  // A taken name is refused with ws rename's message.
  params["newName"] = "Triage";
  CHECK(s.client->request("textDocument/rename", params)["error"] ==
        json{{"code", -32803},
             {"message", "refused to rename: agent 'Triage' exists already, in 'agents/AGtriage01.json'; choose another name"}});
}

TEST_CASE("ws lsp answers malformed frames and requests with errors and goes on", "[lsp]") {
  Session s;
  // Before initialize.
  json early = s.client->request("textDocument/hover", s.at(kRoute, 0, 0));
  CHECK(early["error"]["code"] == -32002);
  s.client->initialize(s.root);

  s.client->write_raw("Content-Length: 5\r\n\r\nnope!");
  json parse = *s.client->read();
  CHECK(parse["error"]["code"] == -32700);
  CHECK(parse["id"].is_null());

  s.client->write_raw("Content-Type: x\r\n\r\n");
  json frame = *s.client->read();
  CHECK(frame["error"] == json{{"code", -32700}, {"message", "malformed frame: no valid Content-Length header"}});

  s.client->send({{"jsonrpc", "1.0"}, {"id", 7}, {"method", "shutdown"}});
  CHECK(s.client->response_to(7)["error"]["code"] == -32600);
  CHECK(s.client->request("workspace/frobnicate", json::object())["error"] ==
        json{{"code", -32601}, {"message", "unknown method 'workspace/frobnicate'"}});
  json bad = s.at(kRoute, 0, 0);
  bad["position"] = "here";
  CHECK(s.client->request("textDocument/definition", bad)["error"]["code"] == -32602);
  CHECK(s.client->request("textDocument/definition", json::array({1, 2}))["error"]["code"] == -32602);

  // A request cancelled in the same read as itself is not answered but refused.
  std::string hover = json{{"jsonrpc", "2.0"}, {"id", 50}, {"method", "textDocument/hover"}, {"params", s.at(kRoute, 7, 26)}}.dump();
  std::string cancel = json{{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 50}}}}.dump();
  s.client->write_raw("Content-Length: " + std::to_string(hover.size()) + "\r\n\r\n" + hover + "Content-Length: " +
                      std::to_string(cancel.size()) + "\r\n\r\n" + cancel);
  CHECK(s.client->response_to(50)["error"]["code"] == -32800);

  // Params nested 2^20 deep: parsed and freed without recursion, refused.
  std::string deep = "{\"jsonrpc\":\"2.0\",\"id\":60,\"method\":\"textDocument/definition\",\"params\":" +
                     std::string(1 << 20, '[') + std::string(1 << 20, ']') + "}";
  s.client->write_raw("Content-Length: " + std::to_string(deep.size()) + "\r\n\r\n" + deep);
  CHECK(s.client->response_to(60)["error"]["code"] == -32602);

  // Still serving.
  CHECK(s.client->request("textDocument/definition", s.at(kRoute, 7, 26))["result"].size() == 1);
  CHECK(s.client->request("shutdown", nullptr)["result"].is_null());
  CHECK(s.client->request("textDocument/hover", s.at(kRoute, 7, 26))["error"]["code"] == -32600);
  s.client->notify("exit", nullptr);
  CHECK(s.client->wait() == 0);
}

TEST_CASE("ws lsp exits 1 without shutdown, and takes no buffer outside the workspace or of a secret", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  s.client->notify("textDocument/didOpen",
                   {{"textDocument", {{"uri", "file:///etc/passwd"}, {"languageId", "text"}, {"version", 1}, {"text", "x"}}}});
  s.client->notify("textDocument/didOpen", {{"textDocument",
                                             {{"uri", s.uri(".secrets/CrmKey")}, {"languageId", "text"}, {"version", 1}, {"text", "x"}}}});
  // A folder of the tree that is a link out: a buffer beyond it is not taken.
  wstest::TempDir outside;
  fs::create_directory_symlink(outside.path(), s.repo.abs("agents/out"));
  s.client->notify("textDocument/didOpen", {{"textDocument",
                                             {{"uri", s.uri("agents/out/AGx.json")}, {"languageId", "json"}, {"version", 1}, {"text", "{"}}}});
  s.open(kRoute, "csharp");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  CHECK(s.client->request("textDocument/definition", s.at(".secrets/CrmKey", 0, 0))["error"]["code"] == -32602);
  CHECK(s.client->request("textDocument/documentSymbol", {{"textDocument", {{"uri", s.uri("agents/out/AGx.json")}}}})["error"]["code"] ==
        -32602);
  for (const json& m : s.client->kept()) CHECK(m.dump().find("agents/out") == std::string::npos);
  for (const json& m : s.client->kept()) CHECK(m.dump().find("passwd") == std::string::npos);
  for (const json& m : s.client->kept()) CHECK(m.dump().find(".secrets") == std::string::npos);
  s.client->notify("exit", nullptr);
  CHECK(s.client->wait() == 1);
}

TEST_CASE("ws lsp refuses a message over 64 MiB and skips its bytes", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  s.client->write_raw("Content-Length: 99999999999\r\n\r\n");
  CHECK(*s.client->read() ==
        json{{"jsonrpc", "2.0"},
             {"id", nullptr},
             {"error", {{"code", -32700}, {"message", "message of 99999999999 bytes refused: the most is 67108864"}}}});
  // What follows is the refused message's body, not a request: the server
  // stays silent, and ends when the input does, without exit (status 1).
  s.client->notify("shutdown", nullptr);
  CHECK(!s.client->read(300));
  CHECK(s.client->wait() == 1);
}

TEST_CASE("ws lsp takes a file named through a link to the workspace's root as the workspace's", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  wstest::TempDir elsewhere;
  std::string via = elsewhere.path() + "/desk";
  fs::create_directory_symlink(s.root, via);
  std::string uri = wstest::file_uri(via + "/" + kRoute);
  s.client->notify("textDocument/didOpen",
                   {{"textDocument", {{"uri", uri}, {"languageId", "csharp"}, {"version", 1}, {"text", s.repo.read(kRoute)}}}});
  // Published under the root's own name, and the buffer is the file's.
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  json at = s.at(kRoute, 7, 26);
  at["textDocument"]["uri"] = uri;
  CHECK(s.client->request("textDocument/definition", at)["result"] ==
        json::array({location(s.uri(kBilling), 1, 11, 18)}));
}

TEST_CASE("ws lsp reads the disk again after a save, and drops a closed buffer", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  s.open(kRoute, "csharp");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  s.change(kRoute, 2, 7, 25, 26, "x");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"].size() == 1);

  // Closed unsaved: the disk's bytes count again, and they are clean.
  s.client->notify("textDocument/didClose", {{"textDocument", {{"uri", s.uri(kRoute)}}}});
  CHECK(s.client->diagnostics_for(s.uri(kRoute)) == json{{"uri", s.uri(kRoute)}, {"diagnostics", json::array()}});

  // Saved with the typo: the working tree's view changes, and the findings
  // come from the disk with no buffer open.
  std::string typo = s.repo.read(kRoute);
  typo.replace(typo.find("Agents.Billing"), 14, "Agents.Bxlling");
  s.repo.write(kRoute, typo);
  s.client->notify("textDocument/didSave", {{"textDocument", {{"uri", s.uri(kRoute)}}}});
  json saved = s.client->diagnostics_for(s.uri(kRoute));
  REQUIRE(saved["diagnostics"].size() == 1);
  CHECK(saved["diagnostics"][0]["message"] == "unresolved reference 'Agents.Bxlling'");

  // Fixed on the disk by another program, and the editor says a watched file
  // changed: the findings are gone.
  s.repo.write(kRoute, s.repo.git({"show", std::string("HEAD:") + kRoute}));
  s.client->notify("workspace/didChangeWatchedFiles", {{"changes", json::array({{{"uri", s.uri(kRoute)}, {"type", 2}}})}});
  CHECK(s.client->diagnostics_for(s.uri(kRoute)) == json{{"uri", s.uri(kRoute)}, {"diagnostics", json::array()}});
}

TEST_CASE("ws lsp completes a definition's fields and counts positions in bytes when the client asks", "[lsp]") {
  Session s;
  json init = s.client->initialize(s.root, {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}});
  CHECK(init["result"]["capabilities"]["positionEncoding"] == "utf-8");
  s.open(kRoute, "csharp");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  // `ticket.Set(N.Ticket.Status, "routed");`: after `N.Ticket.`.
  json completion = s.client->request("textDocument/completion", s.at(kRoute, 3, 20))["result"];
  std::vector<std::string> labels;
  for (const json& item : completion) labels.push_back(item["label"]);
  CHECK(labels == std::vector<std::string>{"Title", "Status", "Customer", "OpenedAt", "Type"});

  // A comment line after the header: "é" is two bytes, one UTF-16 unit.
  s.change(kRoute, 2, 2, 0, 0, "// \xC3\xA9\n");
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  s.change(kRoute, 3, 2, 5, 5, "x");  // "// é" + "x" at byte 5: after the é
  CHECK(s.client->diagnostics_for(s.uri(kRoute))["diagnostics"] == json::array());
  s.change(kRoute, 4, 8, 26, 27, "x");  // Billing -> Bxlling, one line lower
  json typo = s.client->diagnostics_for(s.uri(kRoute));
  REQUIRE(typo["diagnostics"].size() == 1);
  CHECK(typo["diagnostics"][0]["range"] == range(8, 17, 8, 31));
  // "/*é*/" before the chain: 6 bytes (5 UTF-16 units) further right.
  s.change(kRoute, 5, 8, 17, 17, "/*\xC3\xA9*/");
  typo = s.client->diagnostics_for(s.uri(kRoute));
  REQUIRE(typo["diagnostics"].size() == 1);
  CHECK(typo["diagnostics"][0]["range"] == range(8, 23, 8, 37));
  CHECK(s.client->request("textDocument/hover", s.at(kRoute, 8, 31))["result"]["range"] == range(8, 30, 8, 37));
}

TEST_CASE("ws lsp completes names in JSON references and header keys, and hovers with the description", "[lsp]") {
  Session s;
  s.client->initialize(s.root);
  auto labels_at = [&](const std::string& rel, int line, int character) {
    json items = s.client->request("textDocument/completion", s.at(rel, line, character))["result"];
    std::vector<std::string> out;
    for (const json& item : items) out.push_back(item["label"]);
    return out;
  };
  // "tools": ["LookupCustomer", ...] and "handoffs": ["Billing"].
  s.open("agents/AGtriage01.json", "json");
  CHECK(labels_at("agents/AGtriage01.json", 5, 14) == std::vector<std::string>{"LookupCustomer", "RouteTicket"});
  CHECK(labels_at("agents/AGtriage01.json", 7, 17) == std::vector<std::string>{"Billing", "Triage"});
  CHECK(labels_at("agents/AGtriage01.json", 3, 14).empty());  // "model": not a reference

  // A new line of the C# header, and of a front matter, before its ':'.
  s.open(kRoute, "csharp");
  s.change(kRoute, 2, 2, 0, 0, "// de\n");
  CHECK(labels_at(kRoute, 2, 5) == std::vector<std::string>{"description", "name"});
  CHECK(labels_at(kRoute, 3, 5).empty());  // code, past the header
  s.open("prompts/PRbilling01.md", "markdown");
  s.change("prompts/PRbilling01.md", 2, 2, 0, 0, "de\n");
  CHECK(labels_at("prompts/PRbilling01.md", 2, 2) == std::vector<std::string>{"description", "includes", "name"});
  CHECK(labels_at("prompts/PRbilling01.md", 5, 3).empty());  // the body

  json hover = s.client->request("textDocument/hover", s.at("agents/AGtriage01.json", 7, 17))["result"];
  CHECK(hover["contents"]["value"] ==
        "**agent** `Billing`\n\nAnswers invoice and refund questions\n\ndefined in `agents/AGbilling01.json` at line 2");
}

TEST_CASE("ws lsp answers about a secret by its name and never opens it", "[lsp]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
  std::string root = fs::canonical(repo.path()).string();
  wstest::TempDir out;
  std::string trace = out.path() + "/strace.out";
  LspClient client(repo.path(),
                   {"/usr/bin/strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", trace, wstest::tool("ws"), "lsp"},
                   wstest::environment(wstest::traced_options(repo.path())));
  REQUIRE(client.initialize(root).contains("result"));
  std::string endpoint = "endpoints/EPtriage01.cs", uri = wstest::file_uri(root + "/" + endpoint);
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "csharp"}, {"version", 1}, {"text", repo.read(endpoint)}}}});
  // `await Mail.Notify(Secrets.SupportMailbox, ticket);`
  json at = {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 6}, {"character", 30}}}};
  CHECK(client.request("textDocument/definition", at)["result"] ==
        json::array({location(wstest::file_uri(root + "/.secrets/SupportMailbox"), 0, 0, 0)}));
  json refs = at;
  refs["context"] = {{"includeDeclaration", false}};
  CHECK(client.request("textDocument/references", refs)["result"] == json::array({location(uri, 6, 26, 40)}));
  CHECK(client.request("textDocument/hover", at)["result"]["contents"]["value"] ==
        "**secret** `SupportMailbox`\n\ndefined in `.secrets/SupportMailbox` at line 1");
  json names = client.request("textDocument/completion", {{"textDocument", {{"uri", uri}}},
                                                          {"position", {{"line", 6}, {"character", 26}}}})["result"];
  REQUIRE(names.size() == 1);
  CHECK(names[0]["label"] == "SupportMailbox");
  at["newName"] = "Mailbox";
  CHECK(client.request("textDocument/rename", at)["error"]["code"] == -32803);
  CHECK(client.request("shutdown", nullptr)["result"].is_null());
  client.notify("exit", nullptr);
  CHECK(client.wait() == 0);
  // The kernel's record of every file the server opened: no secret.
  std::string opened = wstest::read_file(trace);
  CHECK(opened.find("SupportMailbox") == std::string::npos);
  CHECK(opened.find("execve") == std::string::npos);
}
