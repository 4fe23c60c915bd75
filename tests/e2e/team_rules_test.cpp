// Rules a team tunes (ws(7), RULES): per-code levels and per-path ignores
// read from the base's .ws/config.json, inline suppressions in C# and
// Markdown, and the JUnit report (ws-build(1), --format junit). Each test
// builds a real repository and checks ws-build's exact output and status.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::check_build;
using wstest::TempRepo;
using wstest::ws;

namespace {

// The example workspace with `config` as its committed .ws/config.json.
void seed(const TempRepo& repo, const std::string& config) {
  wstest::commit_example_workspace(repo, "example workspace", config);
}

// A tool whose line 3 declares a local named like a root (WS014) and whose
// line 4 names a field node type Ticket does not have (WS011).
const char* kShadowAndMissing =
    "// name: Probe\n"
    "// description: probe\n"
    "var Agents = 1;\n"
    "return await N.Ticket.Nope;\n";

// The abbreviated id of HEAD, as the tools' errors name a commit.
std::string short_head(const TempRepo& repo) {
  std::string id = repo.git({"rev-parse", "--short=12", "HEAD"});
  while (!id.empty() && id.back() == '\n') id.pop_back();
  return id;
}

}  // namespace

TEST_CASE("rules: the base config sets a code off, to a note, a warning or an error", "[rules]") {
  TempRepo repo;
  seed(repo, R"({"rules": {"WS014": "off", "WS011": "warning", "WS005": "error"}})");
  repo.write("ai-tools/TLprobe01.cs", kShadowAndMissing);
  repo.write("scratch/notes.txt", "hello\n");
  check_build(repo, {}, 1,
        "ai-tools/TLprobe01.cs:4:14: warning[WS011]: node type 'Ticket' has no field 'Nope'\n"
        "return await N.Ticket.Nope;\n"
        "             ^~~~~~~~~~~~~\n"
        "note: did you mean 'Type'?\n"
        "scratch/notes.txt: error[WS005]: file is in no kind's folder, so nothing reads it\n"
        "1 error, 1 warning in 2 files (2 files changed)\n");

  // As notes, neither counts nor fails the build.
  repo.git({"checkout", "-q", "-b", "notes"});
  repo.write(".ws/config.json", R"({"rules": {"WS014": "note", "WS011": "note"}})");
  repo.git({"add", ".ws/config.json"});
  repo.git({"commit", "-q", "-m", "notes"});
  repo.remove("scratch/notes.txt");
  check_build(repo, {"--werror"}, 0,
        "ai-tools/TLprobe01.cs:3:5: note[WS014]: local 'Agents' shadows the symbol root Agents: where it is in scope 'Agents' is the local, so Agents.<name> is not a reference there; rename the local\n"
        "var Agents = 1;\n"
        "    ^~~~~~\n"
        "ai-tools/TLprobe01.cs:4:14: note[WS011]: node type 'Ticket' has no field 'Nope'\n"
        "return await N.Ticket.Nope;\n"
        "             ^~~~~~~~~~~~~\n"
        "note: did you mean 'Type'?\n"
        "1 file changed, compiled clean.\n");
}

TEST_CASE("rules: a change that turns a rule off is checked under the base's rules", "[rules]") {
  TempRepo repo;
  seed(repo, "");
  repo.write(".ws/config.json", R"({"rules": {"WS011": "off"}, "rule_paths": {"WS014": ["ai-tools/"]}})");
  repo.write("ai-tools/TLprobe01.cs", kShadowAndMissing);
  check_build(repo, {"--format", "github"}, 1,
        "::warning file=ai-tools/TLprobe01.cs,line=3,col=5,endLine=3,endColumn=10,title=WS014::local 'Agents' shadows the symbol root Agents: where it is in scope 'Agents' is the local, so Agents.<name> is not a reference there; rename the local\n"
        "::error file=ai-tools/TLprobe01.cs,line=4,col=14,endLine=4,endColumn=26,title=WS011::node type 'Ticket' has no field 'Nope'%0Anote: did you mean 'Type'?\n"
        "::notice::'.ws/config.json' changed: checking every definition\n"
        "1 error, 1 warning in 1 file (19 files checked)\n");
}

