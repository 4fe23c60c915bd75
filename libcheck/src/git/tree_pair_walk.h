// Walks over git trees: two trees side by side, and one tree whole.
// Each walk keeps its folders on an explicit stack, so a tree nested
// without end cannot exhaust the call stack, builds every path in one
// buffer, so its cost is linear in the entries it visits, and stops at the
// one depth cap of every walk (kMaxPathDepth, depth_cap_error in
// libcheck/path_policy.h; ws(7), PATH POLICY).
#pragma once

#include <git2.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "libcheck/result.h"

namespace ws::git {

// Called with the id of each subtree of `to` the walk is about to open that
// `from` does not hold as it is, its folder path ("a/b", no trailing '/')
// and depth (components of that path), before libgit2 parses it; an error
// stops the walk and is returned as it is.
using TreeCheck = std::function<Status(const git_oid& id, std::string_view folder, int depth)>;

// A path of a walk over two trees: a blob, link or submodule on either side
// (mode 0 and a null id where a side lacks it). `path` lives for the call only.
struct TreePair {
  std::string_view path;
  std::uint32_t old_mode = 0;
  std::uint32_t new_mode = 0;
  const git_oid* old_id = nullptr;
  const git_oid* new_id = nullptr;
  bool changed = true;  // false: the same id and mode on both sides
};
using PairFn = std::function<void(const TreePair&)>;

// Walks `from` and `to` (either may be null) together, calling `fn` in path
// order for every path that differs; with `unchanged`, for every other path
// too. Subtrees with the same id on both sides are opened only with
// `unchanged`. A file replaced by a folder (or back) is a delete and adds.
// A folder at kMaxPathDepth components is not entered: depth_cap_error
// names its first entry.
Status walk_tree_pair(git_repository* repo, const git_tree* from, const git_tree* to, bool unchanged,
                      const PairFn& fn, const TreeCheck& check_new = {});

// Whether the folders `to` changes from `from` nest within kMaxPathDepth
// (else depth_cap_error, naming the first path past it). Asked before any
// libgit2 diff of two trees: its walk keeps each level's path, so a tree
// nested 100,000 deep would cost the square of that in time and memory.
Status check_changed_depth(git_repository* repo, const git_tree* from, const git_tree* to);

// An entry of a walk over one tree: a blob, link or submodule, its full
// path (living for the call only).
using EntryFn = std::function<void(std::string_view path, const git_tree_entry* entry)>;

// Calls `fn` for every entry below `tree` that is not a folder, folder
// before folder in the order the trees store them (as git's own recursive
// walk does). `folder` is the tree's path with its '/' ("" for the top) and
// `depth` its components. A folder at kMaxPathDepth components is not
// entered: depth_cap_error names its first entry. A tree that cannot be
// read is Errc::environment with libgit2's reason.
Status walk_tree(git_repository* repo, const git_tree* tree, std::string folder, int depth, const EntryFn& fn);

}  // namespace ws::git
