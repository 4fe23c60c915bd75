// The JSON reader, on every JSON file of the example workspace and on broken
// variants of them; also secrets (never read) and the encoding check.
#include <thread>

#include "reader_test_util.h"

using namespace reader_test;
using Strings = std::vector<std::string>;

TEST_CASE("every file of the example workspace reads clean", "[reader]") {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(examples_dir())) {
    if (!e.is_regular_file()) continue;
    std::string path = std::filesystem::relative(e.path(), examples_dir()).generic_string();
    INFO(path);
    ws::Definition d = read(path, slurp(e.path().string()));
    CHECK(d.diagnostics.empty());
    CHECK(d.has_name);
    CHECK_FALSE(d.name.empty());
    ++files;
  }
  CHECK(files == 18);  // all twelve kinds
}

TEST_CASE("json: agents, with their references", "[reader][json]") {
  ws::Definition d = read("agents/AGtriage01.json", example("agents/AGtriage01.json"));
  CHECK(d.kind == "agent");
  CHECK(d.path == "agents/AGtriage01.json");
  CHECK(d.name == "Triage");
  CHECK(at(d.name_span) == "2:12-2:18");
  CHECK(d.name_span.start_byte == 13);
  CHECK(d.members.empty());
  CHECK(refs(d) == Strings{"prompt TriageInstructions @5:14-5:32", "ai-tool LookupCustomer @6:14-6:28",
                           "ai-tool RouteTicket @6:32-6:43", "skill Summarize @7:15-7:24", "agent Billing @8:17-8:24"});
  CHECK(d.refs[0].origin == ws::RefOrigin::json);
  CHECK(d.refs[0].text == "TriageInstructions");

  check_example("agents/AGbilling01.json",
                {"agent", "Billing", "2:12-2:19",
                 {"prompt BillingInstructions @4:14-4:33", "ai-tool LookupCustomer @5:14-5:28"}});
}

TEST_CASE("json: access groups and grants", "[reader][json]") {
  check_example("access/groups/GRsupport01.json", {"access-group", "SupportStaff", "2:12-2:24", {}});

  // access-grant defines no symbol, so its name need not be an identifier
  check_example("access/grants/GTsupport01.json",
                {"access-grant", "support-can-triage", "2:12-2:30",
                 {"access-group SupportStaff @3:13-3:25", "endpoint TriageTicket @4:18-4:30",
                  "endpoint DailyDigest @4:34-4:45", "agent Triage @5:15-5:21", "agent Billing @5:25-5:32"}});
}

TEST_CASE("json: node types, edge types, indexes and tasks", "[reader][json]") {
  ws::Definition d = read("node-types/NTticket01.json", example("node-types/NTticket01.json"));
  CHECK(d.name == "Ticket");
  CHECK(members(d) == Strings{"Title @5:16-5:21", "Status @6:16-6:22", "Customer @7:16-7:24",
                              "OpenedAt @8:16-8:24", "Type @2:12-2:18"});
  CHECK(d.refs.empty());

  d = read("node-types/NTcustomer01.json", example("node-types/NTcustomer01.json"));
  CHECK(d.name == "Customer");
  CHECK(members(d) == Strings{"Email @4:16-4:21", "Name @5:16-5:20", "Type @2:12-2:20"});

  d = read("edge-types/EDraised01.json", example("edge-types/EDraised01.json"));
  CHECK(d.name == "Raised");
  CHECK(refs(d) == Strings{"node-type Customer @3:12-3:20", "node-type Ticket @4:10-4:16"});

  // index fields are members of the node type named at /node
  d = read("indexes/IXopen01.json", example("indexes/IXopen01.json"));
  CHECK(d.name == "OpenTickets");
  CHECK(refs(d) == Strings{"node-type Ticket @3:12-3:18", "node-type Ticket.Status @4:15-4:21",
                           "node-type Ticket.OpenedAt @4:25-4:33"});
  CHECK(d.refs[1].text == "Status");

  d = read("tasks/TKdigest01.json", example("tasks/TKdigest01.json"));
  CHECK(d.name == "MorningDigest");
  CHECK(at(d.name_span) == "2:12-2:25");
  CHECK(refs(d) == Strings{"endpoint DailyDigest @3:16-3:27"});
}

