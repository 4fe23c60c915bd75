// The front door (ws(1)): one executable, ws, that is each tool under the
// tool's name (a link) and as `ws TOOL`, byte for byte; `ws help`; and
// `ws init`, which writes all of it or nothing.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "libcheck/kinds.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::TempDir;
using wstest::TempRepo;

namespace {

void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  repo.commit_all("seed");
  repo.write("agents/AGc.json", "{\n  \"name\": \"Gamma\"\n}\n");
}

// Every entry under `dir`, relative, sorted; "name/" for a folder, "name@" for a link.
std::set<std::string> tree(const std::string& dir) {
  std::set<std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = fs::relative(it->path(), dir).string();
    if (rel == ".git" || rel.rfind(".git/", 0) == 0) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) out.insert(rel + "@");
    else if (it->is_directory()) out.insert(rel + "/");
    else out.insert(rel);
  }
  return out;
}

// The folders ws init makes from the default kind pack, parents included.
std::set<std::string> kind_folders() {
  auto pack = ws::KindPack::load(std::string(WS_SOURCE_DIR) + "/schemas/kinds");
  REQUIRE(pack);
  std::set<std::string> out{".ws/"};
  for (const auto& k : pack->kinds())
    for (auto slash = k.dir.find('/'); slash != std::string::npos; slash = k.dir.find('/', slash + 1))
      out.insert(k.dir.substr(0, slash + 1));
  return out;
}

std::string next_steps() {
  return "\nnext:\n"
         "  ws build --all            check every definition\n"
         "  pre-commit hook           printf '#!/bin/sh\\nexec ws-build --staged\\n' > .git/hooks/pre-commit\n"
         "                            chmod +x .git/hooks/pre-commit\n"
         "                            (or the hook 'ws-build' of ws's .pre-commit-hooks.yaml, with pre-commit)\n"
         "  CI                        ws-build --base origin/main --rev HEAD, on a full clone\n"
         "                            (GitHub and GitLab recipes: docs/ci.md)\n";
}

}  // namespace

TEST_CASE("front door: each tool as ws-TOOL and as ws TOOL gives the same bytes and status", "[front-door]") {
  TempRepo repo;
  seed(repo);
  struct Call {
    std::string tool;
    std::vector<std::string> args;
    int status;
  };
  const std::vector<Call> calls{
      {"ls", {"-l"}, 0},
      {"ls", {"--json", "--changed"}, 0},
      {"ls", {"--chnged"}, 2},
      {"ls", {"--max", "0x10"}, 2},
      {"ls", {"--help"}, 0},
      {"ls", {"--help-options"}, 0},
      {"grep", {"-n", "Alpha"}, 0},
      {"grep", {"Nowhere"}, 1},
      {"grep", {"--base", "Gamma"}, 1},  // HEAD has no Gamma yet
      {"build", {"--all"}, 0},
      {"build", {"--format", "json"}, 0},
      {"commit", {}, 2},  // no message
      {"apply", {"--list"}, 0},
      {"apply", {"--show", "0000000"}, 2},
  };
  for (const auto& c : calls) {
    INFO("ws " << c.tool << " " << (c.args.empty() ? "" : c.args.front()));
    auto linked = wstest::ws("ws-" + c.tool, c.args, repo.path());
    std::vector<std::string> front{c.tool};
    front.insert(front.end(), c.args.begin(), c.args.end());
    auto door = wstest::ws("ws", front, repo.path());
    CHECK(linked.status == c.status);
    CHECK(door.status == linked.status);
    CHECK(door.out == linked.out);
    CHECK(door.err == linked.err);
    if (c.status != 1 && !(c.tool == "apply" && c.status == 0)) CHECK(!(linked.out + linked.err).empty());
  }
  // The tools are links to ws, not copies.
  for (const std::string t : {"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"}) {
    INFO(t);
    CHECK(fs::is_symlink(wstest::tool(t)));
    CHECK(fs::equivalent(wstest::tool(t), wstest::tool("ws")));
  }
  // Any path to a link with the tool's name is the tool: a link elsewhere.
  TempDir elsewhere;
  fs::create_symlink(wstest::tool("ws"), elsewhere.path() + "/ws-ls");
  auto far = wstest::run({elsewhere.path() + "/ws-ls", "-l"}, wstest::ws_options(repo.path()));
  CHECK(far.status == 0);
  CHECK(far.out == wstest::ws("ws-ls", {"-l"}, repo.path()).out);
}

