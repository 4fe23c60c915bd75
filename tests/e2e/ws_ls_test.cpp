// ws-ls end to end: real git repositories, the real binary, exact output.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::TempRepo;
using wstest::ws;

namespace {

const char* kAgentA = "{\n  \"name\": \"Alpha\"\n}\n";
const char* kAgentB = "{\n  \"name\": \"Beta\"\n}\n";
const char* kGroup = "{\n  \"name\": \"Staff\"\n}\n";

// A repository with two agents and a group committed.
void seed(const TempRepo& repo) {
  repo.write("agents/a.json", kAgentA);
  repo.write("agents/b.json", kAgentB);
  repo.write("access/groups/staff.json", kGroup);
  repo.commit_all("seed");
}

// Runs ws-ls with `args` in `dir`: it must succeed and print `out` exactly,
// with nothing on stderr.
void check_ls(const std::string& dir, const std::vector<std::string>& args, const std::string& out) {
  auto r = ws("ws-ls", args, dir);
  CHECK(r.err == "");
  CHECK(r.status == 0);
  CHECK(r.out == out);
}

}  // namespace

TEST_CASE("ws-ls lists a clean repository sorted, one path per line", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  check_ls(repo.path(), {}, "access/groups/staff.json\nagents/a.json\nagents/b.json\n");
}

TEST_CASE("ws-ls -l shows status, kind, name and path for each status", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/a.json", "{\n  \"name\": \"Alpha2\"\n}\n");      // M
  repo.remove("agents/b.json");                                       // D
  repo.write("agents/c.json", "{\n  \"name\": \"Gamma\"\n}\n");       // A (untracked)
  repo.git({"mv", "access/groups/staff.json", "access/groups/people.json"});  // R
  check_ls(repo.path(), {"-l"},
        "R access-group Staff  access/groups/staff.json -> access/groups/people.json\n"
        "M agent        Alpha2 agents/a.json\n"
        "A agent        Gamma  agents/c.json\n");
  check_ls(repo.path(), {"-l", "--changed"},
        "R access-group Staff  access/groups/staff.json -> access/groups/people.json\n"
        "M agent        Alpha2 agents/a.json\n"
        "D agent        Beta   agents/b.json\n"
        "A agent        Gamma  agents/c.json\n");
}

TEST_CASE("ws-ls --staged sees the index, the default sees the working tree", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/c.json", "{\n  \"name\": \"Gamma\"\n}\n");
  repo.git({"add", "agents/c.json"});
  repo.write("agents/d.json", "{\n  \"name\": \"Delta\"\n}\n");  // not staged
  check_ls(repo.path(), {"--changed", "--staged"}, "agents/c.json\n");
  check_ls(repo.path(), {"--changed"}, "agents/c.json\nagents/d.json\n");
}

TEST_CASE("ws-ls --rev compares a revision with the base", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  std::string first = wstest::chomp(repo.git({"rev-parse", "HEAD"}));
  repo.write("agents/c.json", "{\n  \"name\": \"Gamma\"\n}\n");
  repo.remove("agents/a.json");
  std::string second = repo.commit_all("second");
  check_ls(repo.path(), {"-l", "--changed", "--base", first, "--rev", second},
           "D agent Alpha agents/a.json\nA agent Gamma agents/c.json\n");
  // --rev alone is against HEAD: nothing changed.
  check_ls(repo.path(), {"--changed", "--rev", "HEAD"}, "");
  auto bad = ws("ws-ls", {"--rev", "no-such-rev"}, repo.path());
  CHECK(bad.status == 2);
  CHECK(bad.out == "");
  CHECK(bad.err.rfind("ws-ls: unknown revision 'no-such-rev'", 0) == 0);
}