TEST_CASE("secrets are never read: the name is the file name", "[reader][json]") {
  const ws::Kind* secret = pack().by_name("secret");
  REQUIRE(secret);
  // Bytes that would fail every check are not even looked at.
  ws::Definition d = ws::read_definition(*secret, ".secrets/SupportMailbox", std::string("\xff\0", 2), pack());
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "SupportMailbox");
  CHECK(d.has_name);
  d = ws::read_definition(*secret, ".secrets/SupportMailbox", "", pack());
  CHECK(d.name == "SupportMailbox");

  d = ws::read_definition(*secret, ".secrets/support.key", "", pack());
  CHECK_FALSE(d.has_name);
  REQUIRE(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].code == ws::DiagCode::invalid_name);
  CHECK_FALSE(d.diagnostics[0].has_span);
  d = ws::read_definition(*secret, ".secrets/class", "", pack());
  CHECK_THAT(only_diag(d), Catch::Contains("C# keyword"));
}

TEST_CASE("names over 512 characters are WS008 in every format, with a short message", "[reader]") {
  // C# compilers refuse longer identifiers (CS0645). The message quotes 32
  // characters and the length; the span covers the whole name.
  const std::string a32(32, 'A');
  struct Case {
    std::size_t length;
    std::string diag;  // empty: accepted
  };
  const std::vector<Case> cases = {
      {1, ""},
      {511, ""},
      {512, ""},
      {513, "invalid name '" + a32 + "...': 513 characters, a name has at most 512"},
      {10000, "invalid name '" + a32 + "...': 10000 characters, a name has at most 512"},
  };
  for (const Case& c : cases) {
    const std::string name(c.length, 'A');
    struct File {
      std::string path, text, at;  // "line:col" where the name starts
    };
    const std::vector<File> files = {
        {"agents/a.json", "{\n  \"name\": \"" + name + "\"\n}\n", "2:12"},
        {"prompts/p.md", "---\nname: " + name + "\n---\nbody\n", "2:7"},
        {"ai-tools/t.cs", "// name: " + name + "\nreturn 1;\n", "1:10"},
    };
    for (const File& f : files) {
      INFO(f.path << ": " << c.length << " characters");
      ws::Definition d = read(f.path, f.text);
      if (c.diag.empty()) {
        CHECK(d.diagnostics.empty());
        CHECK(d.has_name);
        CHECK(d.name == name);
        continue;
      }
      CHECK(only_diag(d) == "WS008 " + f.at + " " + c.diag);
      CHECK(d.diagnostics[0].span.end.column - d.diagnostics[0].span.start.column == c.length);
      CHECK_FALSE(d.has_name);
    }
  }
  // Not an identifier at all: that is the message, whatever the length.
  CHECK_THAT(only_diag(read("agents/a.json", "{\"name\": \"" + std::string(600, 'A') + "-\"}")),
             Catch::Contains("not a C# identifier"));
}

TEST_CASE("json: syntax errors at their position", "[reader][json]") {
  CHECK(only_diag(read("agents/a.json", "{\n  \"name\": \"Triage\",\n  \"tools\": [\"a\" \"b\"]\n}\n")) ==
        "WS001 3:13 syntax error: unexpected '\"a\"'");
  CHECK(only_diag(read("agents/a.json", "{\n  \"name\": \"Triage\"\n")) == "WS001 2:19 syntax error: missing '}'");
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"A\",}")) == "WS001 1:13 syntax error: unexpected ','");
  CHECK(only_diag(read("agents/a.json", "{\"name\": }")) == "WS001 1:9 syntax error: missing value");
  CHECK(only_diag(read("agents/a.json", "// hi\n{\"name\": \"A\"}")) ==
        "WS001 1:1 syntax error: comments are not allowed in JSON");
  CHECK(only_diag(read("agents/a.json", "")) == "WS001 1:1 syntax error: the file is empty; expected a JSON object");
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"A\"}\n{}")) ==
        "WS001 2:1 syntax error: unexpected '{}' after the JSON value");
  // tree-sitter-json lets a raw tab through; JSON does not
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"A\tB\"}")) == "WS001 1:10 syntax error: invalid string '\"A\\x09B\"'");
  // many errors: only the first few are reported
  std::string broken = "{\"name\": \"A\", \"tools\": [";
  for (int i = 0; i < 50; ++i) broken += "\"a\" \"b\" ";
  CHECK(read("agents/a.json", broken).diagnostics.size() <= 5);
}

