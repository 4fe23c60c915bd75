// ws-grep end to end: real repositories, the real binary, exact output, and
// ripgrep itself as the judge of the plain-text format.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/rg_parity.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::rg;
using wstest::without_dot_slash;
using wstest::ws_grep;
using wstest::TempRepo;
using namespace std::string_literals;

namespace {

// rg --sort path orders paths component by component ("a/x" before "a-b");
// ws-grep uses git's bytewise order of whole paths ("a-b" < "a.json" <
// "a/x"). Reorders rg's files, keeping each file's lines as they are.
std::string in_git_order(const std::string& out) {
  std::vector<std::pair<std::string, std::string>> files;  // path, its lines
  for (const auto& l : lines(out)) {
    std::string path = l.substr(0, l.find(':'));
    if (files.empty() || files.back().first != path) files.emplace_back(path, "");
    files.back().second += l + "\n";
  }
  std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string sorted;
  for (const auto& f : files) sorted += f.second;
  return sorted;
}

void seed_example(const TempRepo& repo) {
  wstest::commit_example_workspace(repo, "support desk");
}

const char* kProbe =
    "// name: Probe\n"
    "// description: calls Agents.Triage\n"
    "var s = \"Agents.Triage\";  // Agents.Triage again\n"
    "var r = await Agents.Triage.Run(s);\n";

}  // namespace

TEST_CASE("ws-grep prints path:line:text sorted by path, exit 0 on a match, 1 on none", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  auto r = ws_grep(repo, {"Billing"});
  CHECK(r.err == "");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "access/grants/GTsupport01.json:5:  \"agents\": [\"Triage\", \"Billing\"]\n"
        "agents/AGbilling01.json:2:  \"name\": \"Billing\",\n"
        "agents/AGbilling01.json:4:  \"prompt\": \"BillingInstructions\",\n"
        "agents/AGtriage01.json:8:  \"handoffs\": [\"Billing\"]\n"
        "ai-tools/TLroute01.cs:8:    return await Agents.Billing.Handoff(ticket);\n"
        "prompts/PRbilling01.md:2:name: BillingInstructions\n");
  auto none = ws_grep(repo, {"NoSuchWordAnywhere"});
  CHECK(none.status == 1);
  CHECK(none.out == "");
  CHECK(none.err == "");
}

TEST_CASE("ws-grep output equals rg --no-heading -n on a multi-file corpus", "[ws-grep]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  // Generated files: varied words, CRLF lines, no final newline, UTF-8, long lines.
  const char* words[] = {"Ticket", "ticket_id", "xTicket", "TICKET", "foo-bar", "foo_bar", "Größe",
                         "Agents.Triage", "alpha", "beta", "  ", "route", "e-mail", "tick"};
  for (int f = 0; f < 40; ++f) {
    std::string body;
    int n = 5 + f % 23;
    for (int l = 0; l < n; ++l) {
      for (int w = 0; w < 1 + (f * 7 + l * 3) % 9; ++w) body += std::string(words[(f + l * 5 + w * 3) % 14]) + " ";
      if (l % 11 == 10) body += std::string(3000, 'z');
      body += (f % 6 == 5) ? "\r\n" : "\n";
    }
    if (f % 4 == 3) body.pop_back();  // no final newline
    repo.write("gen/d" + std::to_string(f % 5) + "/f" + std::to_string(10 + f) + ".txt", body);
  }
  repo.commit_all("corpus");
  std::vector<std::vector<std::string>> cases = {
      {"Ticket"},        {"-i", "ticket"},     {"-w", "Ticket"}, {"-c", "Ticket"},   {"-l", "tick"},
      {"-o", "T\\w+t"},  {"-C", "1", "route"}, {"--column", "foo.bar"}, {"-v", "e"}, {"-e", "alpha", "-e", "beta", "-o"},
      {"-F", "Agents.Triage"}, {"-i", "-w", "größe"}, {"-A", "2", "-B", "1", "Triage"}, {"-c", "-o", "a"},
      {"-N", "xTicket"}, {"-m", "2", "Ticket"},
  };
  for (const auto& args : cases) {
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    INFO("args: " << shown);
    auto mine = ws_grep(repo, args);
    auto theirs = rg(repo, args);
    REQUIRE(theirs.status == 0);
    CHECK(mine.err == "");
    CHECK(mine.status == theirs.status);
    CHECK(mine.out == without_dot_slash(theirs.out));
    // The committed tree, read from the object database, gives the same bytes.
    std::vector<std::string> based = args;
    based.push_back("--base");
    CHECK(ws_grep(repo, based).out == mine.out);
  }
}