TEST_CASE("ws-ls works in a linked worktree", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  wstest::TempDir other;
  std::string wt = other.path() + "/wt";
  repo.git({"worktree", "add", "-q", "-b", "side", wt});
  std::ofstream(wt + "/agents/e.json") << "{\n  \"name\": \"Epsilon\"\n}\n";
  check_ls(wt, {"-l", "--changed"}, "A agent Epsilon agents/e.json\n");
  auto main_view = ws("ws-ls", {"--changed"}, repo.path());
  CHECK(main_view.out == "");
}

TEST_CASE("ws-ls works in a repository with no commits yet", "[ws-ls]") {
  TempRepo repo;
  check_ls(repo.path(), {}, "");
  repo.write("agents/a.json", kAgentA);
  check_ls(repo.path(), {"-l"}, "A agent Alpha agents/a.json\n");
}

TEST_CASE("ws-ls --json writes one parseable object per entry", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/a.json", "{\n  \"name\": \"Alpha2\"\n}\n");
  auto r = ws("ws-ls", {"--json", "agents"}, repo.path());
  CHECK(r.status == 0);
  auto ls = lines(r.out);
  REQUIRE(ls.size() == 2);
  auto a = nlohmann::json::parse(ls[0]);
  CHECK(a["type"] == "entry");
  CHECK(a["path"] == "agents/a.json");
  CHECK(a["kind"] == "agent");
  CHECK(a["name"] == "Alpha2");
  CHECK(a["status"] == "modified");
  CHECK(a["size"] == 23);
  CHECK(a["blob"] == wstest::chomp(repo.git({"hash-object", "agents/a.json"})));
  auto b = nlohmann::json::parse(ls[1]);
  CHECK(b["path"] == "agents/b.json");
  CHECK(b["status"] == "unchanged");
  CHECK(b["blob"] == wstest::chomp(repo.git({"rev-parse", "HEAD:agents/b.json"})));
}

TEST_CASE("ws-ls --max ends a capped listing with an explicit truncation record", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  check_ls(repo.path(), {"--max", "2"},
           "access/groups/staff.json\nagents/a.json\nListing-Truncated: 1 more entry (raise --max)\n");
  auto j = ws("ws-ls", {"--max", "1", "--json"}, repo.path());
  auto ls = lines(j.out);
  REQUIRE(ls.size() == 2);
  auto t = nlohmann::json::parse(ls[1]);
  CHECK(t["type"] == "Listing-Truncated");
  CHECK(t["omitted"] == 2);
}

TEST_CASE("ws-ls -z ends paths with NUL and --kind filters", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  check_ls(repo.path(), {"-z", "--kind", "agent"}, std::string("agents/a.json\0agents/b.json\0", 28));
  auto bad = ws("ws-ls", {"--kind", "agnet"}, repo.path());
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ws-ls: unknown kind 'agnet'; known kinds: ", 0) == 0);
}

TEST_CASE("ws-ls never shows secrets unless asked, and then only by name", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  repo.write(".secrets/ApiKey", "canary-7f3a9c\n");
  repo.commit_all("secret");
  auto r = ws("ws-ls", {"-l"}, repo.path());
  CHECK(r.out.find(".secrets") == std::string::npos);
  auto s = ws("ws-ls", {"--json", "--kind", "secret"}, repo.path());
  CHECK(s.status == 0);
  auto ls = lines(s.out);
  REQUIRE(ls.size() == 1);
  auto j = nlohmann::json::parse(ls[0]);
  CHECK(j["path"] == ".secrets/ApiKey");
  CHECK(j["name"] == "ApiKey");
  CHECK(j["blob"].is_null());
  CHECK(j["size"].is_null());
  CHECK(s.out.find("canary") == std::string::npos);
}

TEST_CASE("ws-ls pathspecs: exact paths, directories and globs", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  CHECK(ws("ws-ls", {"agents/"}, repo.path()).out == "agents/a.json\nagents/b.json\n");
  CHECK(ws("ws-ls", {"access"}, repo.path()).out == "access/groups/staff.json\n");
  CHECK(ws("ws-ls", {"*/b.json"}, repo.path()).out == "agents/b.json\n");
  auto none = ws("ws-ls", {"tasks"}, repo.path());
  CHECK(none.status == 2);
  CHECK(none.out == "");
  CHECK(none.err == "ws-ls: pathspec 'tasks' did not match any file\n");
}

