// ws mcp's protocol, line by line (docs/mcp.md, ws-mcp(1)): the real
// server, started as an agent's client starts it, fed JSON-RPC lines on its
// standard input. Malformed lines, every tool with valid, wrong and hostile
// arguments (the public traversal payload lists of ../shared/data, secret
// paths, links, oversized writes), caps and their truncation records, and a
// client that goes away or is killed in the middle of a write. Each test
// checks the answers, the exit status and what is on disk after.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/mcp_client.h"
#include "support/process.h"
#include "support/spawn.h"
#include "support/temp_repo.h"

using nlohmann::json;
using wstest::RunResult;
using wstest::TempRepo;
namespace fs = std::filesystem;

namespace {

std::string line(const json& message) { return message.dump(); }

std::string request(int id, const std::string& method, json params = json::object()) {
  return line({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

std::string call(int id, const std::string& tool, json arguments) {
  return request(id, "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
}

std::string initialize() {
  return request(0, "initialize",
                 {{"protocolVersion", "2025-06-18"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "ws-protocol-test"}, {"version", "1"}}}}) +
         "\n" + line({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

// What one run of the server wrote.
struct Served {
  RunResult run;
  std::vector<json> messages;

  // The answer to request `id`: there must be exactly one.
  const json& answer(int id) const {
    const json* found = nullptr;
    for (const json& m : messages)
      if (m.contains("id") && m["id"] == id) {
        INFO("two answers to request " << id);
        REQUIRE(found == nullptr);
        found = &m;
      }
    INFO("no answer to request " << id << "; the server wrote:\n" << run.out << run.err);
    REQUIRE(found != nullptr);
    return *found;
  }
};

// Runs `ws mcp` (with `args`) in `repo` on `lines`, each a message or raw
// text, after initialize unless `initialized` is false; the input then ends.
Served serve(const TempRepo& repo, const std::vector<std::string>& lines, const std::vector<std::string>& args = {},
             bool initialized = true) {
  wstest::RunOptions o;
  o.input = initialized ? initialize() + "\n" : "";
  for (const std::string& l : lines) o.input += l + "\n";
  o.timeout_seconds = 120;
  std::vector<std::string> argv = {"mcp", "--session", "agent"};
  argv.insert(argv.end(), args.begin(), args.end());
  Served s{wstest::ws("ws", argv, repo.path(), o), {}};
  for (const std::string& l : wstest::lines(s.run.out)) {
    json m = json::parse(l, nullptr, false);
    INFO("a line that is not JSON: " << l);
    REQUIRE(!m.is_discarded());
    s.messages.push_back(std::move(m));
  }
  return s;
}

// A tool's records: the call must have succeeded.
json records(const json& answer) {
  INFO(answer.dump());
  REQUIRE(answer.contains("result"));
  REQUIRE(answer["result"]["isError"] == false);
  const json& r = answer["result"]["structuredContent"]["records"];
  REQUIRE(r.is_array());
  // The text is the same JSON, for clients that read text only.
  REQUIRE(json::parse(answer["result"]["content"][0]["text"].get<std::string>()) ==
          answer["result"]["structuredContent"]);
  return r;
}

// A refused call: "rule: message" (a tool error's one line and its rule,
// "" for an argument that is wrong).
std::string refusal(const json& answer) {
  INFO(answer.dump());
  REQUIRE(answer.contains("result"));
  REQUIRE(answer["result"]["isError"] == true);
  std::string text = answer["result"]["content"][0]["text"].get<std::string>();
  CHECK(text.find('\n') == std::string::npos);
  return answer["result"]["_meta"]["rule"].get<std::string>() + ": " + text;
}

// A JSON-RPC error: "code message".
std::string error_of(const json& answer) {
  INFO(answer.dump());
  REQUIRE(answer.contains("error"));
  return std::to_string(answer["error"]["code"].get<int>()) + " " + answer["error"]["message"].get<std::string>();
}

std::string blob_of(const TempRepo& repo, const std::string& path) {
  return wstest::chomp(repo.git({"hash-object", path}));
}

// The files of the working tree and git's status: what a test compares
// before and after.
std::string status(const TempRepo& repo) { return repo.git({"status", "--porcelain", "--ignored", "-uall"}); }

// A connection held open: one request at a time, each answer read before
// the next is sent, so a test can act between two calls. `ws mcp` (with
// `args`) in `repo`, initialized.
class Connection : public wstest::McpClient {
 public:
  explicit Connection(const TempRepo& repo, const std::vector<std::string>& args = {})
      : McpClient(repo.path(), argv(args), wstest::environment(wstest::ws_options(repo.path()))) {
    REQUIRE(initialize().contains("result"));
  }

 private:
  static std::vector<std::string> argv(const std::vector<std::string>& args) {
    std::vector<std::string> out = {wstest::tool("ws"), "mcp", "--session", "agent"};
    out.insert(out.end(), args.begin(), args.end());
    return out;
  }
};

}  // namespace

TEST_CASE("ws mcp answers malformed lines with JSON-RPC errors and goes on", "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  repo.write("agents/AGnew01.json", "{\n  \"name\": \"New\"\n}\n");  // a change a commit could stage
  std::string deep = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"ls\",\"arguments\":" +
                     std::string(1 << 16, '[') + std::string(1 << 16, ']') + "}}";
  Served s = serve(repo, {
                             "not json",
                             "[1,2]",
                             R"({"jsonrpc":"1.0","id":2,"method":"ping"})",
                             R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":"ls"})",
                             R"({"jsonrpc":"2.0","id":4,"method":"no/such"})",
                             R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}})",
                             call(6, "frobnicate", json::object()),
                             "",
                             request(7, "ping") + "\r",
                             request(8, "initialize", {{"protocolVersion", "2025-06-18"}}),
                             deep,
                             std::string(17u << 20, 'x'),
                             call(10, "ls", {{"max", -1}}),
                             call(11, "ls", {{"kinds", 7}}),
                             call(12, "ls", {{"max", 1}, {"colour", true}}),
                             call(13, "read", json::object()),
                             call(16, "commit", {{"message", std::string("staged\0cut", 10)}}),
                             call(17, "build", {{"all", "yes"}}),
                             call(18, "grep", {{"patterns", "(unclosed"}}),
                             call(14, "ls", json::array({1})),
                             request(15, "ping"),
                         });
  CHECK(s.run.status == 0);
  CHECK(s.run.err == "");
  // The answers without an id, in order: the line that is not JSON, the
  // batch, the line over the size limit.
  std::vector<std::string> anonymous;
  for (const json& m : s.messages)
    if (m.contains("id") && m["id"].is_null()) anonymous.push_back(error_of(m));
  CHECK(anonymous == std::vector<std::string>{
                         "-32700 parse error: the message is not JSON",
                         "-32600 invalid request: not a JSON-RPC 2.0 request or notification",
                         "-32700 parse error: a message over 16777216 bytes was dropped",
                     });
  CHECK(error_of(s.answer(2)) == "-32600 invalid request: not a JSON-RPC 2.0 request or notification");
  CHECK(error_of(s.answer(3)) == "-32600 invalid request: not a JSON-RPC 2.0 request or notification");
  CHECK(error_of(s.answer(4)) == "-32601 unknown method 'no/such'");
  CHECK(error_of(s.answer(5)) == "-32602 invalid params: tools/call needs the tool's 'name'");
  CHECK(error_of(s.answer(6)) == "-32602 unknown tool 'frobnicate'");
  CHECK(s.answer(7)["result"] == json::object());
  CHECK(error_of(s.answer(8)) == "-32600 initialize came twice");
  CHECK(refusal(s.answer(9)) == ": invalid arguments: they must be a JSON object");
  CHECK(refusal(s.answer(10)) == ": invalid argument 'max': it must be a whole number from 0");
  CHECK(refusal(s.answer(11)) == ": invalid argument 'kinds': it must be a string or a list of strings");
  CHECK(refusal(s.answer(12)) == ": unknown argument 'colour'; this tool takes kinds, changed, paths, max");
  CHECK(refusal(s.answer(13)) == ": invalid argument 'path': it is required");
  CHECK(refusal(s.answer(14)) == ": invalid arguments: they must be a JSON object");
  CHECK(s.answer(15)["result"] == json::object());
  CHECK(refusal(s.answer(16)) == ": invalid proposal message: it holds a NUL byte; give it as text");
  CHECK(refusal(s.answer(17)) == ": invalid argument 'all': it must be true or false");
  CHECK(refusal(s.answer(18)) == "pattern: invalid pattern '(unclosed': missing ): (unclosed");
  CHECK(repo.git({"for-each-ref", "refs/ws"}) == "");
}

TEST_CASE("ws mcp refuses every request but initialize and ping before initialize", "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  Served s = serve(repo, {request(1, "tools/list"), request(2, "ping"), call(3, "ls", json::object())}, {}, false);
  CHECK(s.run.status == 0);
  CHECK(error_of(s.answer(1)) == "-32600 the server is not initialized");
  CHECK(s.answer(2)["result"] == json::object());
  CHECK(error_of(s.answer(3)) == "-32600 the server is not initialized");
}

TEST_CASE("ws mcp caps every result and ends a capped one with its truncation record", "[mcp][protocol][caps]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  std::string route = repo.read("ai-tools/TLroute01.cs");
  Served s = serve(repo,
                   {
                       call(1, "ls", {{"max", 2}}),
                       call(2, "ls", {{"max", 100000}}),
                       call(3, "grep", {{"patterns", "name"}, {"max", 1}}),
                       call(4, "read", {{"path", "ai-tools/TLroute01.cs"}, {"max_bytes", 40}}),
                       call(5, "read", {{"path", "ai-tools/TLroute01.cs"}, {"start_line", 2}, {"end_line", 3}}),
                       call(6, "read", {{"path", "ai-tools/TLroute01.cs"}, {"start_line", 99}}),
                       call(7, "ls", json::object()),
                       call(8, "read", {{"path", "ai-tools/TLroute01.cs"}, {"start_line", 3}, {"end_line", 2}}),
                   },
                   {"--max-records", "3"});
  CHECK(s.run.status == 0);
  json two = records(s.answer(1));
  REQUIRE(two.size() == 3);
  CHECK(two[0]["type"] == "entry");
  CHECK(two[1]["type"] == "entry");
  CHECK(two[2]["type"] == "Listing-Truncated");
  std::size_t entries = wstest::lines(wstest::ws("ws-ls", {"--json"}, repo.path()).out).size();
  REQUIRE(entries > 5);
  CHECK(two[2]["omitted"] == entries - 2);
  // Asking for more than the server's cap gets the server's cap.
  json three = records(s.answer(2));
  REQUIRE(three.size() == 4);
  CHECK(three[3]["type"] == "Listing-Truncated");
  CHECK(three[3]["omitted"] == entries - 3);
  CHECK(records(s.answer(7)) == three);

  json grep = records(s.answer(3));
  REQUIRE(grep.size() >= 2);
  CHECK(grep[0]["type"] == "match");
  CHECK(grep[grep.size() - 1]["type"] == "summary");
  CHECK(grep[grep.size() - 2]["type"] == "Grep-Truncated");

  // A read cut after its last whole line that fits.
  json cut = records(s.answer(4));
  REQUIRE(cut.size() == 2);
  std::string first = route.substr(0, route.find('\n') + 1);
  REQUIRE(first.size() <= 40);
  CHECK(cut[0]["text"] == first);
  CHECK(cut[0]["start_line"] == 1);
  CHECK(cut[0]["end_line"] == 1);
  CHECK(cut[1] == json{{"type", "Read-Truncated"},
                       {"version", 1},
                       {"omitted_bytes", route.size() - first.size()},
                       {"omitted_lines", 9},
                       {"max_bytes", 40}});
  json lines = records(s.answer(5));
  REQUIRE(lines.size() == 1);
  std::string second_third = route.substr(first.size());
  second_third = second_third.substr(0, second_third.find('\n', second_third.find('\n') + 1) + 1);
  CHECK(lines[0]["text"] == second_third);
  CHECK(lines[0]["lines"] == 10);
  CHECK(lines[0]["start_line"] == 2);
  CHECK(lines[0]["end_line"] == 3);
  CHECK(refusal(s.answer(8)) == ": invalid argument 'end_line': it is before 'start_line'");
  CHECK(refusal(s.answer(6)) == ": invalid argument 'start_line': 'ai-tools/TLroute01.cs' has 10 lines");
}

TEST_CASE("ws mcp caps a result's bytes below the server's limit", "[mcp][protocol][caps]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  Served s = serve(repo, {call(1, "ls", json::object()), call(2, "grep", {{"patterns", "e"}})}, {"--max-bytes", "1024"});
  CHECK(s.run.status == 0);
  for (int id : {1, 2}) {
    json r = records(s.answer(id));
    std::size_t bytes = 0;
    for (const json& record : r) bytes += record.dump().size() + 1;
    CHECK(bytes <= 1024);
    bool truncated = false;
    for (const json& record : r)
      if (record["type"] == (id == 1 ? "Listing-Truncated" : "Grep-Truncated")) {
        truncated = true;
        CHECK(record["max_bytes"] == 1024);
        CHECK(record["omitted"].get<int>() > 0);
      }
    CHECK(truncated);
  }
}

TEST_CASE("ws mcp refuses the public traversal payloads in every tool that takes a path", "[mcp][protocol][hostile]") {
  const std::string dir = WS_SHARED_DATA_DIR;
  std::vector<std::string> payloads;
  for (const char* name : {"path-traversal-payloads.txt", "path-traversal-dotdotpwn.txt"}) {
    std::ifstream in(dir + "/" + name);
    if (!in) {
      WARN("conformance data '" << dir << "/" << name << "' not found; test skipped (see ../shared/data/README.md)");
      return;
    }
    // Every payload of the short list; of the long one, each that climbs
    // or starts at a root, the ones a path policy must stop.
    bool all = std::string(name) == "path-traversal-payloads.txt";
    for (std::string l; std::getline(in, l);)
      if (!l.empty() && (all || l.find("..") != std::string::npos || l[0] == '/' || l[0] == '\\'))
        payloads.push_back(l);
  }
  REQUIRE(payloads.size() > 4000);

  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  auto before = wstest::tree_bytes(repo);
  std::vector<std::string> lines;
  int id = 1;
  for (const std::string& p : payloads) {
    lines.push_back(call(id++, "read", {{"path", p}}));
    lines.push_back(call(id++, "write", {{"path", p}, {"content", "{\"name\": \"Owned\"}\n"}, {"expected", "absent"}}));
    lines.push_back(call(id++, "delete", {{"path", p}}));
    lines.push_back(request(id++, "resources/read", {{"uri", "ws://" + p}}));
  }
  lines.push_back(call(id, "ls", {{"paths", json::array({"../", "/etc/passwd"})}}));
  Served s = serve(repo, lines);
  CHECK(s.run.status == 0);
  CHECK(s.run.err == "");
  // Not one answer succeeded, and none holds what is outside.
  std::size_t refused = 0;
  for (const json& m : s.messages) {
    if (m["id"] == 0) continue;
    INFO(m.dump());
    bool tool_error = m.contains("result") && m["result"].value("isError", false);
    CHECK((tool_error || m.contains("error")));
    refused += tool_error || m.contains("error");
  }
  CHECK(refused == 4 * payloads.size() + 1);
  CHECK(s.run.out.find("root:") == std::string::npos);
  CHECK(s.run.out.find("[fonts]") == std::string::npos);
  CHECK(wstest::tree_bytes(repo) == before);
  CHECK(status(repo) == "");
}

TEST_CASE("ws mcp writes only definitions, through the path policy, and never past a link", "[mcp][protocol][hostile]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir outside;
  const std::string target = outside.path() + "/target.json";
  { std::ofstream(target) << "{\"name\": \"Outside\"}\n"; }
  // A link to a file outside, one to a folder outside, and a hard link.
  fs::create_symlink(target, repo.abs("agents/AGlink01.json"));
  // The skills folder itself a link to a folder outside.
  fs::create_directory(outside.path() + "/skills");
  for (const auto& f : fs::directory_iterator(repo.abs("skills")))
    fs::rename(f.path(), outside.path() + "/skills/" + f.path().filename().string());
  fs::remove(repo.abs("skills"));
  fs::create_directory_symlink(outside.path() + "/skills", repo.abs("skills"));
  fs::create_hard_link(repo.abs("agents/AGbilling01.json"), outside.path() + "/billing-twin.json");
  auto before = wstest::tree_bytes(repo);
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  const std::string triage = blob_of(repo, "agents/AGtriage01.json");
  const std::string body = "{\n  \"name\": \"Owned\"\n}\n";
  auto write = [&](int id, const std::string& path, const std::string& expected) {
    return call(id, "write", {{"path", path}, {"content", body}, {"expected", expected}});
  };
  Served s = serve(repo, {
                             write(1, "agents/AGlink01.json", "absent"),
                             call(2, "read", {{"path", "agents/AGlink01.json"}}),
                             call(3, "delete", {{"path", "agents/AGlink01.json"}}),
                             write(4, "skills/SKx.md", "absent"),
                             write(5, "agents/AGbilling01.json", billing),
                             call(6, "read", {{"path", "agents/AGbilling01.json"}}),
                             write(7, ".git/hooks/pre-commit", "absent"),
                             write(8, ".ws/config.json", "absent"),
                             write(9, "README.md", "absent"),
                             write(10, ".github/workflows/ws.yml", "absent"),
                             write(11, "agents/../../escape.json", "absent"),
                             write(12, "/tmp/abs.json", "absent"),
                             write(13, "agents/AG\x1b[31mred.json", "absent"),
                             write(14, "agents/AGbig01.json", "absent"),
                             write(15, "agents/AGtriage01.json", "absent"),
                             write(16, "agents/AGbilling01.json", "0123"),
                             call(17, "ls", {{"paths", "agents"}}),
                             call(18, "grep", {{"patterns", "name"}, {"paths", "agents"}}),
                             call(19, "grep", {{"patterns", "name"}, {"paths", json::array({"agents", "nothing/"})}}),
                         });
  CHECK(s.run.status == 0);
  CHECK(refusal(s.answer(1)) ==
        "symlink: refused path 'agents/AGlink01.json': symlink (the path is or goes through a symbolic link, and "
        "links are never followed); replace the link with the file itself");
  CHECK(refusal(s.answer(2)).rfind("symlink: ", 0) == 0);
  CHECK(refusal(s.answer(3)).rfind("symlink: ", 0) == 0);
  CHECK(refusal(s.answer(4)).rfind("symlink: ", 0) == 0);
  CHECK(refusal(s.answer(5)).rfind("hard-link: ", 0) == 0);
  CHECK(refusal(s.answer(6)).rfind("hard-link: ", 0) == 0);
  CHECK(refusal(s.answer(7)).rfind("git-dir: ", 0) == 0);
  CHECK(refusal(s.answer(8)).rfind("not-a-definition: ", 0) == 0);
  CHECK(refusal(s.answer(9)) ==
        "not-a-definition: refused to write 'README.md': not a definition (no kind reads this path); only "
        "definitions are written");
  CHECK(refusal(s.answer(10)) ==
        "protected-path: refused path '.github/workflows/ws.yml': protected-path (the workspace protects this path); "
        "leave it out of the change");
  CHECK(refusal(s.answer(11)).rfind("dot-component: ", 0) == 0);
  CHECK(refusal(s.answer(12)).rfind("absolute: ", 0) == 0);
  CHECK(refusal(s.answer(13)).rfind("control-char: ", 0) == 0);
  CHECK(refusal(s.answer(13)).find('\x1b') == std::string::npos);
  CHECK(refusal(s.answer(15)) ==
        "exists: refused to write 'agents/AGtriage01.json': it exists (blob " + triage +
            "); read it and pass its blob id as the expected content");
  CHECK(refusal(s.answer(16)) ==
        ": invalid argument 'expected': give the file's blob id (40 hex digits, as read and ls answer it) or "
        "'absent' for a new file");
  (void)s.answer(14);
  // ls and grep name what they leave out.
  auto refused_of = [](const json& records) {
    std::string out;
    for (const json& r : records)
      if (r["type"] == "refused") out += r["path"].get<std::string>() + " " + r["rule"].get<std::string>() + "\n";
    return out;
  };
  const std::string left_out = "agents/AGbilling01.json hard-link\nagents/AGlink01.json symlink\n";
  CHECK(refused_of(records(s.answer(17))) == left_out);
  json grep = records(s.answer(18));
  // grep skips the link and the hard-linked file, as ws-grep does, and
  // counts them.
  CHECK(refused_of(grep) == "");
  CHECK(grep.back()["type"] == "summary");
  CHECK(grep.back()["links_skipped"] == 2);
  json unmatched = records(s.answer(19));
  CHECK(refused_of(unmatched) == "nothing/ pathspec\n");
  // Nothing written inside, nothing outside.
  auto after = wstest::tree_bytes(repo);
  after.erase("agents/AGbig01.json");
  before.erase("agents/AGbig01.json");
  CHECK(after == before);
  CHECK(wstest::chomp(repo.read("agents/AGbilling01.json")).find("Owned") == std::string::npos);
  std::ifstream in(target);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "{\"name\": \"Outside\"}\n");
  CHECK(!fs::exists(outside.path() + "/skills/SKx.md"));
}

TEST_CASE("ws mcp refuses a write over the size cap and writes nothing", "[mcp][protocol][hostile]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  std::string big = "{\"name\": \"Big\", \"pad\": \"" + std::string((1u << 20) + 10, 'x') + "\"}\n";
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  Served s = serve(repo, {
                             call(1, "write", {{"path", "agents/AGbig01.json"}, {"content", big}, {"expected", "absent"}}),
                             call(2, "write", {{"path", "agents/AGbilling01.json"}, {"content", big}, {"expected", billing}}),
                         });
  CHECK(s.run.status == 0);
  CHECK(refusal(s.answer(1)).rfind("too-large: ", 0) == 0);
  CHECK(refusal(s.answer(2)).rfind("too-large: ", 0) == 0);
  CHECK(!repo.exists("agents/AGbig01.json"));
  CHECK(status(repo) == "");
}

TEST_CASE("ws mcp answers a client that closes its input mid-call, and the write is whole", "[mcp][protocol][disconnect]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  std::string body = "{\n  \"name\": \"Billing\",\n  \"description\": \"" + std::string(900000, 'b') + "\"\n}\n";
  // The input ends right after the write: the server finishes it, then
  // finds the stream closed and exits 0.
  Served s = serve(repo, {call(1, "write", {{"path", "agents/AGbilling01.json"}, {"content", body}, {"expected", billing}})});
  CHECK(s.run.status == 0);
  CHECK(records(s.answer(1))[0]["type"] == "written");
  CHECK(repo.read("agents/AGbilling01.json") == body);
  CHECK(status(repo) == " M agents/AGbilling01.json\n");
}

TEST_CASE("ws mcp killed at any instant of a write leaves the old bytes or the new, never a part", "[mcp][protocol][disconnect]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string old_bytes = repo.read("agents/AGbilling01.json");
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  std::string body = "{\n  \"name\": \"Billing\",\n  \"description\": \"" + std::string(900000, 'b') + "\"\n}\n";
  std::string input = initialize() + "\n" +
                      call(1, "write", {{"path", "agents/AGbilling01.json"}, {"content", body}, {"expected", billing}}) + "\n";
  int old_seen = 0, new_seen = 0;
  for (int delay_us : {0, 2000, 5000, 10000, 20000, 40000, 80000, 160000}) {
    repo.write("agents/AGbilling01.json", old_bytes);
    int in[2];
    REQUIRE(::pipe2(in, O_CLOEXEC) == 0);
    int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    std::vector<std::string> argv = {wstest::tool("ws"), "mcp", "--session", "agent"};
    pid_t pid = wstest::spawn(argv, wstest::environment(wstest::ws_options(repo.path())), repo.path(),
                              wstest::ChildFds{in[0], devnull, devnull});
    ::close(in[0]);
    ::close(devnull);
    // The whole request at once (the pipe is drained as the server reads),
    // then the kill; the input is held open so only the kill ends the run.
    std::thread writer([&] {
      std::size_t done = 0;
      while (done < input.size()) {
        ssize_t n = ::write(in[1], input.data() + done, input.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
    });
    ::usleep(static_cast<useconds_t>(delay_us));
    ::kill(pid, SIGKILL);
    int st = 0;
    ::waitpid(pid, &st, 0);
    ::close(in[1]);
    writer.join();
    std::string now = repo.read("agents/AGbilling01.json");
    INFO("killed after " << delay_us << " us");
    CHECK((now == old_bytes || now == body));
    old_seen += now == old_bytes;
    new_seen += now == body;
    // Only the file or a temporary of the write beside it: nothing else
    // changed, and a temporary, if the kill left one, is named as one.
    for (const std::string& l : wstest::lines(status(repo))) {
      INFO(l);
      CHECK((l == " M agents/AGbilling01.json" ||
             l.rfind("?? agents/.AGbilling01.json.ws-new-", 0) == 0));
    }
    for (const auto& entry : fs::directory_iterator(repo.abs("agents")))
      if (entry.path().filename().string().rfind(".AGbilling01.json.ws-new-", 0) == 0) fs::remove(entry.path());
  }
  CHECK(old_seen + new_seen == 8);
}

TEST_CASE("ws mcp's write of one file gives the old file no second name, at any instant", "[mcp][protocol][disconnect]") {
  // The kernel's record of every link made (strace), not a kill's timing:
  // a second name, made and removed, would be left behind by a kill in
  // between, and the file would have two links meanwhile.
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  const std::string body = "{\n  \"name\": \"Billing\"\n}\n";
  wstest::TempDir out;
  const std::string trace = out.path() + "/strace.out";
  wstest::McpClient c(repo.path(),
                      {"/usr/bin/strace", "-f", "-qq", "-e", "trace=link,linkat,rename,renameat,renameat2", "-o", trace,
                       wstest::tool("ws"), "mcp", "--session", "agent"},
                      wstest::environment(wstest::traced_options(repo.path())));
  REQUIRE(c.initialize().contains("result"));
  records(c.ask(call(1, "write", {{"path", "agents/AGbilling01.json"}, {"content", body}, {"expected", billing}})));
  CHECK(c.close() == 0);
  CHECK(repo.read("agents/AGbilling01.json") == body);
  std::ifstream in(trace);
  std::string traced((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(traced);
  CHECK(traced.find("link") == std::string::npos);
  // The one rename that puts the new bytes in place.
  CHECK(std::regex_search(traced, std::regex(R"(rename\w*\(\d+, "\.AGbilling01\.json\.ws-new-\w+", \d+, "AGbilling01\.json")")));
}

TEST_CASE("ws mcp stopped by SIGTERM finishes the message in hand and exits 0", "[mcp][protocol][disconnect]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string old_bytes = repo.read("agents/AGbilling01.json");
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  std::string body = "{\n  \"name\": \"Billing\",\n  \"description\": \"" + std::string(900000, 'b') + "\"\n}\n";
  for (int delay_us : {0, 1000, 5000, 20000, 80000}) {
    repo.write("agents/AGbilling01.json", old_bytes);
    Connection c(repo);
    c.send(call(1, "write", {{"path", "agents/AGbilling01.json"}, {"content", body}, {"expected", billing}}));
    ::usleep(static_cast<useconds_t>(delay_us));
    c.signal(SIGTERM);
    INFO("SIGTERM after " << delay_us << " us");
    CHECK(c.wait() == 0);
    std::string now = repo.read("agents/AGbilling01.json");
    CHECK((now == old_bytes || now == body));
    // Stopped between messages: no temporary left behind.
    CHECK((status(repo) == "" || status(repo) == " M agents/AGbilling01.json\n"));
  }
  // Idle and waiting, it stops at once.
  Connection idle(repo);
  idle.signal(SIGTERM);
  CHECK(idle.wait() == 0);
}

TEST_CASE("ws mcp's delete needs the token of a first call, for that path, once", "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string digest = blob_of(repo, "tasks/TKdigest01.json");
  auto del = [](int id, const std::string& path, const std::string& token = "") {
    json args = {{"path", path}};
    if (!token.empty()) args["token"] = token;
    return call(id, "delete", args);
  };
  Connection c(repo);
  json pending = records(c.ask(del(1, "tasks/TKdigest01.json")));
  REQUIRE(pending.size() == 1);
  CHECK(pending[0]["type"] == "delete-pending");
  CHECK(pending[0]["blob"] == digest);
  const std::string first = pending[0]["token"].get<std::string>();
  CHECK(first.size() == 32);
  CHECK(repo.exists("tasks/TKdigest01.json"));
  CHECK(refusal(c.ask(del(2, "tasks/TKnone.json"))) == "not-found: no file 'tasks/TKnone.json' to delete");

  // A newer token for the path replaces the older one.
  const std::string second = records(c.ask(del(3, "tasks/TKdigest01.json")))[0]["token"].get<std::string>();
  CHECK(second != first);
  const std::string refused_token =
      "token: refused to delete 'tasks/TKdigest01.json': token (not a token this session was given for this path, "
      "or used already); call delete with the path alone for a new one";
  CHECK(refusal(c.ask(del(4, "tasks/TKdigest01.json", first))) == refused_token);
  // A token serves its own path only, and is used up by the try.
  CHECK(refusal(c.ask(del(5, "prompts/PRtone01.md", second))) ==
        "token: refused to delete 'prompts/PRtone01.md': token (not a token this session was given for this path, "
        "or used already); call delete with the path alone for a new one");
  CHECK(repo.exists("prompts/PRtone01.md"));

  // The file changed after the token was given: refused, the file kept.
  const std::string third = records(c.ask(del(6, "tasks/TKdigest01.json")))[0]["token"].get<std::string>();
  repo.replace("tasks/TKdigest01.json", "MorningDigest", "EveningDigest");
  const std::string edited = blob_of(repo, "tasks/TKdigest01.json");
  const std::size_t edited_size = repo.read("tasks/TKdigest01.json").size();
  CHECK(refusal(c.ask(del(7, "tasks/TKdigest01.json", third))) ==
        "content-changed: refused to delete 'tasks/TKdigest01.json': it holds blob " + edited +
            ", not the expected blob " + digest + "; read it again and redo the change");
  CHECK(repo.exists("tasks/TKdigest01.json"));

  // Another connection's token is not this one's.
  const std::string fourth = records(c.ask(del(8, "tasks/TKdigest01.json")))[0]["token"].get<std::string>();
  {
    Connection other(repo);
    CHECK(refusal(other.ask(del(1, "tasks/TKdigest01.json", fourth))) == refused_token);
    CHECK(other.close() == 0);
  }
  CHECK(repo.exists("tasks/TKdigest01.json"));

  json deleted = records(c.ask(del(9, "tasks/TKdigest01.json", fourth)));
  CHECK(deleted == json::array({{{"type", "deleted"}, {"version", 1}, {"path", "tasks/TKdigest01.json"},
                                 {"blob", edited}, {"size", edited_size}}}));
  CHECK(!repo.exists("tasks/TKdigest01.json"));
  CHECK(refusal(c.ask(del(10, "tasks/TKdigest01.json", fourth))) == refused_token);
  CHECK(c.close() == 0);
  CHECK(status(repo) == " D tasks/TKdigest01.json\n");
}

TEST_CASE("ws mcp: the secret canary is in no answer of any tool or resource", "[mcp][protocol][secrets][canary]") {
  const std::string canary = "C4N4RY-k3y-9d2f61";
  // An odd size that no other number of the answers can pass for, and the
  // canary where a Markdown, JSON or C# reader would quote it.
  std::string secret = "---\nname: " + canary + "\n---\n{\"name\": \"" + canary + "\", \"pad\": \"";
  const std::string tail = "\"}\n// name: " + canary + "\n";
  secret.append(13577 - secret.size() - tail.size(), 'x');
  secret += tail;
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  repo.write(".secrets/API_KEY", secret);
  repo.commit_all("Support desk workspace with its key");
  const std::string blob = wstest::chomp(repo.git({"rev-parse", "HEAD:.secrets/API_KEY"}));
  // The secret's bytes copied under a routed path, uncommitted, and a
  // reference to the secret by name.
  repo.write("agents/AGcopy01.json", secret);
  repo.replace("ai-tools/TLroute01.cs", "Agents.Billing", "Agents.Billing; var key = Secrets.API_KEY");
  int id = 1;
  std::vector<std::string> lines;
  auto add = [&](const std::string& tool, json args) { lines.push_back(call(id++, tool, std::move(args))); };
  add("ls", json::object());
  add("ls", {{"kinds", "secret"}});
  add("ls", {{"changed", true}});
  add("ls", {{"paths", ".secrets"}});
  add("grep", {{"patterns", canary}, {"fixed_strings", true}});
  add("grep", {{"patterns", "c4n4ry"}, {"ignore_case", true}});
  add("grep", {{"patterns", "x{40}"}});
  add("grep", {{"patterns", "API_KEY"}});
  add("grep", {{"patterns", "."}, {"paths", ".secrets/API_KEY"}});
  add("grep", {{"ref", "Secrets.API_KEY"}});
  for (const std::string p : {".secrets/API_KEY", ".secrets//API_KEY", "./.secrets/API_KEY", ".SECRETS/API_KEY",
                              ".secrets/../.secrets/API_KEY", "agents/AGcopy01.json"}) {
    add("read", {{"path", p}});
    add("write", {{"path", p}, {"content", "{}"}, {"expected", blob}});
    add("write", {{"path", p}, {"content", "{}"}, {"expected", "absent"}});
    add("delete", {{"path", p}});
    lines.push_back(request(id++, "resources/read", {{"uri", "ws://" + p}}));
    lines.push_back(request(id++, "resources/subscribe", {{"uri", "ws://" + p}}));
  }
  const int write_copy = id;
  add("write", {{"path", "agents/AGnew01.json"}, {"content", secret}, {"expected", "absent"}});
  add("build", json::object());
  add("build", {{"all", true}});
  add("commit", {{"message", "the key"}});
  lines.push_back(request(id++, "resources/list"));
  Served s = serve(repo, lines);
  CHECK(s.run.status == 0);
  CHECK(s.messages.size() == static_cast<std::size_t>(id));
  std::string everything = s.run.out + s.run.err;
  for (char& c : everything) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(everything.find("c4n4ry") == std::string::npos);
  CHECK(everything.find(blob) == std::string::npos);
  CHECK(everything.find("13577") == std::string::npos);
  // The reference by name resolves: the build's errors are not about it.
  CHECK(s.run.out.find("Secrets.API_KEY'") == std::string::npos);
  // Nothing was written where the secret is, nor its copy removed.
  CHECK(repo.read(".secrets/API_KEY") == secret);
  CHECK(repo.read("agents/AGcopy01.json") == secret);
  CHECK(!repo.exists("agents/AGnew01.json"));
  CHECK(refusal(s.answer(write_copy)) ==
        "secret: refused path 'agents/AGnew01.json': secret (it holds the bytes of a secret, and a secret's "
        "content is never opened or shown under any path); remove the file or give it other content");
}

TEST_CASE("ws mcp lists each tool with its input schema and the record types it answers", "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  Served s = serve(repo, {request(1, "tools/list")});
  CHECK(s.run.status == 0);
  std::string listed;
  for (const json& tool : s.answer(1)["result"]["tools"]) {
    INFO(tool.dump());
    CHECK(tool["inputSchema"]["type"] == "object");
    CHECK(tool["inputSchema"]["additionalProperties"] == false);
    const json& record = tool["outputSchema"]["properties"]["records"]["items"];
    CHECK(record["properties"]["version"] == json{{"const", 1}});
    listed += tool["name"].get<std::string>() + ":";
    for (const json& t : record["properties"]["type"]["enum"]) listed += " " + t.get<std::string>();
    listed += "\n";
  }
  CHECK(listed ==
        "ls: entry refused Listing-Truncated\n"
        "grep: match context refused Grep-Truncated summary\n"
        "read: file Read-Truncated\n"
        "build: diagnostic Build-Truncated summary\n"
        "commit: proposal\n"
        "write: written\n"
        "delete: delete-pending deleted\n");
}

TEST_CASE("ws mcp serves each definition as a ws:// resource and tells a subscriber when it changes",
          "[mcp][protocol][resources]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  std::vector<std::string> definitions;
  for (const std::string& l : wstest::lines(wstest::ws("ws-ls", {"--json"}, repo.path()).out))
    definitions.push_back("ws://" + json::parse(l)["path"].get<std::string>());
  REQUIRE(definitions.size() > 6);

  Connection c(repo, {"--max-records", "4"});
  // Pages of 4 (the server's record cap), each pointing to the next.
  std::vector<std::string> listed;
  json cursor;
  int id = 1;
  for (;;) {
    json params = json::object();
    if (!cursor.is_null()) params["cursor"] = cursor;
    json page = c.ask(request(id++, "resources/list", params))["result"];
    CHECK(page["resources"].size() <= 4);
    for (const json& r : page["resources"]) listed.push_back(r["uri"].get<std::string>());
    if (!page.contains("nextCursor")) break;
    cursor = page["nextCursor"];
  }
  CHECK(listed == definitions);
  CHECK(error_of(c.ask(request(id++, "resources/list", {{"cursor", "x1"}}))) ==
        "-32602 invalid params: 'cursor' is not one this server gave");

  json read = c.ask(request(id++, "resources/read", {{"uri", "ws://agents/AGbilling01.json"}}))["result"];
  CHECK(read == json{{"contents", json::array({{{"uri", "ws://agents/AGbilling01.json"},
                                                {"mimeType", "application/json"},
                                                {"text", repo.read("agents/AGbilling01.json")}}})}});
  CHECK(error_of(c.ask(request(id++, "resources/read", {{"uri", "ws://agents/AGnone.json"}}))) ==
        "-32002 no file 'agents/AGnone.json' in the view; list the files with ls");
  CHECK(error_of(c.ask(request(id++, "resources/read", {{"uri", "file:///etc/passwd"}}))) ==
        "-32602 invalid params: 'uri' must be a ws:// URI of a file of the workspace");
  CHECK(error_of(c.ask(request(id++, "resources/read", {{"uri", "ws://agents/%2e%2e/%2e%2e/etc/passwd"}})))
            .rfind("-32602 refused path 'agents/../../etc/passwd': dot-component", 0) == 0);

  // A write of the server's own: the notification follows its answer.
  REQUIRE(c.ask(request(id++, "resources/subscribe", {{"uri", "ws://agents/AGbilling01.json"}}))["result"] ==
          json::object());
  const std::string billing = blob_of(repo, "agents/AGbilling01.json");
  std::string edited = repo.read("agents/AGbilling01.json") + "\n";
  json written = c.ask(call(id++, "write", {{"path", "agents/AGbilling01.json"}, {"content", edited}, {"expected", billing}}));
  CHECK(records(written)[0]["type"] == "written");
  const json updated = {{"jsonrpc", "2.0"},
                        {"method", "notifications/resources/updated"},
                        {"params", {{"uri", "ws://agents/AGbilling01.json"}}}};
  CHECK(c.next(5000) == std::optional<json>(updated));
  // Anyone else's change, while the server is idle: within about a second.
  repo.write("agents/AGbilling01.json", edited + "\n");
  CHECK(c.next(5000) == std::optional<json>(updated));
  // Unsubscribed: no more.
  CHECK(c.ask(request(id++, "resources/unsubscribe", {{"uri", "ws://agents/AGbilling01.json"}}))["result"] ==
        json::object());
  repo.write("agents/AGbilling01.json", edited);
  CHECK_FALSE(c.next(2500).has_value());
  CHECK(c.close() == 0);
}

TEST_CASE("ws mcp never watches a file through a linked folder", "[mcp][protocol][resources][hostile]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir outside;
  { std::ofstream(outside.path() + "/SKx.md") << "---\nname: X\n---\nx\n"; }
  fs::create_directory_symlink(outside.path(), repo.abs("skills/out"));
  Connection c(repo);
  CHECK(c.ask(request(1, "resources/subscribe", {{"uri", "ws://skills/out/SKx.md"}}))["result"] == json::object());
  // The view has the link, not a folder: nothing beneath it to read.
  CHECK(error_of(c.ask(request(2, "resources/read", {{"uri", "ws://skills/out/SKx.md"}}))) ==
        "-32002 no file 'skills/out/SKx.md' in the view; list the files with ls");
  { std::ofstream(outside.path() + "/SKx.md") << "---\nname: Y\n---\ny, longer\n"; }
  CHECK_FALSE(c.next(2500).has_value());
  CHECK(c.close() == 0);
}

TEST_CASE("ws mcp serves the workspace -C names, in the session --session, WS_SESSION or a made-up one names",
          "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir elsewhere;
  auto session_of = [&](const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
    wstest::RunOptions o;
    o.input = initialize() + "\n";
    o.env = env;
    o.unset_env = {"WS_SESSION"};
    std::vector<std::string> argv = {"mcp", "-C", repo.path()};
    argv.insert(argv.end(), args.begin(), args.end());
    RunResult r = wstest::ws("ws", argv, elsewhere.path(), o);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    json init = json::parse(wstest::lines(r.out).at(0))["result"];
    CHECK(init["instructions"].get<std::string>().rfind("The workspace at '" + repo.path() + "'", 0) == 0);
    return init["serverInfo"]["title"].get<std::string>();
  };
  CHECK(session_of({"--session", "agent-7"}, {}) == "ws session agent-7");
  CHECK(session_of({}, {{"WS_SESSION", "from-env"}}) == "ws session from-env");
  CHECK(session_of({"--session", "agent-7"}, {{"WS_SESSION", "from-env"}}) == "ws session agent-7");
  std::string made_up = session_of({}, {});
  CHECK(std::regex_match(made_up, std::regex("ws session mcp-[0-9a-f]{8}")));
  CHECK(session_of({}, {}) != made_up);
  // A session name a proposal ref could not hold is refused before serving.
  RunResult bad = wstest::ws("ws", {"mcp", "-C", repo.path(), "--session", "a b/../c"}, elsewhere.path());
  CHECK(bad.status == 2);
  CHECK(bad.out == "");
  CHECK(bad.err ==
        "ws mcp: invalid session name 'a b/../c': use letters, digits, '.', '_' and '-', starting with a letter or "
        "digit\n");
}

TEST_CASE("ws mcp's grep names each match's definition from its bytes as they are now", "[mcp][protocol]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  Connection c(repo);
  auto names = [&](int id) {
    std::string out;
    for (const json& r : records(c.ask(call(id, "grep", {{"patterns", "Billing"}, {"fixed_strings", true}}))))
      if (r["type"] == "match") out += r["path"].get<std::string>() + " " + r["name"].get<std::string>() + "\n";
    return out;
  };
  const std::string first = names(1);
  CHECK(first.find("agents/AGtriage01.json Triage\n") != std::string::npos);
  // The same search again: the same answer (names kept from the first).
  CHECK(names(2) == first);
  // The definition renamed on disk: the next answer names it anew, and it
  // equals what ws-grep says of the same files.
  repo.replace("agents/AGtriage01.json", "\"name\": \"Triage\"", "\"name\": \"Sorting\"");
  const std::string renamed = names(3);
  CHECK(renamed.find("agents/AGtriage01.json Sorting\n") != std::string::npos);
  CHECK(renamed.find("Triage") == std::string::npos);
  std::string cli;
  for (const std::string& l : wstest::lines(wstest::ws("ws-grep", {"-F", "--json", "Billing"}, repo.path()).out)) {
    json r = json::parse(l);
    if (r["type"] == "match") cli += r["path"].get<std::string>() + " " + r["name"].get<std::string>() + "\n";
  }
  CHECK(renamed == cli);
  CHECK(c.close() == 0);
}

TEST_CASE("ws mcp's write and delete open the workspace again once the base, the index or the kind pack changed",
          "[mcp][protocol][warm]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  repo.git({"checkout", "-q", "-b", "protected"});
  repo.write(".ws/config.json", "{\"protected\": [\"agents/\"]}\n");
  repo.commit_all("Protect the agents");
  repo.git({"checkout", "-q", "-"});
  // The server's own kind pack, a copy this test may change.
  wstest::TempDir pack;
  const std::string kinds = pack.path() + "/kinds";
  fs::copy(std::string(WS_SOURCE_DIR) + "/schemas/kinds", kinds, fs::copy_options::recursive);
  wstest::RunOptions extra;
  extra.env["WS_KINDS_DIR"] = kinds;
  wstest::McpClient c(repo.path(), {wstest::tool("ws"), "mcp", "--session", "agent"},
                      wstest::environment(wstest::ws_options(repo.path(), extra)));
  REQUIRE(c.initialize().contains("result"));
  int id = 0;
  auto write = [&](const std::string& path, const std::string& content) {
    return c.ask(call(++id, "write", {{"path", path}, {"content", content}, {"expected", "absent"}}));
  };
  const std::string agent = "{\n  \"name\": \"Warm\"\n}\n";
  const std::string key = "sk-live-0f3a9c2e7b41d8";

  // Each change is made by another process between two calls: the call
  // before it is allowed, the one after it answers to the change.
  records(write("agents/AGwarm01.json", agent));
  // HEAD moved to a commit whose configuration protects agents/, the index
  // left as it was (reset --soft): the base alone changed.
  struct stat before {}, after {};
  REQUIRE(::stat(repo.abs(".git/index").c_str(), &before) == 0);
  repo.git({"reset", "-q", "--soft", "protected"});
  REQUIRE(::stat(repo.abs(".git/index").c_str(), &after) == 0);
  REQUIRE((before.st_ino == after.st_ino && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec));
  CHECK(refusal(write("agents/AGwarm02.json", agent)) ==
        "protected-path: refused path 'agents/AGwarm02.json': protected-path (the workspace protects this path); "
        "leave it out of the change");

  records(write("prompts/PRwarm03.md", key));
  repo.write(".secrets/LIVE_KEY", key);
  repo.git({"add", ".secrets/LIVE_KEY"});  // the index alone: not committed
  CHECK(refusal(write("prompts/PRwarm04.md", key)) ==
        "secret: refused path 'prompts/PRwarm04.md': secret (it holds the bytes of a secret, and a secret's "
        "content is never opened or shown under any path); remove the file or give it other content");

  records(write("skills/SKwarm05.md", "---\nname: warm-five\n---\nSummarize.\n"));
  {  // skills now read from *.skill.md files only
    std::ifstream in(kinds + "/skill.json");
    std::string manifest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(manifest.find("skills/*.md") != std::string::npos);
    manifest.replace(manifest.find("skills/*.md"), 11, "skills/*.skill.md");
    std::ofstream(kinds + "/skill.json", std::ios::trunc) << manifest;
  }
  CHECK(refusal(write("skills/SKwarm06.md", "---\nname: warm-six\n---\nSummarize.\n")) ==
        "not-a-definition: refused to write 'skills/SKwarm06.md': not a definition (no kind reads this path); only "
        "definitions are written");

  // The index a link (git's reader and the view's follow it), then the
  // link turned to another index, one with a second secret staged: the
  // file it leads to changed, the link's own stamp did not.
  const std::string other_key = "sk-live-77d0e3b1a95c42";
  const std::string without = pack.path() + "/index.without", with = pack.path() + "/index.with";
  fs::copy_file(repo.abs(".git/index"), without);
  repo.write(".secrets/OTHER_KEY", other_key);
  repo.git({"add", ".secrets/OTHER_KEY"});
  fs::copy_file(repo.abs(".git/index"), with);
  fs::remove(repo.abs(".git/index"));
  fs::create_symlink(without, repo.abs(".git/index"));
  records(write("prompts/PRwarm07.md", other_key));
  fs::create_symlink(with, repo.abs(".git/index.next"));
  fs::rename(repo.abs(".git/index.next"), repo.abs(".git/index"));
  CHECK(refusal(write("prompts/PRwarm08.md", other_key)).rfind("secret: ", 0) == 0);
  // A FIFO in the index's place: refused at once, not waited on.
  fs::remove(repo.abs(".git/index"));
  REQUIRE(::mkfifo(repo.abs(".git/index").c_str(), 0644) == 0);
  CHECK(refusal(write("prompts/PRwarm09.md", agent)) ==
        ": refused '" + repo.abs(".git/index") +
            "': a FIFO where git reads a regular file; remove it or replace it with a file");

  CHECK(c.close() == 0);
  CHECK(repo.read("agents/AGwarm01.json") == agent);
  CHECK(repo.read("prompts/PRwarm03.md") == key);
  CHECK(repo.exists("skills/SKwarm05.md"));
  CHECK(!repo.exists("agents/AGwarm02.json"));
  CHECK(!repo.exists("prompts/PRwarm04.md"));
  CHECK(!repo.exists("skills/SKwarm06.md"));
  CHECK(repo.read("prompts/PRwarm07.md") == other_key);
  CHECK(!repo.exists("prompts/PRwarm08.md"));
  CHECK(!repo.exists("prompts/PRwarm09.md"));
}
