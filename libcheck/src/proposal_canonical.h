// Canonical proposal trees (ws-apply(1), ws-commit(1), ws(7) PROPOSALS):
// what a proposal may hold, checked entry by entry before anything lands,
// and the fresh tree that lands in place of the proposal's own objects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proposal_internal.h"

namespace ws::proposal {

// Why a file at `path` with `mode` may not be proposed; nullopt when it may.
// A proposal holds regular files (100644) and executables (100755) only.
// The type comes from the mode's type bits (0170000), so 120644 is named a
// symlink and 160644 a submodule, whatever its other bits say.
std::optional<std::string> refuse_file_mode(std::string_view path, std::uint32_t mode);

// The changes the proposal commit `proposal` makes to `base_tree` (null: an
// unborn branch), each path once, as tree_changes gives them. Every tree
// object of the proposal that the base does not hold as it is gets read as
// raw bytes and checked before libgit2 parses it: each entry's mode is
// 100644, 100755 or 40000 (written without padding), its name is neither
// empty nor holds '/', its path passes the path policy's name rules (no
// '.', '..', '.git' in any spelling, control characters, over-long or
// over-deep paths), names are unique and in git's order, a folder is not
// empty, and each object exists with the type its mode names. The first
// failure is Errc::refused, naming the path and the rule; nothing is
// repaired. Protected and secret paths are refuse_entry's to judge.
Result<std::vector<TreeChange>> canonical_changes(git_repository* repo, git_tree* base_tree,
                                                  const std::string& proposal);
// The same for the proposal's tree `proposal_tree`.
Result<std::vector<TreeChange>> canonical_changes(git_repository* repo, git_tree* base_tree,
                                                  const git_oid& proposal_tree);

// The tree that lands: the tree of commit `onto` (empty: no tree) with
// `changes` applied, written fresh by write_edited_tree (blobs by id, each
// folder the changes touch written anew, the others kept by id), never a
// tree object of the proposal.
Result<git_oid> landing_tree(git_repository* repo, const std::string& onto, const std::vector<TreeChange>& changes);

}  // namespace ws::proposal
