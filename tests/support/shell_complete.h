// The completions (completions/) run by the real shells against the built
// tools, in a clean environment.
#pragma once

#include <string>
#include <vector>

#include "support/process.h"

namespace wstest {

// The environment the completion tests run a shell in: the built tools
// first on PATH, the source tree's kind pack, no git or shell configuration
// of the machine's, TERM=dumb, in `cwd`.
RunOptions shell_env(const std::string& cwd);

// bash's candidates for the last of `words`, one a line, as bash makes
// them: completions/ws.bash sourced, COMP_WORDS and COMP_CWORD set, then
// _ws_complete called with the command, the current and the previous word,
// as `complete -F` calls it. Fails the test when bash fails or complains.
std::string bash_complete(const std::vector<std::string>& words, const std::string& cwd);

}  // namespace wstest
