#include "support/rg_parity.h"

#include <catch2/catch.hpp>

namespace wstest {

RunResult ws_grep(const TempRepo& repo, const std::vector<std::string>& args, const RunOptions& extra) {
  return ws("ws-grep", args, repo.path(), extra);
}

RunResult rg(const TempRepo& repo, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"rg", "--no-config", "--no-heading", "-n", "--sort", "path"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(".");
  RunOptions o;
  o.cwd = repo.path();
  o.unset_env = {"RIPGREP_CONFIG_PATH"};
  return run(argv, o);
}

std::string without_dot_slash(const std::string& rg_output) {
  std::string out;
  for (const auto& l : lines(rg_output)) out += (l.rfind("./", 0) == 0 ? l.substr(2) : l) + "\n";
  return out;
}

void same_as_rg(const TempRepo& repo, const std::vector<std::vector<std::string>>& cases) {
  for (const auto& args : cases) {
    std::string shown;
    for (const auto& a : args) shown += "'" + a + "' ";
    INFO("args: " << shown);
    auto mine = ws_grep(repo, args);
    auto theirs = rg(repo, args);
    CHECK(mine.err == "");
    CHECK(mine.status == theirs.status);
    CHECK(mine.out == without_dot_slash(theirs.out));
  }
}

}  // namespace wstest
