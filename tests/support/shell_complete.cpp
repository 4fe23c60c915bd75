#include "support/shell_complete.h"

#include <catch2/catch.hpp>

#include <cstdlib>

namespace wstest {

RunOptions shell_env(const std::string& cwd) {
  RunOptions o;
  o.cwd = cwd;
  const char* path = std::getenv("PATH");
  o.env = {{"PATH", std::string(WS_BIN_DIR) + ":" + (path ? path : "/usr/bin:/bin")},
           {"WS_KINDS_DIR", std::string(WS_SOURCE_DIR) + "/schemas/kinds"},
           {"GIT_CONFIG_NOSYSTEM", "1"},
           {"GIT_CONFIG_GLOBAL", "/dev/null"},
           {"TERM", "dumb"}};
  o.unset_env = {"WS_SESSION", "NO_COLOR", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                 "GIT_ALTERNATE_OBJECT_DIRECTORIES", "BASH_ENV", "ENV", "ZDOTDIR", "XDG_CONFIG_HOME"};
  o.timeout_seconds = 60;
  return o;
}

std::string bash_complete(const std::vector<std::string>& words, const std::string& cwd) {
  std::vector<std::string> argv{"bash", "--noprofile", "--norc", "-c",
                                "source \"$0\" || exit 3\n"
                                "COMP_WORDS=(\"${@:2}\"); COMP_CWORD=$1\n"
                                "_ws_complete \"${COMP_WORDS[0]}\" \"${COMP_WORDS[COMP_CWORD]}\" "
                                "\"${COMP_WORDS[COMP_CWORD-1]}\" || exit 4\n"
                                "for c in \"${COMPREPLY[@]}\"; do printf '%s\\n' \"$c\"; done",
                                std::string(WS_SOURCE_DIR) + "/completions/ws.bash", std::to_string(words.size() - 1)};
  argv.insert(argv.end(), words.begin(), words.end());
  auto r = run(argv, shell_env(cwd));
  INFO("bash: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err == "");
  return r.out;
}

}  // namespace wstest