TEST_CASE("front door: ws help, unknown commands and ws without a command", "[front-door]") {
  TempRepo repo;
  for (const std::string t : {"ls", "grep", "build", "commit", "apply", "init"}) {
    INFO(t);
    auto help = wstest::ws("ws", {"help", t}, repo.path());
    auto own = wstest::ws("ws", {t, "--help"}, repo.path());
    CHECK(help.status == 0);
    CHECK(help.err == "");
    CHECK(help.out == own.out);
    CHECK(help.out.find("\nUsage: ws") != std::string::npos);
  }
  auto list = wstest::ws("ws", {"help"}, repo.path());
  CHECK(list.status == 0);
  CHECK(list.out.rfind("Check, stage and apply workspace definitions kept in git.\nUsage: ws COMMAND", 0) == 0);
  CHECK(list.out.find("\n  init    make .ws/config.json and the kind folders in a repository\n") != std::string::npos);
  CHECK(wstest::ws("ws", {"--help"}, repo.path()).out == list.out);

  auto none = wstest::ws("ws", {}, repo.path());
  CHECK(none.status == 2);
  CHECK(none.out == "");
  CHECK(none.err == list.out);

  auto typo = wstest::ws("ws", {"lss", "-l"}, repo.path());
  CHECK(typo.status == 2);
  CHECK(typo.out == "");
  CHECK(typo.err == "ws: unknown command 'lss'; did you mean 'ls'?\n");
  auto far = wstest::ws("ws", {"frobnicate"}, repo.path());
  CHECK(far.status == 2);
  CHECK(far.err == "ws: unknown command 'frobnicate'; see 'ws --help'\n");
  auto help_typo = wstest::ws("ws", {"help", "buidl"}, repo.path());
  CHECK(help_typo.status == 2);
  CHECK(help_typo.err == "ws: unknown command 'buidl'; did you mean 'build'?\n");
  // An option before the command is not guessed at; control characters are escaped.
  auto flag = wstest::ws("ws", {"--json\x1b[2J", "ls"}, repo.path());
  CHECK(flag.status == 2);
  CHECK(flag.err == "ws: unknown option '--json\\x1b[2J'; a command comes first: see 'ws --help'\n");
  // "ws-" plus something that is no command is the front door itself.
  TempDir elsewhere;
  fs::create_symlink(wstest::tool("ws"), elsewhere.path() + "/ws-nosuch");
  auto odd = wstest::run({elsewhere.path() + "/ws-nosuch", "ls", "--max", "1"}, wstest::ws_options(repo.path()));
  CHECK(odd.status == 0);
  CHECK(odd.err == "");
}

TEST_CASE("ws init: an empty repository gets .ws/config.json and every kind folder", "[front-door][init]") {
  TempRepo repo;
  auto r = wstest::ws("ws", {"init"}, repo.path());
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err == "");
  std::string expected = "initialised workspace '" + fs::canonical(repo.path()).string() + "'\n";
  for (const auto& f : kind_folders()) expected += "created " + f + "\n";
  expected += "created .ws/config.json\n" + next_steps();
  CHECK(r.out == expected);
  std::set<std::string> want = kind_folders();
  want.insert(".ws/config.json");
  CHECK(tree(repo.path()) == want);
  CHECK(repo.read(".ws/config.json") == "{}\n");
  // git init is not run, the index and HEAD are untouched.
  CHECK(repo.git({"status", "--porcelain", "--untracked-files=all"}) == "?? .ws/config.json\n");
  CHECK(repo.git_result({"rev-parse", "--verify", "HEAD"}).status != 0);
  // The workspace it made builds clean.
  auto build = wstest::ws("ws-build", {"--all"}, repo.path());
  CHECK(build.status == 0);
  CHECK(build.err == "");
}

TEST_CASE("ws init: an existing repository keeps its files and folders", "[front-door][init]") {
  TempRepo repo;
  seed(repo);
  repo.write("README.md", "# desk\n");
  auto before = repo.git({"rev-parse", "HEAD"});
  auto r = wstest::ws("ws", {"init", "-q"}, repo.path());
  CHECK(r.status == 0);
  CHECK(r.out == "");  // --quiet
  CHECK(r.err == "");
  CHECK(repo.read("agents/AGa.json") == "{\n  \"name\": \"Alpha\"\n}\n");
  CHECK(repo.read("README.md") == "# desk\n");
  CHECK(repo.read(".ws/config.json") == "{}\n");
  CHECK(fs::is_directory(repo.abs("access/groups")));
  CHECK(repo.git({"rev-parse", "HEAD"}) == before);

  // From a subfolder, the worktree's root is the one made a workspace; kept folders are said.
  TempRepo other;
  seed(other);
  auto sub = wstest::ws("ws", {"init"}, other.abs("agents"));
  CHECK(sub.status == 0);
  CHECK(sub.out.find("\nkept agents/\n") != std::string::npos);
  CHECK(sub.out.find("created agents/") == std::string::npos);
  CHECK(other.exists(".ws/config.json"));
  CHECK(!fs::exists(other.abs("agents/.ws")));
}

