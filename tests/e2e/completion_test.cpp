// The bash completion (completions/ws.bash), run by the real bash against the
// built tools, and the option table it reads (--help-options).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "libcheck/kinds.h"
#include "support/process.h"
#include "support/shell_complete.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::lines;
using wstest::sorted_lines;
using wstest::TempRepo;

namespace {

// A workspace with two agents, a branch and a tag.
void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  repo.write("access/groups/staff.json", "{\n  \"name\": \"Staff\"\n}\n");
  repo.commit_all("seed");
  repo.git({"branch", "feature"});
  repo.git({"tag", "v1"});
}

std::string sorted_kind_names() {
  auto pack = ws::KindPack::load(std::string(WS_SOURCE_DIR) + "/schemas/kinds");
  REQUIRE(pack);
  std::vector<std::string> names;
  for (const auto& k : pack->kinds()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

TEST_CASE("option --help-options prints the option table, tab-separated, and exits 0", "[completion]") {
  TempRepo repo;
  auto r = wstest::run({wstest::tool("ws-ls"), "--help-options"}, wstest::shell_env(repo.path()));
  CHECK(r.status == 0);
  CHECK(r.err == "");
  auto table = lines(r.out);
  for (const auto& line : table) {
    INFO(line);
    CHECK(std::count(line.begin(), line.end(), '\t') == 3);
  }
  auto has = [&](const std::string& line) { return std::find(table.begin(), table.end(), line) != table.end(); };
  CHECK(table.at(0) == "-h,--help\t\t\tPrint this help message and exit");
  CHECK(has("-C\tDIR\t\trun as if started in DIR"));
  CHECK(has("--session\tNAME\t\tsession name (default: $WS_SESSION, else 'default')"));
  CHECK(has("--color\tWHEN\tauto,always,never\tcolour output: auto, always or never (honours NO_COLOR)"));
  CHECK(has("--json\t\t\tJSON Lines output: one object per record"));
  CHECK(has("-z\t\t\tend each printed path with NUL instead of newline"));
  CHECK(has("--version\t\t\tprint the version and the grammar versions"));
  CHECK(has("--rev\tREV\t\tpending changes are the tree of REV (for CI)"));
  // A KIND option offers the kinds of the default pack.
  CHECK(r.out.find("\n--kind\tKIND\t" + sorted_kind_names() + "\t") != std::string::npos);
  // A positional argument is named without dashes.
  CHECK(table.back().rfind("pathspec\tPATHSPEC\t\t", 0) == 0);
  // The option itself is hidden.
  CHECK(r.out.find("help-options") == std::string::npos);

  // It wins over anything else on the command line, a bad value included.
  auto bad =
      wstest::run({wstest::tool("ws-build"), "--format", "nope", "--help-options"}, wstest::shell_env(repo.path()));
  CHECK(bad.status == 0);
  CHECK(bad.err == "");
  CHECK(bad.out.find("--format\tFORMAT\thuman,json,sarif,github,gitlab,junit\t") != std::string::npos);
  // After "--" it is an argument like any other: ws-grep searches for it,
  // and finds nothing in an empty repository.
  auto literal = wstest::run({wstest::tool("ws-grep"), "--", "--help-options"}, wstest::shell_env(repo.path()));
  CHECK(literal.status == 1);
  CHECK(literal.out == "");
}

TEST_CASE("bash completes the options of each tool from its own table", "[completion]") {
  TempRepo repo;
  seed(repo);
  CHECK(wstest::bash_complete({"ws-build", "--for"}, repo.path()) == "--format\n");
  CHECK(wstest::bash_complete({"ws-apply", "--"}, repo.path()) ==
        "--help\n--session\n--color\n--json\n--quiet\n--version\n--list\n--all-sessions\n--all\n--show\n--stat\n--reject\n"
        "--message\n--prune\n--older-than\n--dry-run\n"
        "--branch\n--rebase\n--allow-policy-change\n--continue\n");
  CHECK(wstest::bash_complete({"ws-grep", "--no"}, repo.path()) == "--no-line-number\n--no-filename\n");
  CHECK(wstest::bash_complete({"ws-build", "--no-"}, repo.path()) == "--no-cache\n--no-merge\n--no-progress\n");
  CHECK(wstest::bash_complete({"ws-commit", "--prog"}, repo.path()) == "--progress\n");
  CHECK(wstest::bash_complete({"ws-ls", "--k"}, repo.path()) == "--kind\n");
  // The hidden option is never offered.
  CHECK(wstest::bash_complete({"ws-ls", "--help"}, repo.path()) == "--help\n");
}

TEST_CASE("bash completes the values an option accepts", "[completion]") {
  TempRepo repo;
  seed(repo);
  CHECK(wstest::bash_complete({"ws-build", "--format", ""}, repo.path()) == "human\njson\nsarif\ngithub\ngitlab\njunit\n");
  CHECK(wstest::bash_complete({"ws-build", "--format", "g"}, repo.path()) == "github\ngitlab\n");
  CHECK(wstest::bash_complete({"ws-ls", "--color", ""}, repo.path()) == "auto\nalways\nnever\n");
  // --color=n as one word, and as bash splits it at '=' (COMP_WORDBREAKS).
  CHECK(wstest::bash_complete({"ws-build", "--color=n"}, repo.path()) == "--color=never\n");
  CHECK(wstest::bash_complete({"ws-build", "--color", "=", "al"}, repo.path()) == "always\n");
  CHECK(wstest::bash_complete({"ws-grep", "--in", ""}, repo.path()) == "code\ncomment\nstring\nkey\nvalue\n");
  CHECK(wstest::bash_complete({"ws-ls", "--kind", "a"}, repo.path()) == "access-grant\naccess-group\nagent\nai-tool\n");
  CHECK(wstest::bash_complete({"ws-grep", "--kind", "no"}, repo.path()) == "node-type\n");
  // Free text completes to nothing: not even file names.
  CHECK(wstest::bash_complete({"ws-commit", "-m", ""}, repo.path()) == "");
  CHECK(wstest::bash_complete({"ws-ls", "--max", ""}, repo.path()) == "");
  CHECK(wstest::bash_complete({"ws-grep", "-C", ""}, repo.path()) == "");  // -C is context here
}

TEST_CASE("bash completes the kinds a workspace adds in .ws/kinds", "[completion]") {
  TempRepo repo;
  seed(repo);
  repo.write(".ws/kinds/widget.json",
             "{\n  \"kind\": \"widget\",\n  \"files\": \"widgets/*.json\",\n  \"format\": \"json\",\n"
             "  \"references\": [{\"at\": \"/agent\", \"kind\": \"agent\"}]\n}\n");
  CHECK(wstest::bash_complete({"ws-ls", "--kind", "w"}, repo.path()) == "widget\n");
  CHECK(wstest::bash_complete({"ws-ls", "--kind", "a"}, repo.path()) == "access-grant\naccess-group\nagent\nai-tool\n");
}

TEST_CASE("bash completes revisions, branches and directories", "[completion]") {
  TempRepo repo;
  seed(repo);
  CHECK(wstest::bash_complete({"ws-build", "--rev", ""}, repo.path()) == "HEAD\nfeature\nmain\nv1\n");
  CHECK(wstest::bash_complete({"ws-ls", "--base", "f"}, repo.path()) == "feature\n");
  CHECK(wstest::bash_complete({"ws-grep", "--base="}, repo.path()) == "--base=HEAD\n--base=feature\n--base=main\n--base=v1\n");
  // A bare --base takes no value: the next word is the PATTERN, then paths.
  CHECK(wstest::bash_complete({"ws-grep", "--base", "v"}, repo.path()) == "");
  CHECK(wstest::bash_complete({"ws-grep", "--base", "Alpha", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws-grep", "--base", "-i", "Alpha", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws-apply", "--branch", ""}, repo.path()) == "feature\nmain\n");
  // The revisions of the repository -C names, not of the current directory.
  wstest::TempDir elsewhere;
  CHECK(wstest::bash_complete({"ws-build", "-C", repo.path(), "--rev", "v"}, elsewhere.path()) == "v1\n");
  CHECK(wstest::bash_complete({"ws-grep", "--directory", repo.path(), "--rev", "m"}, elsewhere.path()) == "main\n");
  CHECK(wstest::bash_complete({"ws-ls", "-C", ""}, repo.path()) == ".git/\naccess/\nagents/\n");
  CHECK(wstest::bash_complete({"ws-ls", "-C", "ag"}, repo.path()) == "agents/\n");
}

TEST_CASE("bash completes paths as the tools read pathspecs", "[completion]") {
  TempRepo repo;
  seed(repo);
  CHECK(wstest::bash_complete({"ws-ls", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws-ls", "agents/"}, repo.path()) == "agents/AGa.json\nagents/AGb.json\n");
  CHECK(wstest::bash_complete({"ws-build", "--staged", "acc"}, repo.path()) == "access/\n");
  // From a subdirectory, from there, as the tools read them.
  CHECK(wstest::bash_complete({"ws-ls", "AGb"}, repo.abs("agents")) == "AGb.json\n");
  CHECK(wstest::bash_complete({"ws-ls", "agents/AGb"}, repo.abs("agents")) == "");
  CHECK(wstest::bash_complete({"ws-ls", "../acc"}, repo.abs("agents")) == "../access/\n");
  CHECK(wstest::bash_complete({"ws-build", "-C", "agents", "AGa"}, repo.path()) == "AGa.json\n");
  // ws-grep: the first argument is the PATTERN, unless -e gave one.
  CHECK(wstest::bash_complete({"ws-grep", "ag"}, repo.path()) == "");
  CHECK(wstest::bash_complete({"ws-grep", "Alpha", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws-grep", "-e", "Alpha", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws-grep", "--ref", "Agents.Alpha", "ag"}, repo.path()) == "agents/\n");
}

TEST_CASE("bash completes proposal ids: every one to show, the applicable ones to apply", "[completion]") {
  TempRepo repo;
  seed(repo);
  auto env = wstest::shell_env(repo.path());
  auto stage = [&](const std::string& session, const std::string& message) {
    auto r = wstest::run({wstest::tool("ws-commit"), "--session", session, "-m", message}, env);
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::string first = lines(r.out).at(0);
    REQUIRE(first.rfind("proposal ", 0) == 0);
    return first.substr(9);
  };
  repo.write("agents/AGc.json", "{\n  \"name\": \"Gamma\"\n}\n");
  std::string first = stage("alpha", "Add Gamma");
  std::string second = stage("alpha", "Add Gamma again");  // supersedes the first
  std::string other = stage("beta", "Add Gamma from beta");
  repo.write("agents/AGd.json", "{\n  \"name\": \"Delta\"\n}\n");
  std::string rejected = stage("gamma", "Add Delta");
  auto reject = wstest::run({wstest::tool("ws-apply"), "--reject", rejected, "-m", "no"}, env);
  REQUIRE(reject.status == 0);

  CHECK(sorted_lines(wstest::bash_complete({"ws-apply", ""}, repo.path())) == sorted_lines(second + "\n" + other + "\n"));
  CHECK(sorted_lines(wstest::bash_complete({"ws-apply", "--reject", ""}, repo.path())) == sorted_lines(second + "\n" + other + "\n"));
  CHECK(sorted_lines(wstest::bash_complete({"ws-apply", "--show", ""}, repo.path())) ==
        sorted_lines(first + "\n" + second + "\n" + other + "\n" + rejected + "\n"));
  CHECK(wstest::bash_complete({"ws-ls", "--proposal", other.substr(0, 10)}, repo.path()) == other + "\n");
}
