// ws-build end to end: real git repositories (the example workspace and
// small changes to it), the real binary, exact diagnostics and exit status.
// The cache has its own file, ws_build_cache_test.cpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>


#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/sarif_check.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::check_build;
using wstest::TempRepo;
using wstest::ws;
namespace fs = std::filesystem;

namespace {

// The example workspace, committed.
void seed(const TempRepo& repo) { wstest::commit_example_workspace(repo, "example workspace"); }

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

struct Build {
  int status = -1;
  std::vector<std::string> found;  // "path:line:col CODE message", then "  note: path:line:col message"
  nlohmann::json doc;
  std::string err;
};

// Runs ws-build --format json with `args` and flattens its diagnostics.
// Run twice: the second build of a change reads only the changes, on the
// index of the base the first one left (base_index.h), and must report
// exactly what the first one did.
Build build(const TempRepo& repo, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"--format", "json"});
  auto r = ws("ws-build", args, repo.path());
  auto again = ws("ws-build", args, repo.path());
  CHECK(again.out == r.out);
  CHECK(again.err == r.err);
  CHECK(again.status == r.status);
  Build b;
  b.status = r.status;
  b.err = r.err;
  INFO(r.out << r.err);
  b.doc = wstest::build_report(r.out);
  for (const auto& d : b.doc["diagnostics"]) {
    std::string where = d["path"].get<std::string>();
    if (!d["line"].is_null()) where += ":" + std::to_string(d["line"].get<int>()) + ":" + std::to_string(d["column"].get<int>());
    b.found.push_back(where + " " + d["code"].get<std::string>() + " " + d["message"].get<std::string>());
    for (const auto& n : d["notes"]) {
      std::string nw = n["path"].is_null() ? "" : n["path"].get<std::string>();
      if (!n["line"].is_null()) nw += ":" + std::to_string(n["line"].get<int>()) + ":" + std::to_string(n["column"].get<int>());
      b.found.push_back("  note: " + (nw.empty() ? "" : nw + " ") + n["message"].get<std::string>());
    }
  }
  return b;
}

using Lines = std::vector<std::string>;

// Builds with `args` for the flattened diagnostics: the status must be
// `status` and the diagnostics `found`, in order.
Build check_found(const TempRepo& repo, const std::vector<std::string>& args, int status, const Lines& found) {
  auto b = build(repo, args);
  CHECK(b.status == status);
  CHECK(b.found == found);
  return b;
}

}  // namespace

TEST_CASE("ws-build: the example workspace compiles clean, changed or audited whole", "[ws-build]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  auto added = ws("ws-build", {}, repo.path());  // every file added, nothing committed yet
  CHECK(added.err == "");
  CHECK(added.out == "18 files changed, compiled clean.\n");
  CHECK(added.status == 0);
  repo.commit_all("example workspace");
  auto none = ws("ws-build", {}, repo.path());
  CHECK(none.out == "0 files changed, compiled clean.\n");
  CHECK(none.status == 0);
  auto all = ws("ws-build", {"--all"}, repo.path());
  CHECK(all.out == "18 files checked, compiled clean.\n");
  CHECK(all.status == 0);
}

TEST_CASE("ws-build: an agent and a tool referencing it, added in one change, are clean", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGintake01.json", "{\n  \"name\": \"Intake\",\n  \"tools\": [\"Classify\"]\n}\n");
  repo.write("ai-tools/TLclassify01.cs", "// name: Classify\nreturn await Agents.Intake.Run(args);\n");
  check_build(repo, {}, 0, "2 files changed, compiled clean.\n");
}