TEST_CASE("ws-ls refuses hostile path arguments, naming the path and the rule", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  struct Row { std::string arg, rule; };
  // '..' is resolved as text, as git does: one leading out of the root is
  // refused as such (adopt_test.cpp, "paths: a pathspec out of the root").
  std::vector<Row> rows{{"/etc/passwd", "absolute"},       {"a\\b", "backslash"},
                        {"C:/x", "drive-prefix"},          {"\\\\?\\C:\\x", "unc-prefix"},
                        {".git/config", "git-dir"},        {".GIT/config", "git-dir"},
                        {".git./x", "git-dir"},            {"GIT~1/config", "git-dir"},
                        {"a\x01" "b", "control-char"},     {".secrets/ApiKey", "secret"}};
  for (const auto& row : rows) {
    INFO(row.arg);
    auto r = ws("ws-ls", {row.arg}, repo.path());
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err.find("ws-ls: invalid pathspec: refused path '") == 0);
    CHECK(r.err.find(row.rule) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("ws-ls refuses a symlinked definition in the working tree", "[ws-ls]") {
  TempRepo repo;
  seed(repo);
  std::filesystem::create_symlink("/etc/passwd", repo.abs("agents/evil.json"));
  std::filesystem::create_symlink("a.json", repo.abs("agents/inside.json"));
  auto r = ws("ws-ls", {"-l", "agents"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out == "- agent Alpha agents/a.json\n- agent Beta  agents/b.json\n");
  CHECK(r.err ==
        "ws-ls: refused path 'agents/evil.json': symlink (links are never followed; replace it with the file itself)\n"
        "ws-ls: refused path 'agents/inside.json': symlink (links are never followed; replace it with the file itself)\n");
}

TEST_CASE("ws-ls outside a repository and with bad flags exits 2 with one line", "[ws-ls]") {
  wstest::TempDir dir;
  auto r = ws("ws-ls", {}, dir.path());
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK(r.err.rfind("ws-ls: not a git repository: '.'", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  auto flag = ws("ws-ls", {"--no-such-flag"}, dir.path());
  CHECK(flag.status == 2);
  CHECK(std::count(flag.err.begin(), flag.err.end(), '\n') == 1);
  auto v = ws("ws-ls", {"--version"}, dir.path());
  CHECK(v.status == 0);
  CHECK(v.out.rfind("ws-ls 0.1.0 (tree-sitter@0.25.1, grammars: tree-sitter-c-sharp@0.23.5, tree-sitter-json@0.24.8, "
                    "@tree-sitter-grammars/tree-sitter-yaml@0.7.1)\n", 0) == 0);
  auto h = ws("ws-ls", {"--help"}, dir.path());
  CHECK(h.status == 0);
  CHECK(h.out.find("--changed") != std::string::npos);
}

TEST_CASE("ws-ls labels files that are not definitions 'none', apart from unrouted ones", "[ws-ls][ls-label]") {
  // ws(7), Files that are not definitions: root-level files, top-level
  // dot-folders and docs/ are not definitions and ws-build never reports
  // them; a file under another top-level folder, or in a kind's folder
  // that no kind reads, is what ws-build reports as unrouted.
  TempRepo repo;
  repo.write("agents/a.json", kAgentA);
  repo.write("agents/notes.txt", "not an agent\n");
  repo.write("README.md", "# workspace\n");
  repo.write("LICENSE", "MIT\n");
  repo.write(".gitignore", "*.tmp\n");
  repo.write(".github/workflows/ws.yml", "on: push\n");
  repo.write("docs/guide.md", "how to\n");
  repo.write("scripts/deploy.sh", "#!/bin/sh\n");
  repo.commit_all("a repository with files that are not definitions");
  check_ls(repo.path(), {"-l"},
        "- none     -     .github/workflows/ws.yml\n"
        "- config   -     .gitignore\n"
        "- none     -     LICENSE\n"
        "- none     -     README.md\n"
        "- agent    Alpha agents/a.json\n"
        "- unrouted -     agents/notes.txt\n"
        "- none     -     docs/guide.md\n"
        "- unrouted -     scripts/deploy.sh\n");
  auto j = ws("ws-ls", {"--json"}, repo.path());
  CHECK(j.status == 0);
  std::vector<std::pair<std::string, std::string>> kinds;
  for (const auto& l : lines(j.out)) {
    auto rec = nlohmann::json::parse(l);
    kinds.emplace_back(rec["path"].get<std::string>(), rec["kind"].get<std::string>());
  }
  CHECK(kinds == std::vector<std::pair<std::string, std::string>>{{".github/workflows/ws.yml", "none"},
                                                                  {".gitignore", "config"},
                                                                  {"LICENSE", "none"},
                                                                  {"README.md", "none"},
                                                                  {"agents/a.json", "agent"},
                                                                  {"agents/notes.txt", "unrouted"},
                                                                  {"docs/guide.md", "none"},
                                                                  {"scripts/deploy.sh", "unrouted"}});
  // Plain output lists every file, as git ls-files does.
  auto plain = ws("ws-ls", {}, repo.path());
  CHECK(plain.out == repo.git({"ls-files"}));
}

TEST_CASE("ws-ls refuses each hostile name among many valid files of one folder", "[ws-ls][ls-route]") {
  // Routing is decided once per folder; every file's own name is still
  // checked: a control character, a link, a hard link, a secret's bytes
  // and a name no kind reads, between and after hundreds of valid files.
  TempRepo repo;
  const std::string secret = "hunter2-api-key\n";
  repo.write(".secrets/ApiKey", secret);
  std::string listed;
  for (int i = 0; i < 300; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "agents/AG%03d.json", i);
    repo.write(name, kAgentA);
    if (i != 250) listed += std::string(name) + "\n";
  }
  repo.commit_all("300 agents and a secret");
  repo.write("agents/AG150\x1b[2J.json", kAgentB);
  std::filesystem::create_symlink("AG001.json", repo.abs("agents/AG200ln.json"));
  std::filesystem::create_hard_link(repo.abs("agents/AG250.json"), repo.abs("agents/AG251hl.json"));
  repo.write("agents/AG275sb.json", secret);
  repo.write("agents/AG299.txt", "no kind reads it\n");
  listed += "agents/AG299.txt\n";
  auto r = ws("ws-ls", {"agents"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out == listed);
  const std::string hard = " hard-link (2 links; a file with more than one link may be a link out of the workspace)\n";
  CHECK(r.err ==
        "ws-ls: refused path 'agents/AG150\\x1b[2J.json': control-char (NUL and control characters are not allowed "
        "in names); rename the file\n"
        "ws-ls: refused path 'agents/AG200ln.json': symlink (links are never followed; replace it with the file "
        "itself)\n"
        "ws-ls: refused to read 'agents/AG250.json':" + hard +
        "ws-ls: refused to read 'agents/AG251hl.json':" + hard +
        "ws-ls: refused path 'agents/AG275sb.json': secret (it holds the bytes of a secret, and a secret's content "
        "is never opened or shown under any path); remove the file or give it other content\n");
  CHECK(r.out.find("hunter2") == std::string::npos);
  auto l = ws("ws-ls", {"-l", "agents/AG29*"}, repo.path());
  CHECK(l.status == 0);
  CHECK(l.err == "");
  std::string long_out;
  for (int i = 290; i < 300; ++i) long_out += "- agent    Alpha agents/AG" + std::to_string(i) + ".json\n";
  long_out += "A unrouted -     agents/AG299.txt\n";
  CHECK(l.out == long_out);
}
