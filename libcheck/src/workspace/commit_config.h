// The workspace configuration as a commit holds it, for the settings that
// must come from an approved commit and never from the change under review.
#pragma once

#include <string>

#include "libcheck/repository.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"

namespace ws {

// .ws/config.json of `commit`'s tree, parsed; the defaults when `commit` is
// empty (an unborn branch) or its tree has no such file. A config.json that
// is not a regular file, or larger than the default size cap, is
// Errc::invalid (it cannot be a configuration the tools would have read).
Result<WorkspaceConfig> config_at_commit(const Repository& repo, const std::string& commit);

}  // namespace ws