TEST_CASE("ws-build: deleting an agent an unchanged endpoint uses is an error at the endpoint", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.remove("agents/AGtriage01.json");
  auto r = check_build(repo, {}, 1,
        "access/grants/GTsupport01.json:5:15: error[WS013]: unresolved reference to agent 'Triage'\n"
        "  \"agents\": [\"Triage\", \"Billing\"]\n"
        "              ^~~~~~\n"
        "agents/AGtriage01.json: note: 'Triage' was deleted with agents/AGtriage01.json\n"
        "endpoints/EPtriage01.cs:6:20: error[WS013]: unresolved reference 'Agents.Triage'\n"
        "var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);\n"
        "                   ^~~~~~~~~~~~~\n"
        "agents/AGtriage01.json: note: 'Triage' was deleted with agents/AGtriage01.json\n"
        "2 errors in 2 files (1 file changed)\n");
  // Again on the base's index: the unchanged files' source lines are read
  // from the base, as the view no longer holds them.
  auto again = ws("ws-build", {}, repo.path());
  CHECK(again.out == r.out);
  CHECK(again.status == 1);
}

TEST_CASE("ws-build: a rename by editing the name breaks the old name's users until they follow", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.replace("agents/AGtriage01.json", "\"name\": \"Triage\"", "\"name\": \"Intake\"");
  check_build(repo, {}, 1,
        "access/grants/GTsupport01.json:5:15: error[WS013]: unresolved reference to agent 'Triage'\n"
        "  \"agents\": [\"Triage\", \"Billing\"]\n"
        "              ^~~~~~\n"
        "agents/AGtriage01.json:2:12: note: 'Triage' was renamed to 'Intake' in agents/AGtriage01.json\n"
        "  \"name\": \"Intake\",\n"
        "           ^~~~~~\n"
        "endpoints/EPtriage01.cs:6:20: error[WS013]: unresolved reference 'Agents.Triage'\n"
        "var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);\n"
        "                   ^~~~~~~~~~~~~\n"
        "agents/AGtriage01.json:2:12: note: 'Triage' was renamed to 'Intake' in agents/AGtriage01.json\n"
        "  \"name\": \"Intake\",\n"
        "           ^~~~~~\n"
        "2 errors in 2 files (1 file changed)\n");
  // Fixing the users in the same change makes it clean.
  repo.replace("endpoints/EPtriage01.cs", "Agents.Triage.Run", "Agents.Intake.Run");
  repo.replace("access/grants/GTsupport01.json", "[\"Triage\",", "[\"Intake\",");
  check_build(repo, {}, 0, "3 files changed, compiled clean.\n");
}

TEST_CASE("ws-build: a removed field is reported in unchanged code and unchanged index JSON", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.replace("node-types/NTticket01.json", "    { \"name\": \"Status\", \"type\": \"string\" },\n", "");
  const std::string note =
      "  note: node-types/NTticket01.json:2:12 field 'Status' was removed from node type 'Ticket' in "
      "node-types/NTticket01.json";
  check_found(repo, {}, 1, Lines{"ai-tools/TLroute01.cs:4:12 WS013 node type 'Ticket' has no field 'Status'", note,
                                 "indexes/IXopen01.json:4:15 WS013 node type 'Ticket' has no field 'Status'", note});
}

TEST_CASE("ws-build: duplicate names are errors at both definitions", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGtriage02.json", "{\n  \"name\": \"Triage\"\n}\n");
  check_found(repo, {}, 1, Lines{"agents/AGtriage01.json:2:12 WS009 duplicate agent name 'Triage'",
                                 "  note: agents/AGtriage02.json:2:12 'Triage' is also defined here",
                                 "agents/AGtriage02.json:2:12 WS009 duplicate agent name 'Triage'",
                                 "  note: agents/AGtriage01.json:2:12 'Triage' is also defined here"});
}

