// The one exit-status table of ws(7), EXIT STATUS, tool by tool: 0 done; 1
// the check said no, nothing matched, or refused on purpose; 2 could not
// check (usage, environment, unknown revision, branch or proposal, refused
// root). Each case checks the status, the one line on stderr, and that
// --quiet leaves the status and stderr as they are with nothing on stdout.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::TempRepo;

namespace {

struct Case {
  std::string tool;
  std::vector<std::string> args;
  int status;
  std::string err;  // the exact stderr; "*" for "not empty", when it is a build report
  wstest::RunOptions env = {};
};

void check(const TempRepo& repo, const Case& c) {
  std::string shown = c.tool;
  for (const auto& a : c.args) shown += " " + a;
  INFO(shown);
  auto r = wstest::ws(c.tool, c.args, repo.path(), c.env);
  CHECK(r.status == c.status);
  if (c.err == "*") CHECK(!r.err.empty());
  else CHECK(r.err == c.err);
  // The same with --quiet: the status and stderr alone.
  auto args = c.args;
  args.push_back("--quiet");
  auto q = wstest::ws(c.tool, args, repo.path(), c.env);
  CHECK(q.status == c.status);
  CHECK(q.out == "");
  if (c.err != "*") CHECK(q.err == c.err);
}

void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.commit_all("seed");
}

std::string home_refused(const std::string& tool, const TempRepo& repo) {
  return tool + ": refused workspace root '" + fs::canonical(repo.path()).string() +
         "': it is the home directory; run inside a repository below it\n";
}

wstest::RunOptions home_is(const TempRepo& repo) { return {.env = {{"HOME", repo.path()}}}; }

}  // namespace

TEST_CASE("exit status: ws-ls", "[exit-status]") {
  TempRepo repo;
  seed(repo);
  check(repo, {"ws-ls", {}, 0, ""});
  check(repo, {"ws-ls", {"--kind", "agent", "agents/"}, 0, ""});
  check(repo, {"ws-ls", {"--chnged"}, 2, "ws-ls: unknown option '--chnged'; did you mean '--changed'?\n"});
  check(repo, {"ws-ls", {"--max", "-1"}, 2,
               "ws-ls: invalid count '-1' for --max: write a non-negative decimal integer; see 'ws-ls --help'\n"});
  check(repo, {"ws-ls", {"--kind", "agnet"}, 2, "*"});
  check(repo, {"ws-ls", {"agnets"}, 2, "ws-ls: pathspec 'agnets' did not match any file\n"});
  check(repo, {"ws-ls", {"--rev", "nosuch"}, 2, "ws-ls: unknown revision 'nosuch': revspec 'nosuch' not found\n"});
  check(repo, {"ws-ls", {}, 2, home_refused("ws-ls", repo), home_is(repo)});
  fs::create_symlink("/etc/passwd", repo.abs("agents/link.json"));
  check(repo, {"ws-ls", {}, 1,
               "ws-ls: refused path 'agents/link.json': symlink (links are never followed; replace it with the file "
               "itself)\n"});
}

TEST_CASE("exit status: ws-grep", "[exit-status]") {
  TempRepo repo;
  seed(repo);
  check(repo, {"ws-grep", {"Alpha"}, 0, ""});
  check(repo, {"ws-grep", {"Nowhere"}, 1, ""});
  check(repo, {"ws-grep", {"--base", "Alpha"}, 0, ""});
  check(repo, {"ws-grep", {}, 2, "ws-grep: missing PATTERN; see 'ws-grep --help'\n"});
  check(repo, {"ws-grep", {"Alpha", "agnets"}, 2, "ws-grep: pathspec 'agnets' did not match any file\n"});
  check(repo, {"ws-grep", {"--file-with-matches", "x"}, 2,
               "ws-grep: unknown option '--file-with-matches'; did you mean '--files-with-matches'?\n"});
  check(repo, {"ws-grep", {"-A", "0x3", "x"}, 2,
               "ws-grep: invalid count '0x3' for --after-context: write a non-negative decimal integer; see "
               "'ws-grep --help'\n"});
  check(repo, {"ws-grep", {"--base=nosuch", "x"}, 2,
               "ws-grep: unknown revision 'nosuch': revspec 'nosuch' not found\n"});
  check(repo, {"ws-grep", {"x"}, 2, home_refused("ws-grep", repo), home_is(repo)});
}