TEST_CASE("json: schema violations name the field and point at it", "[reader][json]") {
  ws::Definition d = read("agents/a.json", "{\n  \"name\": \"Triage\",\n  \"toosl\": [\"LookupCustomer\"]\n}\n");
  CHECK(only_diag(d) ==
        "WS006 3:3 unknown field 'toosl' in agent; allowed: description, handoffs, model, name, prompt, skills, tools");
  CHECK(at(d.diagnostics[0].span) == "3:3-3:10");
  CHECK(d.name == "Triage");  // a schema error does not hide the name

  d = read("agents/a.json", "{\n  \"description\": \"no name\"\n}\n");
  CHECK(only_diag(d) == "WS007 1:1 missing name: the agent definition has no 'name' field");
  CHECK_FALSE(d.has_name);

  d = read("agents/a.json", "{\n  \"name\": \"class\"\n}\n");
  CHECK(only_diag(d) == "WS008 2:12 invalid name 'class': it is a C# keyword, so code could not write Agents.class");
  CHECK(d.name.empty());
  CHECK_FALSE(d.has_name);
  CHECK_THAT(only_diag(read("agents/a.json", "{\"name\": \"Tri-age\"}")), Catch::Contains("not a C# identifier"));
  CHECK(only_diag(read("agents/a.json", "{\"name\": \"\"}")) == "WS007 1:10 missing name: the name is empty");
  CHECK(only_diag(read("agents/a.json", "{\"name\": 5}")) == "WS006 1:10 'name' must be a string, not an integer");

  d = read("tasks/t.json", "{\n  \"name\": \"T\",\n  \"endpoint\": \"E\",\n  \"cron\": \"0 8 * * 1-5\",\n  \"enabled\": \"yes\"\n}");
  CHECK(only_diag(d) == "WS006 5:14 'enabled' must be a boolean, not a string");
  d = read("tasks/t.json", "{\"name\": \"T\", \"endpoint\": \"E\", \"cron\": \"0 8 *\"}");
  CHECK(only_diag(d) ==
        "WS024 1:40 invalid cron '0 8 *': 3 fields, a cron expression has 5 (minute hour day-of-month month day-of-week)");
  d = read("tasks/t.json", "{\"name\": \"T\", \"cron\": \"0 8 * * *\"}");
  CHECK(only_diag(d) == "WS006 1:1 missing required field 'endpoint'");
  d = read("agents/a.json", "{\"name\": \"A\", \"prompt\": \"\", \"tools\": [\"x\", 3]}");
  CHECK(diags(d) == Strings{"WS006 1:25 'prompt' must not be empty", "WS006 1:44 'tools[1]' must be a string, not an integer"});
  CHECK(refs(d) == Strings{"ai-tool x @1:40-1:41"});  // the wrong-typed item is not a reference

  d = read("node-types/n.json",
           "{\n  \"name\": \"T\",\n  \"fields\": [\n    {\"name\": \"A\", \"type\": \"strin\"},\n    {\"name\": \"B\"},\n"
           "    {\"nam\": \"C\", \"type\": \"int\"}\n  ]\n}");
  CHECK(diags(d) == Strings{"WS006 4:27 'fields[0].type' must be one of string, int, float, bool, time, json",
                            "WS006 5:5 missing required field 'type' in fields[1]",
                            "WS006 6:5 missing required field 'name' in fields[2]",
                            "WS006 6:6 unknown field 'nam' in fields[2]; allowed: name, required, type"});
  CHECK(members(d) == Strings{"A @4:15-4:16", "B @5:15-5:16", "Type @2:12-2:13"});

  d = read("agents/a.json", "{\"name\": \"A\", \"name\": \"B\"}");
  CHECK(only_diag(d) == "WS006 1:15 duplicate key 'name'");
  CHECK(d.name == "A");
  CHECK(only_diag(read("agents/a.json", "[\"name\"]")) == "WS006 1:1 the agent definition must be a JSON object");
  // several unknown fields: each at its key
  CHECK(diags(read("agents/a.json", "{\"name\": \"A\", \"zeta\": 1, \"alpha\": 2}")).size() == 2);
}