TEST_CASE("rules: codes that guard a trust boundary cannot be lowered, in the base or in a change", "[rules]") {
  TempRepo repo;
  seed(repo, R"({"rules": {"WS017": "off"}})");
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.out == "");
  CHECK(r.err == "ws-build: invalid .ws/config.json in commit " + short_head(repo) +
                     ": 'rules.WS017' may not lower WS017: it guards a trust boundary (ws(7), RULES, lists the "
                     "codes no config can tune)\n");
  CHECK(r.status == 2);

  TempRepo proposed;
  seed(proposed, "");
  proposed.write(".ws/config.json", R"({"rule_paths": {"WS004": ["**"]}})");
  check_build(proposed, {"--format", "github"}, 1,
        "::error file=.ws/config.json,title=WS019::invalid .ws/config.json: 'rule_paths.WS004' may not lower WS004: it guards a trust boundary (ws(7), RULES, lists the codes no config can tune)\n"
        "::notice::'.ws/config.json' changed: checking every definition\n"
        "1 error in 1 file (18 files checked)\n");

  // A code that names nothing, with a terminal escape in it, is one safe line.
  TempRepo unknown;
  seed(unknown, "{\"rules\": {\"WS\\u001b[2J\": \"off\"}}");
  auto u = ws("ws-build", {}, unknown.path());
  CHECK(u.out == "");
  CHECK(u.err == "ws-build: invalid .ws/config.json in commit " + short_head(unknown) +
                     ": 'rules.WS\\x1b[2J' names no diagnostic code; the codes are WS001 to WS025 (ws-build(1), "
                     "DIAGNOSTICS)\n");
  CHECK(u.status == 2);
}

TEST_CASE("rules: rule_paths turns a code off under the paths it names only", "[rules]") {
  TempRepo repo;
  seed(repo, R"({"rule_paths": {"WS011": ["ai-tools/TLold*.cs", "!ai-tools/TLold02.cs"]}})");
  repo.write("ai-tools/TLold01.cs", "// name: Old1\nreturn N.Ticket.Nope;\n");
  repo.write("ai-tools/TLold02.cs", "// name: Old2\nreturn N.Ticket.Nope;\n");
  repo.write("ai-tools/TLnew01.cs", "// name: New1\nreturn N.Ticket.Nope;\n");
  check_build(repo, {"--format", "github"}, 1,
        "::error file=ai-tools/TLnew01.cs,line=2,col=8,endLine=2,endColumn=20,title=WS011::node type 'Ticket' has no field 'Nope'%0Anote: did you mean 'Type'?\n"
        "::error file=ai-tools/TLold02.cs,line=2,col=8,endLine=2,endColumn=20,title=WS011::node type 'Ticket' has no field 'Nope'%0Anote: did you mean 'Type'?\n"
        "2 errors in 2 files (3 files changed)\n");
}

TEST_CASE("suppressions: a C# comment silences a code on its line or the next, and an unused one is WS022", "[rules][suppress]") {
  TempRepo repo;
  seed(repo, "");
  repo.write("ai-tools/TLprobe01.cs",
             "// name: Probe\n"
             "// ws-ignore WS014: the local predates the root\n"
             "var Agents = 1;\n"
             "return await N.Ticket.Nope; // ws-ignore WS011, WS010: field lands next week\n"
             "// ws-ignore WS010\n"
             "var s = \"// ws-ignore WS011: in a string, not a comment\"; var t = N.Ticket.Gone;\n"
             "// ws-ignored WS011 is prose\n"
             "var u = N.Ticket.Lost;\n");
  check_build(repo, {"--format", "github"}, 1,
        "::warning file=ai-tools/TLprobe01.cs,line=4,col=29,endLine=4,endColumn=76,title=WS022::suppression of 'WS010' suppresses nothing: no WS010 is reported at line 4; remove it\n"
        "::warning file=ai-tools/TLprobe01.cs,line=5,col=1,endLine=5,endColumn=18,title=WS022::suppression of 'WS010' suppresses nothing: no WS010 is reported at line 6; remove it\n"
        "::error file=ai-tools/TLprobe01.cs,line=6,col=67,endLine=6,endColumn=79,title=WS011::node type 'Ticket' has no field 'Gone'\n"
        "::error file=ai-tools/TLprobe01.cs,line=8,col=9,endLine=8,endColumn=21,title=WS011::node type 'Ticket' has no field 'Lost'\n"
        "2 errors, 2 warnings in 1 file (1 file changed)\n");
}

