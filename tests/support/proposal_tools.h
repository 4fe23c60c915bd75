// The tools run on a TempRepo the way the proposal tests run them: as the
// suite's approver, with the helpers those tests share.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

namespace wstest {

// The committer every ws-apply of the suite is made by unless a test names
// another: Ada Approver <approver@example.com>.
std::map<std::string, std::string> approver_env();
// approver_env() with the source tree's kind pack (WS_KINDS_DIR), for a
// tool run that does not go through ws() (under a fault injector, or raced
// by another).
std::map<std::string, std::string> approver_tool_env();

// Runs the tool `name` with `args` in `repo` as ws() does, with `env` added;
// as the approver when `env` names no committer.
RunResult ws(const TempRepo& repo, const std::string& name, const std::vector<std::string>& args,
             std::map<std::string, std::string> env = {});

// ws-commit -m MESSAGE in `repo` (with `env`), which must succeed; the id it
// prints on its first line ("proposal <id>").
std::string stage(const TempRepo& repo, const std::string& message, std::map<std::string, std::string> env = {});

// The commit `what` names in `repo` (git rev-parse).
std::string rev(const TempRepo& repo, const std::string& what);

// Whether `git fsck --strict` finds `repo` clean: it exits 0 and reports no
// error.
bool fsck_clean(const TempRepo& repo);

}  // namespace wstest