TEST_CASE("ws init: refused when .ws/config.json exists, nothing written", "[front-door][init]") {
  TempRepo repo;
  repo.write(".ws/config.json", "{\"size_cap\": 10}\n");
  auto r = wstest::ws("ws", {"init"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err ==
        "ws init: refused to init: '.ws/config.json' exists already; ws init never overwrites it (edit it, see ws(7))\n");
  CHECK(repo.read(".ws/config.json") == "{\"size_cap\": 10}\n");
  CHECK(tree(repo.path()) == std::set<std::string>{".ws/", ".ws/config.json"});
  // A second run after a first is refused the same way.
  TempRepo twice;
  REQUIRE(wstest::ws("ws", {"init"}, twice.path()).status == 0);
  auto again = wstest::ws("ws", {"init"}, twice.path());
  CHECK(again.status == 1);
  CHECK(again.err.find("'.ws/config.json' exists already") != std::string::npos);
  // A dangling link named config.json is there too: never written through.
  TempRepo dangling;
  TempDir outside;
  fs::create_directories(dangling.abs(".ws"));
  fs::create_symlink(outside.path() + "/planted.json", dangling.abs(".ws/config.json"));
  CHECK(wstest::ws("ws", {"init"}, dangling.path()).status == 1);
  CHECK(!fs::exists(outside.path() + "/planted.json"));
}

TEST_CASE("ws init: a file, link or FIFO where a folder goes refuses before anything is written",
          "[front-door][init]") {
  struct Case {
    std::string what;
    std::string path;
    std::string err;
  };
  TempDir outside;
  for (const std::string kind : {"file", "link", "fifo", "nested"}) {
    INFO(kind);
    TempRepo repo;
    std::string name = kind == "file" ? ".ws" : kind == "nested" ? "access" : "agents";
    std::string shown = kind == "file" ? "a file" : kind == "link" ? "a symbolic link" : kind == "fifo" ? "a special file" : "a file";
    if (kind == "file" || kind == "nested") repo.write(name, "not a folder\n");
    if (kind == "link") fs::create_symlink(outside.path(), repo.abs(name));
    if (kind == "fifo") REQUIRE(::mkfifo(repo.abs(name).c_str(), 0644) == 0);
    auto before = tree(repo.path());
    auto r = wstest::ws("ws", {"init"}, repo.path());
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(r.err == "ws init: refused to init: '" + name + "' is " + shown +
                       " where ws init makes a folder; move it away and run 'ws init' again\n");
    CHECK(tree(repo.path()) == before);
  }
  CHECK(fs::is_empty(outside.path()));
}

TEST_CASE("ws init: outside a repository or in a bare one it says so, exit 2", "[front-door][init]") {
  TempDir plain;
  auto r = wstest::ws("ws", {"init"}, plain.path(), {.env = {{"GIT_CEILING_DIRECTORIES", plain.path()}}});
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK(r.err == "ws init: not a git repository: '.' (or any parent); run 'git init' or pass -C DIR\n");
  CHECK(fs::is_empty(plain.path()));
  TempDir bare;
  REQUIRE(wstest::run({"git", "init", "-q", "--bare", bare.path()}).status == 0);
  auto b = wstest::ws("ws", {"init", "-C", bare.path()}, plain.path());
  CHECK(b.status == 2);
  CHECK(b.err == "ws init: cannot init a bare repository: run 'ws init' in a worktree (see git-worktree(1))\n");
  CHECK(!fs::exists(bare.path() + "/.ws"));
  // The home directory is never a workspace root.
  TempRepo home;
  auto h = wstest::ws("ws", {"init"}, home.path(), {.env = {{"HOME", home.path()}}});
  CHECK(h.status == 2);
  CHECK(h.err.find("it is the home directory") != std::string::npos);
  CHECK(!home.exists(".ws"));
}
