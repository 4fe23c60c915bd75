// The C# reader: header lines, top-level statement bodies, and code
// references from member-access chains only.
#include "reader_test_util.h"

using namespace reader_test;
using Strings = std::vector<std::string>;

namespace {

const char* kHeader = "// name: X\n// route: /x\n// method: GET\n";

ws::Definition endpoint(const std::string& body) { return read("endpoints/e.cs", kHeader + body); }

}  // namespace

TEST_CASE("csharp: the example endpoints", "[reader][csharp]") {
  ws::Definition d = check_example("endpoints/EPtriage01.cs",
                                   {"endpoint", "TriageTicket", "1:10-1:22",
                                    {"node-type Ticket.Type @5:30-5:43", "agent Triage @6:20-6:33",
                                     "prompt TriageInstructions @6:46-6:72", "secret SupportMailbox @7:19-7:41"}});
  CHECK(d.refs[1].text == "Agents.Triage");
  CHECK(d.refs[1].origin == ws::RefOrigin::code);
  CHECK(d.refs[0].member == "Type");

  check_example("endpoints/EPdigest01.cs",
                {"endpoint", "DailyDigest", "1:10-1:21",
                 {"index OpenTickets @4:18-4:37", "node-type Ticket.Type @5:52-5:65"}});
}

TEST_CASE("csharp: the example AI tools", "[reader][csharp]") {
  check_example("ai-tools/TLlookup01.cs",
                {"ai-tool", "LookupCustomer", "1:10-1:24",
                 {"node-type Customer.Type @3:36-3:51", "node-type Customer.Email @3:53-3:69",
                  "node-type Ticket.Type @4:32-4:45", "node-type Ticket.Customer @4:47-4:64"}});

  // the comment "The billing agent takes over" is not a reference; Agents.Billing is
  check_example("ai-tools/TLroute01.cs",
                {"ai-tool", "RouteTicket", "1:10-1:21",
                 {"node-type Ticket.Type @3:30-3:43", "node-type Ticket.Status @4:12-4:27",
                  "agent Billing @8:18-8:32"}});
}

TEST_CASE("csharp: the header", "[reader][csharp]") {
  ws::Definition d = read("endpoints/e.cs", "// name: X\n// route: /x\n// method: GET\n// toosl: a\nreturn 1;\n");
  CHECK(only_diag(d) == "WS006 4:4 unknown field 'toosl' in endpoint; allowed: description, method, name, route");
  CHECK(at(d.diagnostics[0].span) == "4:4-4:9");
  CHECK(d.name == "X");

  d = read("endpoints/e.cs", "// name: X\n// route: /x\n// method: GET\n// name: Y\nreturn 1;\n");
  CHECK(only_diag(d) == "WS015 4:4 duplicate header key 'name'");
  CHECK(d.name == "X");

  d = read("endpoints/e.cs", "// route: /x\n// method: GET\nreturn 1;\n");
  CHECK(only_diag(d) == "WS007 1:1 missing name: the file has no '// name: ...' header line");
  d = read("endpoints/e.cs", "return 1;\n");
  CHECK(diags(d) == Strings{"WS006 1:1 missing required field 'method'", "WS006 1:1 missing required field 'route'",
                            "WS007 1:1 missing name: the file has no '// name: ...' header line"});

  d = read("endpoints/e.cs", "// name: class\n// route: /x\n// method: GET\n");
  CHECK(only_diag(d) == "WS008 1:10 invalid name 'class': it is a C# keyword, so code could not write Endpoints.class");

  d = read("endpoints/e.cs", "// name: X\n// route: x\n// method: FETCH\n");
  CHECK(diags(d) == Strings{"WS006 2:11 'route' must match the pattern '^/'",
                            "WS006 3:12 'method' must be one of GET, POST, PUT, PATCH, DELETE"});

  // the header ends at the first line that is not `// key: value`
  d = read("endpoints/e.cs", "// name: X\n// Route: /x\n// route: /x\n// method: GET\n");
  CHECK(diags(d) == Strings{"WS006 1:1 missing required field 'method'", "WS006 1:1 missing required field 'route'"});
  d = read("endpoints/e.cs", "// name: X\n\n// route: /x\n// method: GET\n");
  CHECK(d.diagnostics.size() == 2);

  // values are trimmed; CR of a CRLF file is not part of them; an empty value is ""
  check_clean("ai-tools/t.cs", "//name:Tight  \r\n// description:\r\nreturn N.Ticket.Status;\r\n",
              {"ai-tool", "Tight", "1:8-1:13", {"node-type Ticket.Status @3:8-3:23"}});
}