TEST_CASE("ws-build: text in strings and comments is not a reference, a misspelt one is", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("ai-tools/TLnote01.cs",
             "// name: Note\n// Agents.Nobody is mentioned here only\nvar s = \"Agents.Nobody\";\n"
             "/* N.Ticket.Nothing */\nreturn s;\n");
  check_found(repo, {}, 0, Lines{});
  repo.write("ai-tools/TLnote01.cs", "// name: Note\nreturn Agents.Triag.Run(N.Ticket.Stauts);\n");
  check_found(repo, {}, 1, Lines{"ai-tools/TLnote01.cs:2:8 WS010 unresolved reference 'Agents.Triag'",
                                 "  note: did you mean 'Triage'?",
                                 "ai-tools/TLnote01.cs:2:25 WS011 node type 'Ticket' has no field 'Stauts'",
                                 "  note: did you mean 'Status'?"});
}

TEST_CASE("ws-build: syntax errors in C# and JSON are reported where they are", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("ai-tools/TLbroken01.cs", "// name: Broken\nif (args.X) {\n  return 1;\n");
  repo.write("agents/AGbroken01.json", "{\n  \"name\": \"Broken\",\n  \"model\": \"x\" ]\n}\n");
  repo.write("agents/AGbroken02.json", "{\n  \"name\": \"Broken2\",\n  \"model\": \"x\",\n}\n");
  check_found(repo, {}, 1, Lines{"agents/AGbroken01.json:3:16 WS001 syntax error: unexpected ']'",
                                 "agents/AGbroken02.json:3:15 WS001 syntax error: unexpected ','",
                                 "ai-tools/TLbroken01.cs:3:12 WS001 syntax error: missing '}'",
                                 "  note: references in this file are read outside the parts that do not parse; some "
                                 "may be missing"});
}

TEST_CASE("ws-build: a schema violation is reported at the offending value", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.replace("tasks/TKdigest01.json", "\"enabled\": true", "\"enabled\": \"yes\"");
  check_build(repo, {}, 1,
        "tasks/TKdigest01.json:5:14: error[WS006]: 'enabled' must be a boolean, not a string\n"
        "  \"enabled\": \"yes\"\n"
        "             ^~~~~\n"
        "1 error in 1 file (1 file changed)\n");
}

TEST_CASE("ws-build --staged checks the index, the default the working tree", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGintake01.json", "{\n  \"name\": \"Intake\"\n}\n");
  repo.git({"add", "agents/AGintake01.json"});
  repo.replace("agents/AGintake01.json", "\"Intake\"", "\"Intake\",\n  \"handoffs\": [\"Nobody\"]");
  auto staged = ws("ws-build", {"--staged"}, repo.path());
  CHECK(staged.out == "1 file changed, compiled clean.\n");
  CHECK(staged.status == 0);
  check_found(repo, {}, 1, Lines{"agents/AGintake01.json:3:17 WS010 unresolved reference to agent 'Nobody'"});
}

TEST_CASE("ws-build --base A --rev B checks a CI range", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  std::string a = wstest::chomp(repo.git({"rev-parse", "HEAD"}));
  repo.remove("agents/AGbilling01.json");
  std::string b = repo.commit_all("drop billing");
  std::string c = wstest::chomp(repo.git({"rev-parse", "HEAD"}));
  auto range = build(repo, {"--base", a, "--rev", b});
  CHECK(range.status == 1);
  const std::string note = "  note: agents/AGbilling01.json 'Billing' was deleted with agents/AGbilling01.json";
  CHECK(range.found == Lines{"access/grants/GTsupport01.json:5:25 WS013 unresolved reference to agent 'Billing'", note,
                             "agents/AGtriage01.json:8:17 WS013 unresolved reference to agent 'Billing'", note,
                             "ai-tools/TLroute01.cs:8:18 WS013 unresolved reference 'Agents.Billing'", note});
  CHECK(range.doc["summary"]["files_changed"] == 1);
  // The working tree is clean against HEAD = B.
  auto now = ws("ws-build", {}, repo.path());
  CHECK(now.out == "0 files changed, compiled clean.\n");
  CHECK(c == b);
  auto bad = ws("ws-build", {"--rev", "no-such-rev"}, repo.path());
  CHECK(bad.status == 2);
  CHECK(bad.out == "");
  CHECK(bad.err.rfind("ws-build: unknown revision 'no-such-rev'", 0) == 0);
}