TEST_CASE("json: escapes are decoded and spans stay on the bytes", "[reader][json]") {
  ws::Definition d = read("agents/a.json", R"({"name": "Tri\u0061ge", "tools": ["Look\/up"]})");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Triage");
  CHECK(at(d.name_span) == "1:11-1:22");
  CHECK(d.refs[0].name == "Look/up");
}

TEST_CASE("json: bad encodings are WS002 at the first bad byte", "[reader][json]") {
  CHECK(only_diag(read("agents/a.json", std::string("{\"name\":\n \"A\0\"}", 14))) ==
        "WS002 2:4 NUL byte: definitions are UTF-8 text");
  CHECK(only_diag(read("agents/a.json", "{\"name\":\n \"A\xc3\x28\"}")) ==
        "WS002 2:4 invalid UTF-8 (byte 0xc3): definitions are UTF-8 text");
  // overlong form, surrogate, past U+10FFFF, truncated sequence
  for (std::string bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82"}) {
    INFO(bad.size());
    CHECK(only_diag(read("agents/a.json", "{\"name\": \"" + bad + "\"}")).substr(0, 9) == "WS002 1:1");
  }
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919) % 256);
  CHECK(read("agents/a.json", junk).diagnostics.front().code == ws::DiagCode::bad_encoding);
  // valid UTF-8 beyond ASCII is fine
  CHECK(read("agents/a.json", "{\"name\": \"A\", \"description\": \"caf\xc3\xa9 \xf0\x9f\x98\x80\"}").diagnostics.empty());

  std::vector<ws::Diagnostic> out;
  CHECK(ws::check_encoding("x", "plain", out));
  CHECK(out.empty());
  CHECK(ws::position_at("ab\ncd\n", 4) == ws::Position{2, 2});
  CHECK(ws::position_at("ab\ncd\n", 0) == ws::Position{1, 1});
  CHECK(ws::position_at("ab\ncd\n", 99) == ws::Position{3, 1});
}

TEST_CASE("json: CRLF line endings and a byte order mark", "[reader][json]") {
  ws::Definition d = read("agents/a.json", "{\r\n  \"name\": \"Crlf\",\r\n  \"tools\": [\"x\"]\r\n}\r\n");
  CHECK(d.diagnostics.empty());
  CHECK(at(d.name_span) == "2:12-2:16");
  CHECK(refs(d) == Strings{"ai-tool x @3:14-3:15"});
  // A BOM is skipped; columns stay byte columns of the file, so line 1 shifts by 3.
  d = read("agents/a.json", "\xef\xbb\xbf{\"name\": \"Bom\",\n\"tools\": [\"x\"]}");
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Bom");
  CHECK(at(d.name_span) == "1:14-1:17");
  CHECK(refs(d) == Strings{"ai-tool x @2:12-2:13"});
  CHECK(only_diag(read("agents/a.json", "\xef\xbb\xbf{\"name\": 1")) == "WS001 1:14 syntax error: missing '}'");
}

TEST_CASE("json: deep nesting is refused without recursion", "[reader][json]") {
  std::string deep = "{\"name\": \"A\", \"x\": " + std::string(10000, '[') + std::string(10000, ']') + "}";
  CHECK(only_diag(read("agents/a.json", deep)) == "WS016 1:275 nesting deeper than 256 levels");
  std::string objects = "{\"name\": \"A\", \"x\": ";
  for (int i = 0; i < 10000; ++i) objects += "{\"a\": ";
  objects += "1" + std::string(10001, '}');
  CHECK(read("agents/a.json", objects).diagnostics.front().code == ws::DiagCode::too_deep);
  // unclosed: a syntax error, also without recursion
  ws::Definition d = read("agents/a.json", std::string(10000, '['));
  REQUIRE_FALSE(d.diagnostics.empty());
  CHECK((d.diagnostics[0].code == ws::DiagCode::syntax_error || d.diagnostics[0].code == ws::DiagCode::too_deep));
  // 256 levels are fine
  std::string ok = "{\"name\": \"A\", \"description\": " + std::string(255, '[') + std::string(255, ']') + "}";
  CHECK(only_diag(read("agents/a.json", ok)).substr(0, 5) == "WS006");
}

