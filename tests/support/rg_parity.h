// ws-grep beside ripgrep on one repository, run the same way, for the tests
// that hold ws-grep to rg's behaviour (ws-grep(1)).
#pragma once

#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

namespace wstest {

// ws-grep with `args` at the root of `repo`.
RunResult ws_grep(const TempRepo& repo, const std::vector<std::string>& args, const RunOptions& extra = {});

// rg as a user would run it at the root of the checkout: no config file, no
// headings, line numbers, files in path order, searching "." (without a
// path, rg would search its stdin, which is no terminal here).
RunResult rg(const TempRepo& repo, const std::vector<std::string>& args);

// rg prints "./path" when given "."; ws-grep prints repository-relative paths.
std::string without_dot_slash(const std::string& rg_output);

// For each of `cases`: ws-grep prints what rg prints (paths as ws-grep
// prints them), exits as rg exits, and says nothing on stderr.
void same_as_rg(const TempRepo& repo, const std::vector<std::vector<std::string>>& cases);

}  // namespace wstest