TEST_CASE("suppressions: refused without a reason when the base asks, and never for a trust-boundary code", "[rules][suppress]") {
  TempRepo repo;
  seed(repo, R"({"require_suppression_reason": true, "rules": {"WS022": "error"}})");
  repo.write("ai-tools/TLprobe01.cs",
             "// name: Probe\n"
             "// ws-ignore WS020: we need the alias\n"
             "using S = Secrets;\n"
             "// ws-ignore WS014\n"
             "var Agents = 1;\n"
             "// ws-ignore WS099: typo\n"
             "// ws-ignore: nothing named\n"
             "// ws-ignore WS001: nothing there\n"
             "return 1;\n");
  check_build(repo, {"--format", "github"}, 1,
        "::error file=ai-tools/TLprobe01.cs,line=2,col=1,endLine=2,endColumn=37,title=WS023::suppression of 'WS020' refused: WS020 guards a trust boundary and is never suppressed (ws(7), RULES)\n"
        "::error file=ai-tools/TLprobe01.cs,line=3,col=11,endLine=3,endColumn=17,title=WS020::using directive names the symbol root 'Secrets': names used through it cannot be checked; remove it and write 'Secrets.<name>' in full\n"
        "::error file=ai-tools/TLprobe01.cs,line=4,col=1,endLine=4,endColumn=18,title=WS023::suppression of 'WS014' gives no reason, and .ws/config.json sets \"require_suppression_reason\"; write 'ws-ignore WS014: why'\n"
        "::warning file=ai-tools/TLprobe01.cs,line=5,col=5,endLine=5,endColumn=10,title=WS014::local 'Agents' shadows the symbol root Agents: where it is in scope 'Agents' is the local, so Agents.<name> is not a reference there; rename the local\n"
        "::error file=ai-tools/TLprobe01.cs,line=6,col=1,endLine=6,endColumn=24,title=WS023::suppression names 'WS099', which is no diagnostic code; write 'ws-ignore WS014: reason'\n"
        "::error file=ai-tools/TLprobe01.cs,line=7,col=1,endLine=7,endColumn=27,title=WS023::suppression names no code; write 'ws-ignore WS014: reason'\n"
        "::error file=ai-tools/TLprobe01.cs,line=8,col=1,endLine=8,endColumn=33,title=WS022::suppression of 'WS001' suppresses nothing: no WS001 is reported at line 9; remove it\n"
        "6 errors, 1 warning in 1 file (1 file changed)\n");
}

TEST_CASE("suppressions: Markdown front matter 'ws-ignore' silences a code in its file", "[rules][suppress]") {
  TempRepo repo;
  seed(repo, "");
  repo.write("prompts/PRold01.md",
             "---\nname: Old\nincludes: [Gone]\nws-ignore: \"WS010: the include is restored next release\"\n---\nBody.\n");
  repo.write("prompts/PRold02.md",
             "---\nname: Old2\nincludes: [Gone]\nws-ignore: [\"WS010: as above\", \"WS006: stale\"]\n---\nBody.\n");
  repo.write("prompts/PRold03.md", "---\nname: Old3\nws-ignore: {WS010: x}\n---\nBody.\n");
  check_build(repo, {"--format", "github"}, 1,
        "::warning file=prompts/PRold02.md,line=4,col=32,endLine=4,endColumn=45,title=WS022::suppression of 'WS006' suppresses nothing: no WS006 is reported in this file; remove it\n"
        "::error file=prompts/PRold03.md,line=3,col=12,endLine=3,endColumn=21,title=WS023::front matter 'ws-ignore' must be a string or a list of strings, as 'WS014: reason'\n"
        "1 error, 1 warning in 2 files (3 files changed)\n");
}

namespace {

const std::string kJunitSchema = WS_SOURCE_DIR "/tests/junit/junit.xsd";

// xmllint's verdict on `xml` against tests/junit/junit.xsd: "" when valid.
std::string junit_schema_errors(const TempRepo& repo, const std::string& xml) {
  std::string path = repo.path() + "/../report.xml";
  std::ofstream(path, std::ios::binary) << xml;
  auto v = wstest::run({"/usr/bin/xmllint", "--noout", "--schema", kJunitSchema, path});
  return v.status == 0 ? "" : v.err + v.out;
}

}  // namespace