TEST_CASE("exit status: ws-build", "[exit-status]") {
  TempRepo repo;
  seed(repo);
  check(repo, {"ws-build", {"--all"}, 0, ""});
  check(repo, {"ws-build", {"--format", "xml"}, 2, "*"});
  check(repo, {"ws-build", {"agnets"}, 2, "ws-build: pathspec 'agnets' did not match any file\n"});
  check(repo, {"ws-build", {"--rev", "nosuch"}, 2, "ws-build: unknown revision 'nosuch': revspec 'nosuch' not found\n"});
  check(repo, {"ws-build", {}, 2, home_refused("ws-build", repo), home_is(repo)});
  check(repo, {"ws-build", {"--werror", "extra", "--wat"}, 2, "ws-build: unknown option '--wat'; see 'ws-build --help'\n"});
  repo.write("agents/AGb.json", "{\n  \"name\": \n");
  auto report = wstest::ws("ws-build", {}, repo.path());
  CHECK(report.status == 1);  // the check said no
  CHECK(report.out.find("error[WS001]") != std::string::npos);
  check(repo, {"ws-build", {}, 1, ""});
}

TEST_CASE("exit status: ws-commit", "[exit-status]") {
  TempRepo repo;
  seed(repo);
  check(repo, {"ws-commit", {}, 2, "ws-commit: a proposal needs a message: pass -m MSG\n"});
  check(repo, {"ws-commit", {"-m", "x", "extra"}, 2, "ws-commit: unexpected argument 'extra'; see 'ws-commit --help'\n"});
  check(repo, {"ws-commit", {"-m", "x", "--rev", "nosuch"}, 2,
               "ws-commit: unknown revision 'nosuch': revspec 'nosuch' not found\n"});
  check(repo, {"ws-commit", {"-m", "x"}, 2, home_refused("ws-commit", repo), home_is(repo)});
  repo.write("agents/AGb.json", "{\n  \"name\": \n");
  check(repo, {"ws-commit", {"-m", "x"}, 1, "*"});  // refused: does not build
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  auto staged = wstest::ws("ws-commit", {"-q", "-m", "add Beta"}, repo.path());
  CHECK(staged.status == 0);
  CHECK(staged.out == "");
  CHECK(repo.git({"for-each-ref", "--format=%(refname)", "refs/ws/"}) == "refs/ws/proposals/default\n");
}

TEST_CASE("exit status: ws-apply", "[exit-status]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  auto staged = wstest::ws("ws-commit", {"-m", "add Beta", "--json"}, repo.path());
  REQUIRE(staged.status == 0);
  std::string id = staged.out.substr(staged.out.find("\"id\":\"") + 6, 40);
  check(repo, {"ws-apply", {"--list"}, 0, ""});
  check(repo, {"ws-apply", {"--show", id}, 0, ""});
  check(repo, {"ws-apply", {"0123456"}, 2, "ws-apply: no proposal '0123456'; see 'ws-apply --list'\n"});
  check(repo, {"ws-apply", {"--branch", "nosuch", id}, 2,
               "ws-apply: no branch 'nosuch'; name an existing branch (see 'git branch')\n"});
  check(repo, {"ws-apply", {"--lsit"}, 2, "ws-apply: unknown option '--lsit'; did you mean '--list'?\n"});
  check(repo, {"ws-apply", {"--prune", "-n"}, 0, ""});
  check(repo, {"ws-apply", {"--reject", id}, 2, "ws-apply: say why with -m REASON: --reject records it\n"});
  check(repo, {"ws-apply", {"--prune", "--older-than", "x"}, 2,
               "ws-apply: invalid count 'x' for --older-than: write a non-negative decimal integer; see 'ws-apply --help'\n"});
  check(repo, {"ws-apply", {id}, 2, home_refused("ws-apply", repo), home_is(repo)});
  CHECK(repo.git({"rev-list", "--count", "main"}) == "1\n");
  REQUIRE(wstest::ws("ws-apply", {"--reject", id, "-m", "not now"}, repo.path()).status == 0);
  check(repo, {"ws-apply", {id}, 1, "ws-apply: proposal " + id.substr(0, 12) + " was rejected by Ada Author <ada@example.com>: not now\n"});
  CHECK(repo.git({"rev-list", "--count", "main"}) == "1\n");
}

TEST_CASE("exit status: ws and ws init", "[exit-status]") {
  TempRepo repo;
  check(repo, {"ws", {"init", "--quite"}, 2, "ws init: unknown option '--quite'; did you mean '--quiet'?\n"});
  CHECK(!repo.exists(".ws"));
  // Once only: a second run is refused.
  auto first = wstest::ws("ws", {"init", "-q"}, repo.path());
  CHECK(first.status == 0);
  CHECK(first.out == "");
  CHECK(first.err == "");
  CHECK(repo.read(".ws/config.json") == "{}\n");
  check(repo, {"ws", {"init"}, 1,
               "ws init: refused to init: '.ws/config.json' exists already; ws init never overwrites it (edit it, "
               "see ws(7))\n"});
  TempRepo home;
  check(home, {"ws", {"init"}, 2, home_refused("ws init", home), home_is(home)});
  check(repo, {"ws", {"nosuch"}, 2, "ws: unknown command 'nosuch'; see 'ws --help'\n"});
}
