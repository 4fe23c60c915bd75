// The zsh and fish completions (completions/_ws, completions/ws.fish), and the
// bash one for the front door, run by the real shells against the built
// tools: fish through `complete -C`, zsh through its line editor in a
// pseudo-terminal (tests/support/zsh/complete.zsh), bash as
// tests/support/shell_complete.h drives it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/shell_complete.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::lines;
using wstest::sorted_lines;
using wstest::TempDir;
using wstest::TempRepo;

namespace {

std::string source(const std::string& rel) { return std::string(WS_SOURCE_DIR) + "/" + rel; }

// fish's candidates for the command line `line` (the cursor at its end):
// "candidate\tdescription" or "candidate", one a line, as fish sorts them.
std::string fish(const std::string& line, const std::string& cwd) {
  auto o = wstest::shell_env(cwd);
  TempDir home;
  o.env["HOME"] = home.path();
  auto r = wstest::run({"fish", "--no-config", "-c", "source $argv[1]; or exit 3; complete -C $argv[2]",
                        source("completions/ws.fish"), line},
                       o);
  INFO("fish: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err == "");
  return r.out;
}

// The candidates fish offers, without descriptions, sorted.
std::string fish_names(const std::string& line, const std::string& cwd) {
  std::string out;
  for (const auto& l : lines(fish(line, cwd))) out += l.substr(0, l.find('\t')) + "\n";
  return sorted_lines(out);
}

// The matches zsh's completion system adds for `line` and TAB, sorted.
std::string zsh(const std::string& line, const std::string& cwd) {
  TempDir tmp;
  std::string out = tmp.path() + "/matches";
  { std::ofstream(out).flush(); }
  auto o = wstest::shell_env(cwd);
  o.env["HOME"] = tmp.path();
  o.env["WS_ZSH_OUT"] = out;
  o.env["WS_ZSH_FPATH"] = source("completions");
  auto r = wstest::run({"zsh", "-f", source("tests/support/zsh/complete.zsh"), source("tests/support/zsh/rc.zsh"), line},
                       o);
  INFO("zsh: " << r.status << " " << r.err);
  REQUIRE(r.status == 0);
  std::ifstream f(out);
  std::stringstream ss;
  ss << f.rdbuf();
  return sorted_lines(ss.str());
}

void seed(const TempRepo& repo) {
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");
  repo.write("access/groups/staff.json", "{\n  \"name\": \"Staff\"\n}\n");
  repo.write(".ws/kinds/widget.json",
             "{\n  \"kind\": \"widget\",\n  \"files\": \"widgets/*.json\",\n  \"format\": \"json\",\n"
             "  \"symbol\": \"Widgets\",\n  \"name\": \"/name\"\n}\n");
  repo.commit_all("seed");
  repo.git({"branch", "feature"});
  repo.git({"tag", "v1"});
}

}  // namespace

TEST_CASE("fish completes options, values, commands and paths from the tools' tables", "[completion][fish]") {
  TempRepo repo;
  seed(repo);
  CHECK(fish("ws-build --for", repo.path()) == "--format\toutput: human (default), json, sarif, github, gitlab or junit\n");
  CHECK(fish("ws build --for", repo.path()) == fish("ws-build --for", repo.path()));
  CHECK(fish_names("ws-build --format g", repo.path()) == "github\ngitlab\n");
  CHECK(fish_names("ws-ls --quie", repo.path()) == "--quiet\n");
  CHECK(fish_names("ws-ls --kind w", repo.path()) == "widget\n");  // from .ws/kinds
  CHECK(fish_names("ws ls --kind a", repo.path()) == "access-grant\naccess-group\nagent\nai-tool\n");
  CHECK(fish_names("ws-ls --color=n", repo.path()) == "--color=never\n");
  CHECK(fish_names("ws-build --rev ", repo.path()) == "HEAD\nfeature\nmain\nv1\n");
  CHECK(fish_names("ws-apply --branch ", repo.path()) == "feature\nmain\n");
  // An optional value only after '=': a bare --base leaves the PATTERN next.
  CHECK(fish_names("ws-grep --base=", repo.path()) == "--base=HEAD\n--base=feature\n--base=main\n--base=v1\n");
  CHECK(fish_names("ws-grep --base v", repo.path()) == "");
  CHECK(fish_names("ws-grep --base Alpha ag", repo.path()) == "agents/\n");
  CHECK(fish_names("ws-grep ag", repo.path()) == "");  // the PATTERN
  CHECK(fish_names("ws-ls ag", repo.path()) == "agents/\n");
  // -C DIR: the revisions of that repository.
  TempDir elsewhere;
  CHECK(fish_names("ws-build -C " + repo.path() + " --rev v", elsewhere.path()) == "v1\n");
  // The front door's commands, with what they do.
  auto commands = fish("ws ", repo.path());
  CHECK(commands.find("ls\tlist the definitions of the view\n") != std::string::npos);
  CHECK(fish_names("ws ", repo.path()) == "apply\nbuild\ncommit\ngrep\nhelp\ninit\nls\nlsp\nmcp\nrename\n");
}

TEST_CASE("zsh completes options, values, commands and paths from the tools' tables", "[completion][zsh]") {
  TempRepo repo;
  seed(repo);
  CHECK(zsh("ws-build --for", repo.path()) == "--format\n");
  CHECK(zsh("ws build --for", repo.path()) == "--format\n");
  CHECK(zsh("ws-build --format g", repo.path()) == "github\ngitlab\n");
  CHECK(zsh("ws-ls --quie", repo.path()) == "--quiet\n");
  CHECK(zsh("ws-ls --kind w", repo.path()) == "widget\n");
  CHECK(zsh("ws ls --kind a", repo.path()) == "access-grant\naccess-group\nagent\nai-tool\n");
  CHECK(zsh("ws-ls --color=n", repo.path()) == "never\n");
  CHECK(zsh("ws-build --rev ", repo.path()) == "HEAD\nfeature\nmain\nv1\n");
  CHECK(zsh("ws-apply --branch ", repo.path()) == "feature\nmain\n");
  CHECK(zsh("ws-grep --base=", repo.path()) == "HEAD\nfeature\nmain\nv1\n");
  CHECK(zsh("ws-grep --base v", repo.path()) == "");
  CHECK(zsh("ws-grep --base Alpha ag", repo.path()) == "agents\n");
  CHECK(zsh("ws-grep ag", repo.path()) == "");
  CHECK(zsh("ws-ls ag", repo.path()) == "agents\n");
  TempDir elsewhere;
  CHECK(zsh("ws-build -C " + repo.path() + " --rev v", elsewhere.path()) == "v1\n");
  CHECK(zsh("ws ls", repo.path()) == "ls\nlsp\n");
  CHECK(zsh("ws lsp", repo.path()) == "lsp\n");
  CHECK(zsh("ws mcp --s", repo.path()) == "--session\n");
  // Proposal ids for ws-apply, from ws-apply itself.
  repo.write("agents/AGb.json", "{\n  \"name\": \"Beta\"\n}\n");
  auto staged = wstest::ws("ws-commit", {"-m", "add Beta", "--json"}, repo.path());
  REQUIRE(staged.status == 0);
  std::string id = staged.out.substr(staged.out.find("\"id\":\"") + 6, 40);
  CHECK(zsh("ws-apply --show " + id.substr(0, 8), repo.path()) == id + "\n");
  CHECK(fish_names("ws apply --show " + id.substr(0, 8), repo.path()) == id + "\n");
  CHECK(zsh("ws ", repo.path()) == "apply\nbuild\ncommit\ngrep\nhelp\ninit\nls\nlsp\nmcp\nrename\n");
}

TEST_CASE("bash completes the front door: its commands, then as the tool", "[completion]") {
  TempRepo repo;
  seed(repo);
  CHECK(wstest::bash_complete({"ws", ""}, repo.path()) == "ls\ngrep\nbuild\ncommit\napply\ninit\nrename\nlsp\nmcp\nhelp\n");
  CHECK(wstest::bash_complete({"ws", "b"}, repo.path()) == "build\n");
  CHECK(wstest::bash_complete({"ws", "build", "--for"}, repo.path()) == "--format\n");
  CHECK(wstest::bash_complete({"ws", "ls", "--kind", "w"}, repo.path()) == "widget\n");
  CHECK(wstest::bash_complete({"ws", "grep", "--base", "Alpha", "ag"}, repo.path()) == "agents/\n");
  CHECK(wstest::bash_complete({"ws", "init", "-"}, repo.path()) == "-h\n--help\n-C\n-q\n--quiet\n");
  CHECK(wstest::bash_complete({"ws", "mcp", "--"}, repo.path()) == "--help\n--session\n--max-records\n--max-bytes\n");
  CHECK(wstest::bash_complete({"ws-mcp", "--max-"}, repo.path()) == "--max-records\n--max-bytes\n");
}
