// The "files" member of ws-commit's and `ws-apply --show`'s --json records
// (ws-commit(1) and ws-apply(1), JSON OUTPUT): one builder, so that both
// tools describe a proposal's files alike.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/file_stat.h"
#include "libcheck/proposal.h"

namespace ws {

// One object per file, in the order given: "path", "status" (A M D R),
// "additions" and "deletions", "old_path" for a rename; a secret's file
// ("secret": true) has null counts, since they would describe its content.
nlohmann::json file_list_json(const std::vector<FileStat>& files);

// The one record of ws-commit --json (schemas/output/ws-commit.json):
// {"type": "proposal", "id", "session", "base", "branch", "files",
// "policy_change", "supersedes"}.
nlohmann::ordered_json staged_json(const StageResult& staged);

}  // namespace ws