TEST_CASE("csharp: bodies are top-level statements", "[reader][csharp]") {
  ws::Definition d = read("ai-tools/t.cs", "// name: T\nvar x = await Foo.Bar(); return x;\n");
  CHECK(d.diagnostics.empty());
  d = read("ai-tools/t.cs",
           "// name: T\nusing System.Linq;\nvar xs = new[] { 1, 2 };\nforeach (var i in xs) { if (i > 1) break; }\n"
           "int Twice(int v) => v * 2;\nswitch (xs.Length) { case 0: return null; default: return Twice(xs[0]); }\n");
  CHECK(d.diagnostics.empty());
  CHECK(only_diag(endpoint("var x = ;\n")) == "WS001 4:7 syntax error: unexpected '='");
  CHECK(only_diag(endpoint("var x = Foo(1;\n")) == "WS001 4:14 syntax error: missing ')'");
  CHECK(only_diag(endpoint("if (x) { return 1;\n")) == "WS001 4:19 syntax error: missing '}'");
  // with a syntax error the header still names the definition, and the code
  // references outside what does not parse are read; the error says so
  d = endpoint("var x = Agents.Triage;\nvar y = (;\nvar z = Prompts.Tone;\n");
  CHECK(d.name == "X");
  CHECK(refs(d) == Strings{"agent Triage @4:9-4:22", "prompt Tone @6:9-6:21"});
  REQUIRE(has_code(d, ws::DiagCode::syntax_error));
  REQUIRE(d.diagnostics[0].notes.size() == 1);
  CHECK(d.diagnostics[0].notes[0].message ==
        "references in this file are read outside the parts that do not parse; some may be missing");
  CHECK(d.partly_read);  // counted by ws-build --stats
  CHECK_FALSE(endpoint("var z = Prompts.Tone;\n").partly_read);
}

TEST_CASE("csharp: references come from chains, never from strings or comments", "[reader][csharp]") {
  ws::Definition d = endpoint(
      "var a = \"Agents.Triage\";\n"               // 4
      "// Agents.Triage\n"                         // 5
      "/* Agents.Triage */\n"                      // 6
      "var b = @\"Agents.Triage\" + \"\"\"Agents.Triage\"\"\";\n"  // 7
      "var c = $\"Agents.Triage {Agents.Billing} {x:N2}\";\n"     // 8
      "var d = 'A';\n"                             // 9
      "N.Ticket t = N.Ticket;\n"                   // 10
      "var e = N.Ticket.Status.ToString();\n"      // 11
      "var f = Agents;\n"                          // 12
      "var g = this.Agents.Triage;\n"              // 13
      "var h = Agents.Triage.Run(x).Then(Prompts.Tone);\n"  // 14
      "var i = Other.Agents.Triage;\n"             // 15
      "var j = Agents?.Triage;\n"                  // 16
      "var k = @Agents.Triage;\n"                  // 17
      "var l = global::Agents.Triage.Run();\n"     // 18
      "var m = Agents?.Triage?.Run();\n"           // 19
      "var n = N?.Ticket.Status;\n"                // 20
      "var o = foo::Agents.Triage;\n");            // 21
  CHECK(d.diagnostics.empty());
  CHECK(refs(d) == Strings{"agent Billing @8:26-8:40", "node-type Ticket @10:1-10:9", "node-type Ticket @10:14-10:22",
                           "node-type Ticket.Status @11:9-11:24", "agent Triage @14:9-14:22",
                           "prompt Tone @14:35-14:47", "agent Triage @16:9-16:23", "agent Triage @17:9-17:23",
                           "agent Triage @18:17-18:30", "agent Triage @19:9-19:23", "node-type Ticket.Status @20:9-20:25"});
  CHECK(d.refs[3].text == "N.Ticket.Status");
  CHECK(d.refs[1].member.empty());  // N.Ticket alone names the type, no member
  CHECK(d.refs[4].member.empty());  // only node types have members: .Run is runtime API
}