TEST_CASE("ws-build --json is a record per diagnostic then the summary, each with its type and version",
          "[ws-build][json-output]") {
  TempRepo repo;
  seed(repo);
  repo.remove("agents/AGtriage01.json");
  auto r = ws("ws-build", {"--json"}, repo.path());
  CHECK(r.status == 1);
  const std::string note =
      R"("notes":[{"path":"agents/AGtriage01.json","line":null,"column":null,"end_line":null,"end_column":null,)"
      R"("message":"'Triage' was deleted with agents/AGtriage01.json"}]})";
  CHECK(r.out ==
        R"({"type":"diagnostic","version":1,"code":"WS013","severity":"error","path":"access/grants/GTsupport01.json",)"
        R"("line":5,"column":15,"end_line":5,"end_column":21,"message":"unresolved reference to agent 'Triage'",)" +
            note + "\n" +
            R"({"type":"diagnostic","version":1,"code":"WS013","severity":"error","path":"endpoints/EPtriage01.cs",)"
            R"("line":6,"column":20,"end_line":6,"end_column":33,"message":"unresolved reference 'Agents.Triage'",)" +
            note + "\n" +
            R"({"type":"summary","version":1,"files_changed":1,"files_checked":0,"errors":2,"warnings":0,)"
            R"x("files_with_errors":2,"all":false,"clean":false,"text":"2 errors in 2 files (1 file changed)",)x"
            R"("tool":{"name":"ws-build","version":"0.1.0"}})"
            "\n");
  CHECK(ws("ws-build", {"--format", "json"}, repo.path()).out == r.out);
  // A clean build is the summary alone.
  repo.git({"checkout", "--", "agents/AGtriage01.json"});
  auto clean = ws("ws-build", {"--json"}, repo.path());
  CHECK(clean.status == 0);
  CHECK(clean.out ==
        R"({"type":"summary","version":1,"files_changed":0,"files_checked":0,"errors":0,"warnings":0,)"
        R"("files_with_errors":0,"all":false,"clean":true,"text":"0 files changed, compiled clean.",)"
        R"("tool":{"name":"ws-build","version":"0.1.0"}})"
        "\n");
}

TEST_CASE("ws-build --format sarif is valid SARIF 2.1.0", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.replace("agents/AGtriage01.json", "\"name\": \"Triage\"", "\"name\": \"Intake\"");
  repo.write("ai-tools/TLnote01.cs", "// name: Note\nvar Agents = 1;\nreturn Agents;\n");  // a warning
  auto r = ws("ws-build", {"--format", "sarif"}, repo.path());
  CHECK(r.status == 1);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["version"] == "2.1.0");
  const auto& results = doc["runs"][0]["results"];
  REQUIRE(results.size() == 3);
  CHECK(results[0]["ruleId"] == "WS013");
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "access/grants/GTsupport01.json");
  CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 5);
  CHECK(results[1]["ruleId"] == "WS014");
  CHECK(results[1]["level"] == "warning");
  if (auto v = wstest::validate_sarif(r.out)) {
    INFO(v->out << v->err);
    CHECK(v->status == 0);
  }
}