TEST_CASE("junit: one test case per checked definition, failures carrying the diagnostics", "[junit]") {
  REQUIRE(std::filesystem::exists("/usr/bin/xmllint"));  // libxml2-utils, installed by ./dev
  TempRepo repo;
  seed(repo, "");
  repo.write("agents/AGintake01.json", "{\n  \"name\": \"Intake\"\n}\n");
  repo.write("ai-tools/TLprobe01.cs", kShadowAndMissing);
  repo.write("ai-tools/TLwarn01.cs", "// name: Warn\nvar Agents = 1;\n");
  auto r = ws("ws-build", {"--format", "junit"}, repo.path());
  CHECK(r.err == "");
  CHECK(r.out ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"ws-build\" tests=\"3\" failures=\"1\" errors=\"0\" time=\"0\">\n"
        "  <testsuite name=\"ws-build\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
        "    <testcase name=\"agents/AGintake01.json\" classname=\"ws-build\" file=\"agents/AGintake01.json\" time=\"0\"/>\n"
        "    <testcase name=\"ai-tools/TLprobe01.cs\" classname=\"ws-build\" file=\"ai-tools/TLprobe01.cs\" time=\"0\">\n"
        "      <failure type=\"WS011\" message=\"node type 'Ticket' has no field 'Nope'\">ai-tools/TLprobe01.cs:4:14: error[WS011]: node type 'Ticket' has no field 'Nope'\n"
        "  note: did you mean 'Type'?\n"
        "</failure>\n"
        "      <system-out>ai-tools/TLprobe01.cs:3:5: warning[WS014]: local 'Agents' shadows the symbol root Agents: where it is in scope 'Agents' is the local, so Agents.&lt;name&gt; is not a reference there; rename the local\n"
        "</system-out>\n"
        "    </testcase>\n"
        "    <testcase name=\"ai-tools/TLwarn01.cs\" classname=\"ws-build\" file=\"ai-tools/TLwarn01.cs\" time=\"0\">\n"
        "      <system-out>ai-tools/TLwarn01.cs:2:5: warning[WS014]: local 'Agents' shadows the symbol root Agents: where it is in scope 'Agents' is the local, so Agents.&lt;name&gt; is not a reference there; rename the local\n"
        "</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
  CHECK(r.status == 1);
  CHECK(junit_schema_errors(repo, r.out) == "");

  // --werror fails a test case on a warning too, as it fails the build.
  repo.remove("ai-tools/TLprobe01.cs");
  auto w = ws("ws-build", {"--format", "junit", "--werror"}, repo.path());
  CHECK(w.out.find("<testsuites name=\"ws-build\" tests=\"2\" failures=\"1\"") != std::string::npos);
  CHECK(w.out.find("<failure type=\"WS014\" message=\"local 'Agents' shadows the symbol root Agents: where it "
                   "is in scope 'Agents' is the local, so Agents.&lt;name&gt; is not a reference there; rename the "
                   "local\">ai-tools/TLwarn01.cs:2:5: warning[WS014]:") != std::string::npos);
  CHECK(w.status == 1);
  CHECK(junit_schema_errors(repo, w.out) == "");
}

TEST_CASE("junit: control characters, stray bytes and markup from the workspace stay valid XML", "[junit]") {
  REQUIRE(std::filesystem::exists("/usr/bin/xmllint"));
  TempRepo repo;
  seed(repo, "");
  // A file name with an escape sequence, markup and quotes (refused by the
  // path policy, which quotes it), and a reference whose JSON escapes decode
  // to ESC, a form feed, U+FFFE and "]]>" (quoted by WS010's message).
  repo.write("agents/AG\x1b[2J<&\"'>.json", "{\"name\": \"X\"}\n");
  repo.write("agents/AGodd01.json", "{\n  \"name\": \"Odd\",\n  \"tools\": [\"B\\u001b[2J\\u000c\\ufffe]]>\"]\n}\n");
  auto r = ws("ws-build", {"--format", "junit"}, repo.path());
  CHECK(r.err == "");
  CHECK(r.status == 1);
  CHECK(junit_schema_errors(repo, r.out) == "");
  for (unsigned char c : r.out) CHECK((c >= 0x20 || c == '\n'));
  CHECK(r.out.find("\xef\xbf\xbe") == std::string::npos);
  CHECK(r.out.find("<testcase name=\"agents/AG\\x1b[2J&lt;&amp;&quot;'&gt;.json\" classname=\"ws-build\" "
                   "file=\"agents/AG\\x1b[2J&lt;&amp;&quot;'&gt;.json\" time=\"0\">") != std::string::npos);
  CHECK(r.out.find("<failure type=\"WS010\" message=\"unresolved reference to AI tool "
                   "'B\\x1b[2J\\x0c\\ufffe]]&gt;'\">") != std::string::npos);
}