TEST_CASE("csharp: a declaration named like a root shadows it inside its scope only", "[reader][csharp][shadow]") {
  // Every declaration form, used inside its scope (the root is shadowed: no
  // reference) and outside it (the root is the definition again).
  struct Row {
    const char* form;
    const char* body;
    const char* where;  // the declaration's position
    Strings refs;       // what stays a reference: the uses outside the scope
  };
  const Row rows[] = {
      // locals: the block (top-level statements: the whole file)
      {"local", "var Agents = Load();\nreturn Agents.Triage;\n", "4:5", {}},
      {"local", "{ var Agents = 1; }\nreturn Agents.Triage;\n", "4:7", {"agent Triage @5:8-5:21"}},
      {"local", "{ var Agents = 1; Use(Agents.Triage); }\n", "4:7", {}},
      {"using declaration", "{ using var Agents = Open(); Use(Agents.Triage); }\nreturn Agents.Triage;\n", "4:13",
       {"agent Triage @5:8-5:21"}},
      {"using statement", "using (var Agents = Open()) { Use(Agents.Triage); }\nreturn Agents.Triage;\n", "4:12",
       {"agent Triage @5:8-5:21"}},
      {"fixed statement", "unsafe { fixed (byte* Agents = b) { Use(Agents.Triage); } Use(Agents.Billing); }\n", "4:23",
       {"agent Billing @4:63-4:77"}},
      {"for variable", "for (var Agents = 0; ; ) { Use(Agents.Triage); }\nreturn Agents.Triage;\n", "4:10",
       {"agent Triage @5:8-5:21"}},
      {"deconstruction", "var (Agents, b) = t;\nreturn Agents.Triage;\n", "4:6", {}},
      {"deconstruction", "{ var (Agents, b) = t; }\nreturn Agents.Triage;\n", "4:8", {"agent Triage @5:8-5:21"}},
      {"deconstruction", "{ (var Agents, var b) = t; Use(Agents.Triage); }\nreturn Agents.Triage;\n", "4:8",
       {"agent Triage @5:8-5:21"}},
      // expression variables: the enclosing block, a switch expression's arm
      {"out var", "Parse(out var Agents);\nreturn Agents.Triage;\n", "4:15", {}},
      {"out var", "{ Parse(out var Agents); }\nreturn Agents.Triage;\n", "4:17", {"agent Triage @5:8-5:21"}},
      {"pattern variable", "if (o is Foo Agents) { }\nreturn Agents.Triage;\n", "4:14", {}},
      {"pattern variable", "{ if (o is Foo Agents) { } }\nreturn Agents.Triage;\n", "4:16", {"agent Triage @5:8-5:21"}},
      {"var pattern", "{ if (o is var Agents) Use(Agents.Triage); }\nreturn Agents.Triage;\n", "4:16",
       {"agent Triage @5:8-5:21"}},
      {"pattern variable in a switch arm", "var r = o switch { Foo Agents => Agents.Triage, _ => Agents.Billing };\n",
       "4:24", {"agent Billing @4:54-4:68"}},
      {"pattern variable in a switch section",
       "switch (o) { case Foo Agents: Use(Agents.Triage); break; }\nreturn Agents.Billing;\n", "4:23",
       {"agent Billing @5:8-5:22"}},
      // local functions: the block
      {"local function", "void Agents() { }\nreturn Agents.Triage;\n", "4:6", {}},
      {"local function", "{ void Agents() { } }\nreturn Agents.Triage;\n", "4:8", {"agent Triage @5:8-5:21"}},
      // parameters: the function, lambda, anonymous method, record or class
      {"parameter", "int F(int Agents) => Agents.Triage;\nreturn Agents.Triage;\n", "4:11", {"agent Triage @5:8-5:21"}},
      {"lambda parameter", "var f = Agents => Agents.Triage;\nreturn Agents.Triage;\n", "4:9", {"agent Triage @5:8-5:21"}},
      {"lambda parameter", "var f = (Agents, b) => Agents.Triage;\nreturn Agents.Triage;\n", "4:10",
       {"agent Triage @5:8-5:21"}},
      {"lambda parameter", "var f = (int Agents) => 1;\nreturn Agents.Triage;\n", "4:14", {"agent Triage @5:8-5:21"}},
      {"lambda parameter", "var x = all.Where(E => E.Get(1));\nreturn E.AssignedTo;\n", "4:19",
       {"edge-type AssignedTo @5:8-5:20"}},
      {"anonymous method parameter", "Action<int> f = delegate (int Agents) { Use(Agents.Triage); };\nreturn Agents.Triage;\n",
       "4:31", {"agent Triage @5:8-5:21"}},
      {"method parameter", "return Agents.Triage;\nclass C { int F(int Agents) => Agents.Length; }\n", "5:21",
       {"agent Triage @4:8-4:21"}},
      {"primary constructor parameter", "return Agents.Triage;\nrecord R(int Agents) { int G => Agents.Length; }\n",
       "5:14", {"agent Triage @4:8-4:21"}},
      {"primary constructor parameter", "return Agents.Triage;\nclass C(int Agents) { int G => Agents.Length; }\n",
       "5:13", {"agent Triage @4:8-4:21"}},
      // loop, catch and query variables: that statement or query
      {"foreach variable", "foreach (var Agents in all) { }\nreturn Agents.Triage;\n", "4:14", {"agent Triage @5:8-5:21"}},
      {"foreach variable", "foreach (var Agents in all) { Use(Agents.Triage); }\n", "4:14", {}},
      {"foreach deconstruction", "foreach (var (Agents, b) in all) { Use(Agents.Triage); }\nreturn Agents.Triage;\n",
       "4:15", {"agent Triage @5:8-5:21"}},
      {"catch variable", "try { } catch (Exception Agents) { Log(Agents.Message); }\nreturn Agents.Triage;\n", "4:26",
       {"agent Triage @5:8-5:21"}},
      {"query range variable", "var q = from Agents in all select Agents.Triage;\nreturn Agents.Triage;\n", "4:14",
       {"agent Triage @5:8-5:21"}},
      {"query let", "var q = from a in all let Agents = a select Agents.Triage;\nreturn Agents.Triage;\n", "4:27",
       {"agent Triage @5:8-5:21"}},
      {"query join", "var q = from a in all join Agents in b on a equals Agents.Id select a;\nreturn Agents.Triage;\n",
       "4:28", {"agent Triage @5:8-5:21"}},
      {"query into", "var q = from a in all group a by a.K into Agents select Agents.Key;\nreturn Agents.Triage;\n", "4:43",
       {"agent Triage @5:8-5:21"}},
      // types: the whole file, or the type a nested one is declared in
      {"type", "return Groups.Count;\nstatic class Groups { public static int Count; }\n", "5:14", {}},
      {"type", "return Agents.Triage;\nenum Agents { Triage }\n", "5:6", {}},
      {"type", "return Agents.Triage;\nrecord Agents(int Triage);\n", "5:8", {}},
      {"nested type", "return Agents.Triage;\nclass C { class Agents { } int F() => Agents.Triage.Length; }\n", "5:17",
       {"agent Triage @4:8-4:21"}},
      // type parameters: the method, local function or type
      {"type parameter", "int Sum<N>(N a) where N : INumber<N> => N.Zero;\nreturn N.Ticket;\n", "4:9",
       {"node-type Ticket @5:8-5:16"}},
      {"type parameter", "return Agents.Triage;\nclass Box<Agents> { Agents.Inner x; }\n", "5:11", {"agent Triage @4:8-4:21"}},
      // members: the type that declares them
      {"property", "return Tasks.Nightly;\nclass C { int Tasks { get; } int F() => Tasks.Count; }\n", "5:15",
       {"task Nightly @4:8-4:21"}},
      {"field", "return Agents.Triage;\nclass C { static int Agents; int F() => Agents.Length; }\n", "5:22",
       {"agent Triage @4:8-4:21"}},
      {"method", "return Agents.Triage;\nclass C { void Agents() { } void G() { Agents.Invoke(); } }\n", "5:16",
       {"agent Triage @4:8-4:21"}},
      {"event", "return Agents.Triage;\nclass C { event Action Agents; void G() { Agents.Invoke(); } }\n", "5:24",
       {"agent Triage @4:8-4:21"}},
      {"event with accessors",
       "return Agents.Triage;\nclass C { event Action Agents { add { } remove { } } void G() => Agents.Invoke(); }\n", "5:24",
       {"agent Triage @4:8-4:21"}},
      // namespaces and using aliases: the whole file (no use is outside)
      {"namespace", "return Agents.Triage;\nnamespace Agents.Billing { }\n", "5:11", {}},
      {"using alias", "using Agents = Foo.Bar;\nreturn Agents.Triage;\n", "4:7", {}},
  };
  for (const Row& row : rows) {
    INFO(row.form << ": " << row.body);
    ws::Definition d = endpoint(row.body);
    CHECK(refs(d) == row.refs);
    CHECK(d.diagnostics.size() == 1);
    if (d.diagnostics.size() != 1) continue;
    CHECK(d.diagnostics[0].code == ws::DiagCode::shadowed_root);
    CHECK(d.diagnostics[0].severity == ws::Severity::warning);
    CHECK(fmt::format("{}:{}", d.diagnostics[0].span.start.line, d.diagnostics[0].span.start.column) == row.where);
    CHECK_THAT(d.diagnostics[0].message, Catch::Contains("shadows the symbol root"));
  }
  // other roots still count; a local of another name shadows nothing
  ws::Definition d = endpoint("var Agents = 1;\nvar agents = 2;\nreturn Prompts.Tone;\n");
  CHECK(refs(d) == Strings{"prompt Tone @6:8-6:20"});
  d = endpoint("var agents = Agents.Triage;\n");
  CHECK(d.diagnostics.empty());
  CHECK(refs(d) == Strings{"agent Triage @4:14-4:27"});
  // a lambda's parameter does not turn off checking in the rest of the file
  d = endpoint("var g = all.Select(E => E.Get);\nreturn E.AssignedToo;\n");
  CHECK(refs(d) == Strings{"edge-type AssignedToo @5:8-5:21"});
}