TEST_CASE("json: huge files finish", "[reader][json]") {
  std::string big = "{\"name\": \"Big\", \"description\": \"";
  big.append(2 << 20, 'x');
  big += "\", \"tools\": [";
  for (int i = 0; i < 20000; ++i) big += (i ? ", \"T" : "\"T") + std::to_string(i) + "\"";
  big += "]}";
  ws::Definition d = read("agents/a.json", big);
  CHECK(d.diagnostics.empty());
  CHECK(d.name == "Big");
  CHECK(d.refs.size() == 20000);
  CHECK(d.refs.back().name == "T19999");

  // A long cron value is read in one pass and shown cut short.
  std::string cron = "{\"name\": \"T\", \"endpoint\": \"E\", \"cron\": \"" + std::string(1 << 20, '1') + "\"}";
  CHECK(only_diag(read("tasks/t.json", cron)) ==
        "WS024 1:40 invalid cron '" + std::string(40, '1') +
            "...': 1 field, a cron expression has 5 (minute hour day-of-month month day-of-week)");
}

TEST_CASE("json: a workspace kind can relax the schema", "[reader][json]") {
  std::map<std::string, std::string> defaults;
  for (const auto& e : std::filesystem::directory_iterator(std::string(WS_SOURCE_DIR) + "/schemas/kinds"))
    defaults[e.path().filename().string()] = slurp(e.path().string());
  auto relaxed = ws::KindPack::from_texts(
      defaults, {{"agent.json", R"({"kind": "agent", "files": "agents/*.json", "format": "json", "symbol": "Agents",
                                    "references": [{"at": "/toosl/*", "kind": "ai-tool"}],
                                    "schema": {"type": "object", "required": ["name"]}})"}});
  REQUIRE(relaxed.ok());
  ws::Definition d = read("agents/a.json", R"({"name": "A", "toosl": ["X"]})", *relaxed);
  CHECK(d.diagnostics.empty());
  CHECK(refs(d) == Strings{"ai-tool X @1:26-1:27"});
}

TEST_CASE("readers run in parallel threads", "[reader]") {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(examples_dir()))
    if (e.is_regular_file())
      files.push_back({std::filesystem::relative(e.path(), examples_dir()).generic_string(), slurp(e.path().string())});
  auto summary = [](const ws::Definition& d) {
    return d.name + "|" + fmt::format("{}", fmt::join(refs(d), ",")) + "|" + std::to_string(d.diagnostics.size());
  };
  std::vector<std::string> expected;
  for (const auto& [path, bytes] : files)
    expected.push_back(summary(ws::read_definition(*pack().route(path), path, bytes, pack())));
  std::vector<std::thread> threads;
  std::vector<int> mismatches(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        for (std::size_t i = 0; i < files.size(); ++i)
          if (summary(ws::read_definition(*pack().route(files[i].first), files[i].first, files[i].second, pack())) !=
              expected[i])
            ++mismatches[t];
    });
  for (auto& t : threads) t.join();
  CHECK(mismatches == std::vector<int>(8, 0));
}

// The key length cap counts a key's own bytes, not its escaped form in a
// JSON pointer ('/' and '~' take two bytes there): keys at, past and (once
// escaped) only apparently past the cap.
TEST_CASE("json: a field name is refused past 1024 bytes of its own whether escaped or not", "[reader][json][fastpath]") {
  auto with_key = [](const std::string& key) {
    return read("agents/AGkey.json", "{\"name\": \"Keyed\", \"" + key + "\": 1}");
  };
  auto too_long = [](const ws::Definition& d) {
    std::vector<std::string> out;
    for (const std::string& line : diags(d))
      if (line.find("field name is too long") != std::string::npos) out.push_back(line);
    return out;
  };
  CHECK(too_long(with_key(std::string(1024, 'k'))).empty());
  CHECK(too_long(with_key(std::string(1000, '/'))).empty());  // 2,000 bytes as a pointer token
  CHECK(too_long(with_key(std::string(1024, '~'))).empty());
  CHECK(too_long(with_key(std::string(1025, 'k'))) ==
        std::vector<std::string>{"WS006 1:19 field name is too long (1025 bytes; at most 1024)"});
  CHECK(too_long(with_key(std::string(1025, '~'))) ==
        std::vector<std::string>{"WS006 1:19 field name is too long (1025 bytes; at most 1024)"});
}
