// Options take exactly what they say (ws(7), OPTIONS): one value per
// occurrence, as written; an optional value only after '='; an unknown
// option named with the closest known one; an argument no operand takes
// refused; and --quiet on every tool.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::TempRepo;

namespace {

void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.write("tasks/TKa.json", "{\n  \"name\": \"Daily\"\n}\n");
  repo.commit_all("seed");
}

}  // namespace

TEST_CASE("options: a value option takes one value and leaves the next argument an operand", "[options]") {
  TempRepo repo;
  seed(repo);
  auto one = wstest::ws("ws-ls", {"--kind", "agent", "agents/"}, repo.path());
  CHECK(one.status == 0);
  CHECK(one.err == "");
  CHECK(one.out == "agents/AGa.json\n");
  auto none = wstest::ws("ws-ls", {"--kind", "task", "agents/"}, repo.path());
  CHECK(none.status == 0);
  CHECK(none.out == "");
  auto repeated = wstest::ws("ws-ls", {"--kind", "agent", "--kind", "task"}, repo.path());
  CHECK(repeated.out == "agents/AGa.json\ntasks/TKa.json\n");
  // A comma is part of the value, never a list separator.
  auto comma = wstest::ws("ws-ls", {"--kind=agent,task"}, repo.path());
  CHECK(comma.status == 2);
  CHECK(comma.err.rfind("ws-ls: unknown kind 'agent,task'; known kinds: ", 0) == 0);
  // ws-grep: --ref SYMBOL then a PATHSPEC, not a second symbol.
  auto ref = wstest::ws("ws-grep", {"--defines", "Agents.Alpha", "tasks/"}, repo.path());
  CHECK(ref.status == 1);
  CHECK(ref.out == "");
  auto ref_here = wstest::ws("ws-grep", {"--defines", "Agents.Alpha", "agents/"}, repo.path());
  CHECK(ref_here.status == 0);
  CHECK(ref_here.out.rfind("agents/AGa.json:", 0) == 0);
}

TEST_CASE("options: an optional value is taken only after '='", "[options]") {
  TempRepo repo;
  seed(repo);
  std::string first = repo.git({"rev-parse", "HEAD"}).substr(0, 40);
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  repo.commit_all("Beta");
  // The pattern after --base is the pattern.
  auto bare = wstest::ws("ws-grep", {"--base", "Beta"}, repo.path());
  CHECK(bare.status == 0);
  CHECK(bare.err == "");
  CHECK(bare.out == "agents/AGb.json:2:  \"name\": \"Beta\"\n");
  auto at = wstest::ws("ws-grep", {"--base=" + first, "Beta"}, repo.path());
  CHECK(at.status == 1);
  CHECK(at.out == "");
  // A revision after a bare --base is a pattern, searched for as one.
  auto rev_word = wstest::ws("ws-grep", {"--base", first}, repo.path());
  CHECK(rev_word.status == 1);
  CHECK(rev_word.err == "");
}

TEST_CASE("options: unknown options are named with the closest known one", "[options]") {
  TempRepo repo;
  seed(repo);
  struct Case {
    std::string tool;
    std::vector<std::string> args;
    std::string err;
  };
  for (const auto& c : std::vector<Case>{
           {"ws-ls", {"--chnged"}, "ws-ls: unknown option '--chnged'; did you mean '--changed'?\n"},
           {"ws-ls", {"--chnged=yes"}, "ws-ls: unknown option '--chnged'; did you mean '--changed'?\n"},
           {"ws-ls", {"-lx"}, "ws-ls: unknown option '-x'; see 'ws-ls --help'\n"},
           {"ws-ls", {"--frobnicate"}, "ws-ls: unknown option '--frobnicate'; see 'ws-ls --help'\n"},
           {"ws-grep", {"--ignore-cas", "x"}, "ws-grep: unknown option '--ignore-cas'; did you mean '--ignore-case'?\n"},
           {"ws-build", {"--formt", "json"}, "ws-build: unknown option '--formt'; did you mean '--format'?\n"},
           {"ws-commit", {"--mesage", "x"}, "ws-commit: unknown option '--mesage'; did you mean '--message'?\n"},
           {"ws-apply", {"--rebse", "x"}, "ws-apply: unknown option '--rebse'; did you mean '--rebase'?\n"},
           // The hidden option is never suggested.
           {"ws-ls", {"--help-option"}, "ws-ls: unknown option '--help-option'; see 'ws-ls --help'\n"},
           {"ws-apply", {"a", "b"}, "ws-apply: unexpected argument 'b'; see 'ws-apply --help'\n"},
       }) {
    INFO(c.tool << " " << c.args.front());
    auto r = wstest::ws(c.tool, c.args, repo.path());
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == c.err);
  }
  // After "--" it is an operand: a pathspec that matches nothing.
  auto operand = wstest::ws("ws-ls", {"--", "--chnged"}, repo.path());
  CHECK(operand.status == 2);
  CHECK(operand.err == "ws-ls: pathspec '--chnged' did not match any file\n");
}

TEST_CASE("options: --quiet prints nothing on stdout, on every tool", "[options]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"ws-ls", {"-l", "-q"}},
           {"ws-ls", {"--json", "--quiet"}},
           {"ws-grep", {"-q", "Alpha"}},
           {"ws-grep", {"--quiet", "--json", "--stats", "Alpha"}},
           {"ws-build", {"-q", "--format", "sarif", "agents/"}},
           {"ws-build", {"--version", "-q"}},
           {"ws-apply", {"-q", "--list"}},
       }) {
    INFO(tool << " " << args.front() << " " << args.back());
    auto loud = args;
    loud.erase(std::remove_if(loud.begin(), loud.end(), [](const std::string& a) { return a == "-q" || a == "--quiet"; }),
               loud.end());
    auto r = wstest::ws(tool, args, repo.path());
    auto l = wstest::ws(tool, loud, repo.path());
    CHECK(r.status == l.status);
    CHECK(r.status == 0);
    CHECK(r.out == "");
    CHECK(r.err == l.err);
  }
  auto staged = wstest::ws("ws-commit", {"-q", "-m", "add Beta"}, repo.path());
  CHECK(staged.status == 0);
  CHECK(staged.out == "");
  CHECK(staged.err == "");
  auto listed = wstest::ws("ws-apply", {"--list"}, repo.path());
  CHECK(listed.out.find("add Beta") != std::string::npos);
  // --stats still goes to stderr.
  auto stats = wstest::ws("ws-grep", {"-q", "--stats", "Alpha"}, repo.path());
  CHECK(stats.out == "");
  CHECK(stats.err == "ws-grep: 1 result in 1 file; 3 files searched\n");
}
