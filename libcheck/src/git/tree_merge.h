// The three-way merge of two trees when no file changed on both sides
// (ws-build(1), "Merge results"): each path takes the side that changed it,
// and a folder only one side changed is taken whole, by id, without reading
// what is inside it, as git's merge-ort resolves such folders. The tree is
// the one libgit2's merge writes for the same commits (a unit test compares
// them on random histories), but libgit2 lists every file of all three
// trees first, which costs a 20,000-definition workspace four times the
// check itself. When a file changed on both sides, even the same way, the
// answer is nullopt and the caller runs libgit2's merge: what the merge of
// such a path is (content merge, renames, conflicts) stays libgit2's.
#pragma once

#include <optional>

#include <git2.h>

namespace ws::git {

// The merged tree of `ours` and `theirs` from their merge base `base`,
// written to the object database; nullopt when a file changed on both
// sides, when a tree cannot be read or written, or when a folder both sides
// changed is nested past kMaxPathDepth or holds a name twice (a tree made
// by hand): then the full merge decides.
std::optional<git_oid> merge_trees_by_side(git_repository* repo, const git_tree* base, const git_tree* ours,
                                           const git_tree* theirs);

}  // namespace ws::git