TEST_CASE("csharp: a root outside the kind's scope is WS012", "[reader][csharp]") {
  std::map<std::string, std::string> defaults;
  for (const auto& e : std::filesystem::directory_iterator(std::string(WS_SOURCE_DIR) + "/schemas/kinds"))
    defaults[e.path().filename().string()] = slurp(e.path().string());
  auto narrow = ws::KindPack::from_texts(
      defaults, {{"endpoint.json", R"({"kind": "endpoint", "files": "endpoints/*.cs", "format": "csharp",
                                       "symbol": "Endpoints", "scope": ["Agents", "N"],
                                       "schema": {"type": "object", "required": ["name"]}})"}});
  REQUIRE(narrow.ok());
  ws::Definition d = read("endpoints/e.cs", "// name: X\nvar a = Agents.Triage;\nvar b = Secrets.Key;\n", *narrow);
  CHECK(only_diag(d) == "WS012 3:9 endpoint code may not use 'Secrets'; allowed roots: Agents, N");
  CHECK(at(d.diagnostics[0].span) == "3:9-3:20");
  CHECK(refs(d) == Strings{"agent Triage @2:9-2:22"});
}

TEST_CASE("csharp: a using directive naming a root is WS020, the names used through it hidden", "[reader][csharp][alias]") {
  // Each of these would let a body use Secrets (or a missing member) with no
  // reference for the scope, name, member or rename checks to see.
  struct Case {
    std::string directive, use, diag;
  };
  const std::string msg = "using directive names the symbol root ";
  for (const Case& c : std::vector<Case>{
           {"using S = Secrets;", "S.Key", "WS020 4:11 " + msg + "'Secrets': names used through it cannot be checked; "
                                             "remove it and write 'Secrets.<name>' in full"},
           {"using static Secrets;", "Key", "WS020 4:14 " + msg + "'Secrets': names used through it cannot be "
                                              "checked; remove it and write 'Secrets.<name>' in full"},
           {"global using static Agents;", "Triage", "WS020 4:21 " + msg + "'Agents': names used through it cannot "
                                                       "be checked; remove it and write 'Agents.<name>' in full"},
           {"using Agents;", "Triage", "WS020 4:7 " + msg + "'Agents': names used through it cannot be checked; "
                                         "remove it and write 'Agents.<name>' in full"},
           {"using T = global::N.Ticket;", "T.Nope", "WS020 4:19 " + msg + "'N': names used through it cannot be "
                                                       "checked; remove it and write 'N.<name>' in full"},
           {"using @S = @Secrets;", "S.Key", "WS020 4:12 " + msg + "'Secrets': names used through it cannot be "
                                               "checked; remove it and write 'Secrets.<name>' in full"},
       }) {
    INFO(c.directive);
    ws::Definition d = endpoint(c.directive + "\nreturn " + c.use + ";\n");
    CHECK(only_diag(d) == c.diag);
    CHECK(d.diagnostics[0].severity == ws::Severity::error);
  }

  // A directive that does not begin with a root is none of this: an alias
  // named like a root shadows it (WS014), a namespace is a namespace.
  ws::Definition d = endpoint("using System.Text;\nusing X = System.Collections.Generic.List<int>;\nreturn Agents.Triage;\n");
  CHECK(diags(d).empty());
  CHECK(refs(d) == Strings{"agent Triage @6:8-6:21"});
  d = endpoint("using Agents = System.Text;\nreturn 1;\n");
  REQUIRE(diags(d).size() == 1);
  CHECK(diags(d)[0].rfind("WS014 4:7 ", 0) == 0);
  // A root further along a name is no root: `using X = System.Agents;`.
  d = endpoint("using X = System.Agents;\nreturn 1;\n");
  CHECK(diags(d).empty());
}

TEST_CASE("csharp: encodings, line endings, BOM", "[reader][csharp]") {
  CHECK(only_diag(endpoint(std::string("var a = 1;\0", 11))) == "WS002 4:11 NUL byte: definitions are UTF-8 text");
  CHECK(only_diag(endpoint("var a = \"\xff\";")).substr(0, 10) == "WS002 4:10");
  ws::Definition d = read("ai-tools/t.cs", "// name: T\r\nvar a = 1;\r\nreturn Agents.Triage;\r\n");
  CHECK(d.diagnostics.empty());
  CHECK(refs(d) == Strings{"agent Triage @3:8-3:21"});
  check_clean("ai-tools/t.cs", "\xef\xbb\xbf// name: Bom\nreturn Agents.Triage;\n",
              {"ai-tool", "Bom", "1:13-1:16", {"agent Triage @2:8-2:21"}});
}

TEST_CASE("csharp: deep, huge and junk input", "[reader][csharp]") {
  ws::Definition d = endpoint("var x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + ";\n");
  CHECK(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].code == ws::DiagCode::too_deep);
  // long chains are long, not deep
  std::string sum = "var s = a", calls = "var c = x", elses = "if (a) { }";
  for (int i = 0; i < 1000; ++i) {
    sum += " + a";
    calls += ".Next()";
    elses += " else if (a) { }";
  }
  CHECK(endpoint(sum + ";\n" + calls + ";\n" + elses + "\n").diagnostics.empty());
  CHECK(d.partly_read);
  // past what is parsed at all, no reference is read, and the file says so
  d = endpoint("var x = Agents.Triage;\nvar y = " + std::string(20000, '(') + "1" + std::string(20000, ')') + ";\n");
  REQUIRE(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].code == ws::DiagCode::too_deep);
  REQUIRE(d.diagnostics[0].notes.size() == 1);
  CHECK(d.diagnostics[0].notes[0].message == "no references are read from this file; any it has are missing");
  CHECK(d.refs.empty());
  CHECK(d.partly_read);
  d = endpoint(std::string(10000, '{') + std::string(10000, '}'));
  CHECK(d.diagnostics[0].code == ws::DiagCode::too_deep);
  d = endpoint("var x = " + std::string(10000, '{'));
  REQUIRE_FALSE(d.diagnostics.empty());
  CHECK(d.diagnostics.size() <= 5);

  std::string big = "// name: Big\n";
  for (int i = 0; big.size() < (2u << 20); ++i)
    big += "var v" + std::to_string(i) + " = N.Ticket.Status + Agents.Triage.Run(\"x\");\n";
  d = read("ai-tools/big.cs", big);
  CHECK(d.diagnostics.empty());
  CHECK(d.refs.size() > 60000);

  std::string junk;
  for (int i = 0; i < 200000; ++i) junk += "{}[]();,\"'ab 1\n=-*&|!<>/\\."[(i * 7919) % 27];
  d = read("ai-tools/junk.cs", junk);
  CHECK_FALSE(d.diagnostics.empty());
  CHECK(d.diagnostics.size() <= 8);
}

TEST_CASE("csharp: past five syntax errors the last one shown says how many more there are", "[reader][csharp]") {
  std::string body;
  for (int i = 0; i < 8; ++i) body += "var x" + std::to_string(i) + " = ;\n";
  ws::Definition d = endpoint(body);
  REQUIRE(d.diagnostics.size() == 5);
  for (const auto& diag : d.diagnostics) CHECK(diag.code == ws::DiagCode::syntax_error);
  REQUIRE_FALSE(d.diagnostics[4].notes.empty());
  CHECK(d.diagnostics[4].notes.back().message == "3 more syntax errors in this file not shown");
  // exactly five: no note
  body.clear();
  for (int i = 0; i < 5; ++i) body += "var x" + std::to_string(i) + " = ;\n";
  d = endpoint(body);
  REQUIRE(d.diagnostics.size() == 5);
  for (const auto& diag : d.diagnostics)
    for (const auto& n : diag.notes) CHECK(n.message.find("more syntax error") == std::string::npos);
}