TEST_CASE("ws-build --format github and gitlab, exactly", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.remove("agents/AGtriage01.json");
  auto gh = ws("ws-build", {"--format", "github"}, repo.path());
  CHECK(gh.status == 1);
  CHECK(gh.out ==
        "::error file=access/grants/GTsupport01.json,line=5,col=15,endLine=5,endColumn=20,title=WS013::"
        "unresolved reference to agent 'Triage'%0Aagents/AGtriage01.json: note: 'Triage' was deleted with "
        "agents/AGtriage01.json\n"
        "::error file=endpoints/EPtriage01.cs,line=6,col=20,endLine=6,endColumn=32,title=WS013::"
        "unresolved reference 'Agents.Triage'%0Aagents/AGtriage01.json: note: 'Triage' was deleted with "
        "agents/AGtriage01.json\n"
        "2 errors in 2 files (1 file changed)\n");
  auto gl = ws("ws-build", {"--format", "gitlab"}, repo.path());
  CHECK(gl.status == 1);
  auto doc = nlohmann::json::parse(gl.out);
  REQUIRE(doc.size() == 2);
  std::regex hex16("[0-9a-f]{16}");
  for (auto& issue : doc) {
    CHECK(std::regex_match(issue["fingerprint"].get<std::string>(), hex16));
    issue.erase("fingerprint");
  }
  CHECK(doc == nlohmann::json::parse(R"([
    {"description": "unresolved reference to agent 'Triage'; agents/AGtriage01.json: note: 'Triage' was deleted with agents/AGtriage01.json",
     "check_name": "WS013", "severity": "major",
     "location": {"path": "access/grants/GTsupport01.json", "lines": {"begin": 5}}},
    {"description": "unresolved reference 'Agents.Triage'; agents/AGtriage01.json: note: 'Triage' was deleted with agents/AGtriage01.json",
     "check_name": "WS013", "severity": "major",
     "location": {"path": "endpoints/EPtriage01.cs", "lines": {"begin": 6}}}
  ])"));
  CHECK(ws("ws-build", {"--format", "gitlab"}, repo.path()).out == gl.out);  // stable fingerprints
}

TEST_CASE("ws-build exit status: 0 clean, 1 errors, 2 usage or environment", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  CHECK(ws("ws-build", {}, repo.path()).status == 0);
  repo.write("agents/AGbad01.json", "{\n  \"name\": \"Bad\",\n  \"toosl\": []\n}\n");
  CHECK(ws("ws-build", {}, repo.path()).status == 1);
  for (std::vector<std::string> args : {std::vector<std::string>{"--format", "xml"},
                                        {"--json", "--format", "sarif"},
                                        {"--no-such-flag"},
                                        {"../outside"},
                                        {"--staged", "--rev", "HEAD"}}) {
    auto r = ws("ws-build", args, repo.path());
    INFO(args[0]);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.rfind("ws-build: ", 0) == 0);
  }
  wstest::TempDir outside;
  auto r = ws("ws-build", {}, outside.path());
  CHECK(r.status == 2);
  CHECK(r.err.rfind("ws-build: not a git repository", 0) == 0);
  auto v = ws("ws-build", {"--version"}, outside.path());
  CHECK(v.status == 0);
  CHECK(v.out.rfind("ws-build 0.1.0 (tree-sitter@", 0) == 0);
}

TEST_CASE("ws-build --werror fails on warnings, which otherwise pass", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("ai-tools/TLnote01.cs", "// name: Note\nvar Agents = 1;\nreturn Agents;\n");
  check_build(repo, {}, 0,
        "ai-tools/TLnote01.cs:2:5: warning[WS014]: local 'Agents' shadows the symbol root Agents: where it is in "
        "scope 'Agents' is the local, so Agents.<name> is not a reference there; rename the local\n"
        "var Agents = 1;\n"
        "    ^~~~~~\n"
        "1 file changed, compiled clean with 1 warning.\n");
  CHECK(ws("ws-build", {"--werror"}, repo.path()).status == 1);
}