TEST_CASE("ws-grep searches the working-tree view by default and the committed base with --base", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  std::string first = wstest::chomp(repo.git({"rev-parse", "HEAD"}));
  repo.write("skills/SKsummarize01.md", "---\nname: Summarize\n---\nWrite three lines, then UNCOMMITTED-EDIT.\n");
  auto edit = ws_grep(repo, {"UNCOMMITTED-EDIT"});
  CHECK(edit.status == 0);
  CHECK(edit.out == "skills/SKsummarize01.md:4:Write three lines, then UNCOMMITTED-EDIT.\n");
  // --base, however written, reads HEAD's tree: the edit is not there.
  for (auto args : std::vector<std::vector<std::string>>{{"UNCOMMITTED-EDIT", "--base"},
                                                          {"--base=HEAD", "UNCOMMITTED-EDIT"},
                                                          {"--base", "--", "UNCOMMITTED-EDIT"}}) {
    auto base = ws_grep(repo, args);
    CHECK(base.status == 1);
    CHECK(base.out == "");
    CHECK(base.err == "");
  }
  CHECK(ws_grep(repo, {"three lines", "--base"}).out ==
        "skills/SKsummarize01.md:3:description: Summarise a long ticket thread in three lines\n"
        "skills/SKsummarize01.md:5:Write three lines: what the customer wants, what was tried, what is next.\n");
  // --base REV: an older commit's tree.
  repo.write("tasks/new.json", "{\n  \"name\": \"Later\"\n}\n");
  repo.commit_all("later");
  CHECK(ws_grep(repo, {"Later"}).status == 0);
  CHECK(ws_grep(repo, {"--base=" + first, "Later"}).status == 1);
  CHECK(ws_grep(repo, {"--base=" + first, "MorningDigest"}).out == "tasks/TKdigest01.json:2:  \"name\": \"MorningDigest\",\n");
  // A bare --base never takes the next argument: it is the PATTERN, searched in HEAD.
  auto not_swallowed = ws_grep(repo, {"--base", "MorningDigest"});
  CHECK(not_swallowed.status == 0);
  CHECK(not_swallowed.err == "");
  CHECK(not_swallowed.out == "tasks/TKdigest01.json:2:  \"name\": \"MorningDigest\",\n");
  auto mixed = ws_grep(repo, {"--base", "--staged", "x"});
  CHECK(mixed.status == 2);
  CHECK(mixed.err == "ws-grep: --base searches the committed base only; drop --staged, --rev or --proposal\n");
}

TEST_CASE("ws-grep skips files deleted in the view and finds added ones", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  repo.remove("agents/AGbilling01.json");  // its only 'Answers invoice'
  repo.write("agents/new.json", "{\n  \"name\": \"Fresh\"\n}\n");  // untracked
  auto gone = ws_grep(repo, {"Answers invoice"});
  CHECK(gone.status == 1);
  CHECK(gone.out == "");
  CHECK(ws_grep(repo, {"Answers invoice", "--base"}).status == 0);
  auto added = ws_grep(repo, {"Fresh"});
  CHECK(added.status == 0);
  CHECK(added.out == "agents/new.json:2:  \"name\": \"Fresh\"\n");
}

