// Where gitattributes may come from: the one answer for the view's fast
// path (worktree_status.h), which steps aside for libgit2 wherever an
// attribute could change what a file's bytes mean, and for ws-commit's
// diffstat, which looks a file's diff driver up only where one may apply
// (docs/architecture.md, "The working-tree view").
#pragma once

#include <string>
#include <string_view>

#include <git2.h>

namespace ws::git {

// True for a .gitattributes file in any folder: ".gitattributes" or
// ".../.gitattributes", spelt exactly as git reads it.
bool is_gitattributes_path(std::string_view path);

// The first attributes file outside the tree that libgit2 reads for `repo`,
// named for a reason: "core.attributesFile" when that is set, else
// "attributes file '<path>'" for the repository's info/attributes or the
// user's or the system's file in libgit2's search path; "" when there is
// none. A search path libgit2 cannot tell is taken to hold one.
std::string attributes_file_outside_tree(git_repository* repo);

}  // namespace ws::git