TEST_CASE("ws-build pathspecs limit the changes compiled, the overlay stays whole", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGintake01.json", "{\n  \"name\": \"Intake\",\n  \"handoffs\": [\"Nobody\"]\n}\n");
  repo.write("ai-tools/TLask01.cs", "// name: Ask\nreturn Agents.Intake.Run();\n");
  auto tools = check_found(repo, {"ai-tools"}, 0, Lines{});
  CHECK(tools.doc["summary"]["files_changed"] == 1);
  check_found(repo, {"agents/"}, 1,
              Lines{"agents/AGintake01.json:3:17 WS010 unresolved reference to agent 'Nobody'"});
  // A pathspec naming unchanged files only is a clean, empty build; one
  // naming nothing at all is a mistake.
  auto nothing_changed = ws("ws-build", {"tasks"}, repo.path());
  CHECK(nothing_changed.out == "0 files changed, compiled clean.\n");
  CHECK(nothing_changed.status == 0);
  auto typo = ws("ws-build", {"agnets"}, repo.path());
  CHECK(typo.status == 2);
  CHECK(typo.out == "");
  CHECK(typo.err == "ws-build: pathspec 'agnets' did not match any file\n");
}

TEST_CASE("ws-build: secrets are names only, symlinks and unrouted files are refused", "[ws-build]") {
  TempRepo repo;
  seed(repo);
  repo.write(".secrets/NewToken", "canary-51d2e0\n");
  repo.write("ai-tools/TLmail01.cs", "// name: Mail\nreturn Secrets.NewToken.Length + Secrets.SupportMailbox.Length;\n");
  repo.write("notes/todo.txt", "later\n");
  fs::create_symlink("AGtriage01.json", repo.abs("agents/AGlink01.json"));
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("canary") == std::string::npos);
  auto b = build(repo);
  CHECK(b.found ==
        Lines{"agents/AGlink01.json WS017 refused to read 'agents/AGlink01.json': symlink (links are never followed)",
              "notes/todo.txt WS005 file is in no kind's folder, so nothing reads it"});
  CHECK(b.doc["summary"]["files_changed"] == 4);
}

TEST_CASE("ws-build works in a repository with no commits yet and with -C", "[ws-build]") {
  TempRepo repo;
  auto empty = ws("ws-build", {}, repo.path());
  CHECK(empty.err == "");
  CHECK(empty.out == "0 files changed, compiled clean.\n");
  CHECK(empty.status == 0);
  repo.write("agents/AGa01.json", "{\n  \"name\": \"A\",\n  \"handoffs\": [\"B\"]\n}\n");
  wstest::TempDir elsewhere;
  auto b = ws("ws-build", {"-C", repo.path(), "--format", "github"}, elsewhere.path());
  CHECK(b.status == 1);
  CHECK(b.out ==
        "::error file=agents/AGa01.json,line=3,col=17,endLine=3,endColumn=17,title=WS010::"
        "unresolved reference to agent 'B'\n"
        "1 error in 1 file (1 file changed)\n");
}

TEST_CASE("ws-build: unchanged code the grammar cannot parse whole still breaks when its referent goes", "[ws-build]") {
  // A switch arm under #if is valid C# that tree-sitter-c-sharp reads as an
  // error: the references around it used to be dropped with the whole file,
  // so deleting what they name passed.
  TempRepo repo;
  seed(repo);
  repo.write("ai-tools/TLpick01.cs",
             "// name: Pick\n"
             "var agent = mode switch {\n"
             "#if DEBUG\n"
             "  0 => Agents.Triage,\n"
             "#endif\n"
             "  _ => Agents.Billing };\n");
  repo.commit_all("a tool the grammar cannot parse whole");
  repo.remove("agents/AGbilling01.json");
  auto r = ws("ws-build", {"--", "agents"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("ai-tools/TLpick01.cs:6:8: error[WS013]: unresolved reference 'Agents.Billing'\n") !=
        std::string::npos);
  auto g = ws("ws-grep", {"--base", "--ref", "Agents.Billing"}, repo.path());
  CHECK(g.out.find("ai-tools/TLpick01.cs:6:8:  _ => Agents.Billing };\n") != std::string::npos);
  auto t = ws("ws-grep", {"--base", "--ref", "Agents.Triage"}, repo.path());
  CHECK(t.out.find("ai-tools/TLpick01.cs:4:8:  0 => Agents.Triage,\n") != std::string::npos);
}
