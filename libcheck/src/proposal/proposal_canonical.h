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

// A proposal whose trees passed check_proposal.
struct CheckedProposal {
  // What it changes against the base, each path once, as tree_changes
  // gives them.
  std::vector<TreeChange> changes;
  // The tree objects checked, by folder, with their bytes (held by
  // `objects`): landing_tree takes a folder it writes byte for byte the
  // same as the object it already is.
  KnownTrees trees;
  std::vector<git::OdbObject> objects;
};

// Checks the proposal commit `proposal` against `base_tree` (null: an
// unborn branch). Every tree object of the proposal that the base does not
// hold as it is gets read as raw bytes and checked before libgit2 parses it:
// each entry's mode is 100644, 100755 or 40000 (written without padding),
// its name is neither empty nor holds '/', names are unique and in git's
// order, a folder is not empty, and each object exists with the type its
// mode names; each folder and file path the proposal adds or changes
// passes the path policy's name rules (no '.', '..', '.git' in any
// spelling, control characters, over-long or over-deep paths). The first
// failure is Errc::refused, naming the path and the rule; nothing is
// repaired. Protected and secret paths are refuse_entry's to judge.
Result<CheckedProposal> check_proposal(git_repository* repo, git_tree* base_tree, const std::string& proposal);
// The same for the proposal's tree `proposal_tree`.
Result<CheckedProposal> check_proposal(git_repository* repo, git_tree* base_tree, const git_oid& proposal_tree);

// The tree that lands: the tree of commit `onto` (empty: no tree) with the
// proposal's changes applied, written fresh by write_edited_tree (blobs by
// id, each folder the changes touch written anew, the others kept by id).
// A folder whose fresh bytes are the very bytes checked for it is that
// object; no other tree of the proposal is ever used.
Result<git_oid> landing_tree(git_repository* repo, const std::string& onto, const CheckedProposal& proposal);

}  // namespace ws::proposal