TEST_CASE("ws-grep --staged searches the index, --rev a revision, --proposal a proposal", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("tasks/a.json", "{\n  \"name\": \"ZqStaged\"\n}\n");
  repo.git({"add", "tasks/a.json"});
  repo.write("tasks/a.json", "{\n  \"name\": \"ZqWorking\"\n}\n");
  CHECK(ws_grep(repo, {"--staged", "Zq"}).out == "tasks/a.json:2:  \"name\": \"ZqStaged\"\n");
  CHECK(ws_grep(repo, {"Zq"}).out == "tasks/a.json:2:  \"name\": \"ZqWorking\"\n");
  // A commit on a side branch, as --rev and as a proposal (its parent is the base).
  repo.git({"stash", "-u", "-q"});
  repo.git({"checkout", "-q", "-b", "side"});
  repo.write("tasks/b.json", "{\n  \"name\": \"ZqSide\"\n}\n");
  std::string side = repo.commit_all("side");
  repo.git({"checkout", "-q", "main"});
  CHECK(ws_grep(repo, {"Zq"}).status == 1);
  CHECK(ws_grep(repo, {"--rev", side, "Zq"}).out == "tasks/b.json:2:  \"name\": \"ZqSide\"\n");
  CHECK(ws_grep(repo, {"--proposal", side, "Zq"}).out == "tasks/b.json:2:  \"name\": \"ZqSide\"\n");
  auto bad = ws_grep(repo, {"--rev", "no-such-rev", "Zq"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ws-grep: unknown revision 'no-such-rev'", 0) == 0);
}

TEST_CASE("ws-grep --in code does not match the word in a comment or a string", "[ws-grep]") {
  TempRepo repo;
  repo.write("endpoints/probe.cs", kProbe);
  repo.commit_all("probe");
  CHECK(ws_grep(repo, {"Agents.Triage"}).out ==
        "endpoints/probe.cs:2:// description: calls Agents.Triage\n"
        "endpoints/probe.cs:3:var s = \"Agents.Triage\";  // Agents.Triage again\n"
        "endpoints/probe.cs:4:var r = await Agents.Triage.Run(s);\n");
  auto code = ws_grep(repo, {"--in", "code", "Agents.Triage"});
  CHECK(code.status == 0);
  CHECK(code.out == "endpoints/probe.cs:4:var r = await Agents.Triage.Run(s);\n");
  CHECK(ws_grep(repo, {"--in", "comment", "-o", "--column", "Agents.Triage"}).out ==
        "endpoints/probe.cs:2:23:Agents.Triage\nendpoints/probe.cs:3:30:Agents.Triage\n");
  CHECK(ws_grep(repo, {"--in", "string", "-o", "--column", "Agents.Triage"}).out ==
        "endpoints/probe.cs:3:10:Agents.Triage\n");
  CHECK(ws_grep(repo, {"--in", "code", "calls"}).status == 1);
  auto bad = ws_grep(repo, {"--in", "prose", "x"});
  CHECK(bad.status == 2);
}

TEST_CASE("ws-grep --in key and value look inside JSON structure", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  CHECK(ws_grep(repo, {"--in", "value", "-o", "Customer", "node-types"}).out ==
        "node-types/NTcustomer01.json:2:Customer\nnode-types/NTticket01.json:7:Customer\n");
  CHECK(ws_grep(repo, {"--in", "key", "-c", "name", "node-types"}).out ==
        "node-types/NTcustomer01.json:3\nnode-types/NTticket01.json:5\n");
}

TEST_CASE("ws-grep --ref finds references in C# and JSON, not look-alikes in strings", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("endpoints/probe.cs", kProbe);
  repo.write("tasks/lookalike.json", "{\n  \"name\": \"Agents.Triage\",\n  \"endpoint\": \"TriageTicket\",\n  \"cron\": \"0 8 * * *\"\n}\n");
  auto r = ws_grep(repo, {"--ref", "Agents.Triage"});
  CHECK(r.err == "");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "access/grants/GTsupport01.json:5:15:  \"agents\": [\"Triage\", \"Billing\"]\n"
        "endpoints/EPtriage01.cs:6:20:var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);\n"
        "endpoints/probe.cs:4:15:var r = await Agents.Triage.Run(s);\n");
  CHECK(ws_grep(repo, {"--ref", "N.Ticket.Status"}).out ==
        "ai-tools/TLroute01.cs:4:12:ticket.Set(N.Ticket.Status, \"routed\");\n"
        "indexes/IXopen01.json:4:15:  \"fields\": [\"Status\", \"OpenedAt\"]\n");
  CHECK(ws_grep(repo, {"--ref", "Prompts.Tone"}).out ==
        "prompts/PRbilling01.md:3:12:includes: [Tone]\nprompts/PRtriage01.md:5:5:  - Tone\n");
  // Positional arguments are pathspecs with --ref; -e filters the lines.
  CHECK(ws_grep(repo, {"--ref", "Agents.Triage", "endpoints"}).out ==
        "endpoints/EPtriage01.cs:6:20:var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);\n"
        "endpoints/probe.cs:4:15:var r = await Agents.Triage.Run(s);\n");
  CHECK(ws_grep(repo, {"--ref", "Agents.Triage", "-e", "result"}).out ==
        "endpoints/EPtriage01.cs:6:20:var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);\n");
  CHECK(ws_grep(repo, {"--ref", "Agents.Triage", "-l"}).out ==
        "access/grants/GTsupport01.json\nendpoints/EPtriage01.cs\nendpoints/probe.cs\n");
  CHECK(ws_grep(repo, {"--ref", "Agents.Nobody"}).status == 1);
  auto bad = ws_grep(repo, {"--ref", "Agnts.Triage"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ws-grep: invalid symbol 'Agnts.Triage': unknown root 'Agnts'; known roots: ", 0) == 0);
}

TEST_CASE("ws-grep --defines points at the name of the definition", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  CHECK(ws_grep(repo, {"--defines", "Agents.Triage"}).out == "agents/AGtriage01.json:2:12:  \"name\": \"Triage\",\n");
  CHECK(ws_grep(repo, {"--defines", "N.Ticket.Status"}).out ==
        "node-types/NTticket01.json:6:16:    { \"name\": \"Status\", \"type\": \"string\" },\n");
  CHECK(ws_grep(repo, {"--defines", "Prompts.Tone"}).out == "prompts/PRtone01.md:2:7:name: Tone\n");
  CHECK(ws_grep(repo, {"--defines", "Agents.Nobody"}).status == 1);
  auto both = ws_grep(repo, {"--defines", "Agents.Triage", "--ref", "Agents.Triage"});
  CHECK(both.status == 2);
  CHECK(both.err == "ws-grep: --ref and --defines are exclusive: pick one\n");
}

TEST_CASE("ws-grep runs a pathological pattern in linear time", "[ws-grep]") {
  TempRepo repo;
  repo.write("prompts/long.md", "---\nname: Long\n---\n" + std::string(100000, 'a') + "\n");
  repo.commit_all("long");
  auto r = ws_grep(repo, {"(a*)*b"});
  CHECK_FALSE(r.timed_out);
  CHECK(r.status == 1);
  CHECK(r.out == "");
  auto c = ws_grep(repo, {"-c", "(a|aa)*$"});
  CHECK_FALSE(c.timed_out);
  CHECK(c.status == 0);
  CHECK(c.out == "prompts/long.md:4\n");
}

TEST_CASE("ws-grep reports an invalid pattern in one line and exits 2", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  auto r = ws_grep(repo, {"(a"});
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK(r.err == "ws-grep: invalid pattern '(a': missing ): (a\n");
  auto e = ws_grep(repo, {"-e", "ok", "-e", "x{2,1}"});
  CHECK(e.status == 2);
  CHECK(e.err == "ws-grep: invalid pattern 'x{2,1}': invalid repetition size: {2,1}\n");
  auto missing = ws_grep(repo, {});
  CHECK(missing.status == 2);
  CHECK(missing.err == "ws-grep: missing PATTERN; see 'ws-grep --help'\n");
}

TEST_CASE("ws-grep never shows secret content", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  repo.write(".secrets/X", "canary-5a1e canary-5a1e\n");
  repo.commit_all("secret");
  repo.write(".secrets/Y", "canary-5a1e untracked\n");
  for (auto args : std::vector<std::vector<std::string>>{{"canary"}, {"-l", "canary"}, {"--json", "canary"},
                                                          {"-c", "canary"}, {"canary", ".secrets"},
                                                          {"canary", "--base"}, {"-v", "zzz"}, {"-i", "CANARY"}}) {
    auto r = ws_grep(repo, args);
    CHECK(r.out.find("canary") == std::string::npos);
    CHECK(r.out.find(".secrets") == std::string::npos);
    CHECK(r.err.find("canary") == std::string::npos);
  }
  CHECK(ws_grep(repo, {"canary"}).status == 1);
  auto kind = ws_grep(repo, {"--kind", "secret", "canary"});
  CHECK(kind.status == 2);
  CHECK(kind.err == "ws-grep: kind 'secret' is never searched: its content is never opened\n");
  // A reference to a secret is code: that is found; the secret itself is not.
  CHECK(ws_grep(repo, {"--ref", "Secrets.SupportMailbox"}).out ==
        "endpoints/EPtriage01.cs:7:19:await Mail.Notify(Secrets.SupportMailbox, ticket);\n");
}

TEST_CASE("ws-grep never follows a symlink and skips binary files, noted under --stats", "[ws-grep]") {
  TempRepo repo;
  repo.write("outside.txt", "canary-link\n");
  repo.write("agents/a.json", "{\n  \"name\": \"A\"\n}\n");
  repo.write("agents/blob.json", "canary-bin\0\n"s);
  std::filesystem::create_symlink("../outside.txt", repo.abs("agents/link.json"));
  repo.commit_all("links");
  for (auto base : {false, true}) {
    std::vector<std::vector<std::string>> args = {{"canary", "agents"}, {"--stats", "canary", "agents"}};
    if (base) for (auto& a : args) a.push_back("--base");
    auto r = ws_grep(repo, args[0]);
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(r.err == "");
    auto s = ws_grep(repo, args[1]);
    CHECK(s.status == 1);
    CHECK(s.out == "");
    CHECK(s.err ==
          "ws-grep: 0 results in 0 files; 1 file searched\n"
          "ws-grep: skipped binary file 'agents/blob.json'\n"
          "ws-grep: skipped 'agents/link.json': links and submodules are never followed\n");
  }
  CHECK(ws_grep(repo, {"canary"}).out == "outside.txt:1:canary-link\n");
}

TEST_CASE("ws-grep -l, -c, -o, -v, -m, -z, -N, -F, -e and --column", "[ws-grep]") {
  TempRepo repo;
  repo.write("a.txt", "one a.b\ntwo axb\nthree a.b a.b\n");
  repo.write("b.txt", "four\nfive a.b\n");
  repo.commit_all("text");
  CHECK(ws_grep(repo, {"-l", "axb"}).out == "a.txt\n");
  CHECK(ws_grep(repo, {"-c", "a.b"}).out == "a.txt:3\nb.txt:1\n");
  CHECK(ws_grep(repo, {"-c", "-F", "a.b"}).out == "a.txt:2\nb.txt:1\n");
  CHECK(ws_grep(repo, {"-c", "-o", "-F", "a.b"}).out == "a.txt:3\nb.txt:1\n");
  CHECK(ws_grep(repo, {"-o", "--column", "-F", "a.b"}).out == "a.txt:1:5:a.b\na.txt:3:7:a.b\na.txt:3:11:a.b\nb.txt:2:6:a.b\n");
  CHECK(ws_grep(repo, {"-v", "a.b"}).out == "b.txt:1:four\n");
  CHECK(ws_grep(repo, {"-m", "1", "a.b"}).out == "a.txt:1:one a.b\nb.txt:2:five a.b\n");
  CHECK(ws_grep(repo, {"-z", "-l", "a"}).out == "a.txt\0b.txt\0"s);
  CHECK(ws_grep(repo, {"-z", "-c", "four"}).out == "b.txt\0" "1\n"s);
  CHECK(ws_grep(repo, {"-z", "four"}).out == "b.txt\0" "1:four\n"s);
  CHECK(ws_grep(repo, {"-N", "four"}).out == "b.txt:four\n");
  CHECK(ws_grep(repo, {"-n", "four"}).out == "b.txt:1:four\n");
  auto counts = lines(ws_grep(repo, {"--json", "-c", "a.b"}).out);
  REQUIRE(counts.size() == 3);
  CHECK(nlohmann::json::parse(counts[0]) ==
        nlohmann::json{{"type", "file"}, {"version", 1}, {"path", "a.txt"}, {"kind", "none"}, {"name", nullptr}, {"count", 3}});
  CHECK(ws_grep(repo, {"-e", "one", "-e", "four"}).out == "a.txt:1:one a.b\nb.txt:1:four\n");
  CHECK(ws_grep(repo, {"-e", "one", "b.txt"}).status == 1);  // with -e, the positional is a pathspec
  CHECK(ws_grep(repo, {"--column", "two"}).out == "a.txt:2:1:two axb\n");
  CHECK(ws_grep(repo, {"-i", "-w", "FOUR"}).out == "b.txt:1:four\n");
  CHECK(ws_grep(repo, {"-w", "fou"}).status == 1);
}

TEST_CASE("ws-grep -A, -B and -C print rg's context lines and separators", "[ws-grep]") {
  TempRepo repo;
  repo.write("a.txt", "1\nfoo 2\n3\n4\n5\n6\nfoo 7\n8\n");
  repo.write("b.txt", "foo\n");
  repo.commit_all("text");
  CHECK(ws_grep(repo, {"-C", "1", "foo"}).out ==
        "a.txt-1-1\na.txt:2:foo 2\na.txt-3-3\n--\na.txt-6-6\na.txt:7:foo 7\na.txt-8-8\n--\nb.txt:1:foo\n");
  CHECK(ws_grep(repo, {"-A", "1", "foo", "a.txt"}).out == "a.txt:2:foo 2\na.txt-3-3\n--\na.txt:7:foo 7\na.txt-8-8\n");
  CHECK(ws_grep(repo, {"-B", "2", "foo", "a.txt"}).out ==
        "a.txt-1-1\na.txt:2:foo 2\n--\na.txt-5-5\na.txt-6-6\na.txt:7:foo 7\n");
  CHECK(ws_grep(repo, {"-z", "-A", "1", "7"}).out == "a.txt\0" "7:foo 7\na.txt\0" "8-8\n"s);
}

TEST_CASE("ws-grep --max caps the output with an explicit Grep-Truncated record", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  auto r = ws_grep(repo, {"--max", "2", "Billing"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "access/grants/GTsupport01.json:5:  \"agents\": [\"Triage\", \"Billing\"]\n"
        "agents/AGbilling01.json:2:  \"name\": \"Billing\",\n"
        "Grep-Truncated: 4 more results (raise --max)\n");
  CHECK(ws_grep(repo, {"--max", "3", "-l", "Billing"}).out ==
        "access/grants/GTsupport01.json\nagents/AGbilling01.json\nagents/AGtriage01.json\n"
        "Grep-Truncated: 2 more results (raise --max)\n");
  auto j = ws_grep(repo, {"--max", "1", "--json", "Billing"});
  auto ls = lines(j.out);
  REQUIRE(ls.size() == 3);
  auto t = nlohmann::json::parse(ls[1]);
  CHECK(t["type"] == "Grep-Truncated");
  CHECK(t["omitted"] == 5);
  CHECK(t["max"] == 1);
  CHECK(nlohmann::json::parse(ls[2])["type"] == "summary");
}

TEST_CASE("ws-grep --json writes one record per match with kind, name and offsets", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  auto r = ws_grep(repo, {"--json", "Handoff"});
  CHECK(r.status == 0);
  auto ls = lines(r.out);
  REQUIRE(ls.size() == 2);
  auto m = nlohmann::json::parse(ls[0]);
  CHECK(m["type"] == "match");
  CHECK(m["path"] == "ai-tools/TLroute01.cs");
  CHECK(m["kind"] == "ai-tool");
  CHECK(m["name"] == "RouteTicket");
  CHECK(m["line"] == 8);
  CHECK(m["column"] == 33);
  std::string bytes = repo.read("ai-tools/TLroute01.cs");
  CHECK(bytes.substr(m["start"].get<std::size_t>(), m["end"].get<std::size_t>() - m["start"].get<std::size_t>()) ==
        "Handoff");
  CHECK(m["text"] == "    return await Agents.Billing.Handoff(ticket);");
  CHECK(m["match"] == "Handoff");
  auto s = nlohmann::json::parse(ls[1]);
  CHECK(s["type"] == "summary");
  CHECK(s["files_matched"] == 1);
  CHECK(s["results"] == 1);
  auto refs = lines(ws_grep(repo, {"--json", "--ref", "Agents.Billing"}).out);
  REQUIRE(refs.size() == 4);
  auto first = nlohmann::json::parse(refs[0]);
  CHECK(first["symbol"] == "Agents.Billing");
  CHECK(first["kind"] == "access-grant");
  CHECK(first["match"] == "Billing");
}

TEST_CASE("ws-grep --kind, pathspecs and unmatched pathspecs", "[ws-grep]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("notes.txt", "Triage notes\n");
  CHECK(ws_grep(repo, {"-l", "--kind", "agent", "--kind", "prompt", "Triage"}).out ==
        "agents/AGtriage01.json\nprompts/PRtriage01.md\n");
  CHECK(ws_grep(repo, {"-l", "Triage", "notes.txt", "endpoints/*.cs"}).out ==
        "endpoints/EPtriage01.cs\nnotes.txt\n");
  auto none = ws_grep(repo, {"Triage", "nowhere"});
  CHECK(none.status == 2);
  CHECK(none.err == "ws-grep: pathspec 'nowhere' did not match any file\n");
  auto bad = ws_grep(repo, {"--kind", "agnet", "x"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ws-grep: unknown kind 'agnet'; known kinds: ", 0) == 0);
}

TEST_CASE("ws-grep colours like rg on request and never by default in a pipe", "[ws-grep]") {
  TempRepo repo;
  repo.write("a.txt", "a foo b\n");
  repo.commit_all("text");
  CHECK(ws_grep(repo, {"--color", "always", "foo"}).out ==
        "\x1b[0m\x1b[35ma.txt\x1b[0m:\x1b[0m\x1b[32m1\x1b[0m:a \x1b[0m\x1b[1m\x1b[31mfoo\x1b[0m b\n");
  CHECK(ws_grep(repo, {"foo"}).out == "a.txt:1:a foo b\n");
  wstest::RunOptions no_color;
  no_color.env["NO_COLOR"] = "1";
  CHECK(ws_grep(repo, {"foo"}, no_color).out == "a.txt:1:a foo b\n");
}

TEST_CASE("ws-grep --directory runs elsewhere, --version, --help documents --base", "[ws-grep]") {
  TempRepo repo;
  repo.write("a.txt", "foo\n");
  repo.commit_all("text");
  wstest::TempDir other;
  auto r = wstest::ws("ws-grep", {"--directory", repo.path(), "foo"}, other.path());
  CHECK(r.status == 0);
  CHECK(r.out == "a.txt:1:foo\n");
  auto version = ws_grep(repo, {"--version"});
  CHECK(version.status == 0);
  CHECK(version.out.rfind("ws-grep ", 0) == 0);
  auto help = ws_grep(repo, {"--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("--base [=REV]") != std::string::npos);
  CHECK(help.out.find("search the committed base only") != std::string::npos);
}

TEST_CASE("ws-grep walks a wide tree in path order with few open files", "[ws-grep]") {
  // Regression: the walk used to hold every pending directory open, so a
  // folder with more sub-folders than the open-file limit lost files
  // silently; and names like "a.json", "a/x", "a0" must come out in
  // bytewise path order, as rg --sort path prints them.
  TempRepo repo;
  for (int i = 0; i < 300; ++i) repo.write("notes/d" + std::to_string(1000 + i) + "/x.txt", "needle\n");
  for (const char* p : {"mix/a.json", "mix/a/x.txt", "mix/a0", "mix/a-b", "mix/b/c/d.txt", "mix/B"})
    repo.write(p, "needle\n");
  repo.commit_all("base");
  repo.write("mix/a/untracked.txt", "needle\n");
  auto expect = rg(repo, {"needle"});
  REQUIRE(expect.status == 0);
  REQUIRE(lines(expect.out).size() == 307);
  wstest::RunOptions o;
  o.cwd = repo.path();
  auto r = wstest::run({"prlimit", "--nofile=64", "--", wstest::tool("ws-grep"), "needle"}, o);
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out == in_git_order(without_dot_slash(expect.out)));
}

TEST_CASE("ws-grep reads index versions 2 to 4 and refuses a split index in one line", "[ws-grep]") {
  TempRepo repo;
  repo.write(".gitignore", "*.log\n");
  repo.write("agents/AGa.json", "{\"name\": \"needle\"}\n");
  repo.write("notes/n.txt", "needle\n");
  repo.write("notes/sub/m.txt", "needle\n");
  repo.commit_all("base");
  repo.write("notes/new.txt", "needle\n");     // untracked: searched
  repo.write("notes/skip.log", "needle\n");    // ignored: not searched
  repo.write("notes/force.log", "needle\n");
  repo.git({"add", "-f", "notes/force.log"});  // ignored but tracked: searched
  const std::string expected =
      "agents/AGa.json:1:{\"name\": \"needle\"}\nnotes/force.log:1:needle\nnotes/n.txt:1:needle\n"
      "notes/new.txt:1:needle\nnotes/sub/m.txt:1:needle\n";
  for (std::vector<std::string> setup : {std::vector<std::string>{"update-index", "--index-version", "2"},
                                         {"update-index", "--index-version", "4"},
                                         {"update-index", "--split-index"},
                                         {"update-index", "--no-split-index"}}) {
    INFO(setup.back());
    repo.git(setup);
    auto r = ws_grep(repo, {"needle"});
    if (setup.back() == "--split-index") {
      // libgit2, which reads what our own index reader leaves, has no split
      // index support: a clear refusal, not a wrong answer.
      CHECK(r.status == 2);
      CHECK(r.err == "ws-grep: cannot read the index: unsupported mandatory extension: 'link'\n");
      CHECK(r.out == "");
      continue;
    }
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(r.out == expected);
  }
}

TEST_CASE("ws-grep --json calls a file's kind what ws-ls calls it", "[ws-grep][ls-label]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("README.md", "# refund desk\n");
  repo.write("docs/notes.md", "refund\n");
  repo.write(".ws/config.json", "{\"ignore\": [\"scripts/\"]}\n");
  repo.write("scripts/x.sh", "echo refund\n");
  repo.write("agents/notes.txt", "refund\n");
  repo.commit_all("other files");
  auto r = ws_grep(repo, {"--json", "-l", "refund", "README.md", "docs", "scripts", "agents/notes.txt", "agents/AGbilling01.json"});
  CHECK(r.status == 0);
  std::vector<std::string> kinds;
  for (const auto& l : lines(r.out)) {
    auto j = nlohmann::json::parse(l);
    if (j["type"] == "file") kinds.push_back(j["path"].get<std::string>() + " " + j["kind"].get<std::string>());
  }
  CHECK(kinds == std::vector<std::string>{"README.md none", "agents/AGbilling01.json agent",
                                          "agents/notes.txt unrouted", "docs/notes.md none", "scripts/x.sh none"});
  auto ls = wstest::ws("ws-ls", {"-l", "README.md", "docs", "scripts", "agents/notes.txt"}, repo.path());
  CHECK(ls.out ==
        "- none     - README.md\n- unrouted - agents/notes.txt\n- none     - docs/notes.md\n- none     - scripts/x.sh\n");
}
