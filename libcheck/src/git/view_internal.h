// open_view's internals, for tests that compare its two ways of computing a
// working-tree view.
#pragma once

#include <memory>
#include <string_view>

#include "libcheck/view.h"
#include "libcheck/repository.h"
#include "libcheck/workspace_root.h"

namespace ws::detail {

// open_view; with `fast_status` false, a working-tree view is always
// computed by libgit2 (git_diff_tree_to_workdir_with_index), never by
// worktree_status(), and a rev or proposal view by git_diff_tree_to_tree
// over a walk of the whole base, never by walking the two trees together.
Result<View> open_view_with(const Repository& repo, std::shared_ptr<const WorkspaceRoot> root,
                            const ViewSpec& spec, std::uint64_t size_cap, bool fast_status);

}  // namespace ws::detail
