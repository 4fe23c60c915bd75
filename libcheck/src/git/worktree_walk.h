// The walk of a working tree shared by the views that list it: depth first,
// beneath the root, never following a link, in git's path order.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "libcheck/result.h"
#include "libcheck/view.h"  // TreeWatch

struct git_repository;

namespace ws::detail {

struct WalkItem {
  enum class Type { file, link, dir };
  Type type;
  // Repository-relative path; a directory's ends with '/'.
  std::string_view rel;
  // The directory holding it, open, and its name there: for fstatat,
  // openat, readlinkat without resolving the path again.
  int dir_fd;
  const char* name;
};

// Calls `visit` for every regular file, symlink and directory beneath
// `root_path` (the top-level .git excluded; FIFOs, sockets and devices
// skipped). For a directory, `visit` returns true to walk into it. Paths
// come in bytewise order ("a.json" < "a/x" < "a0"): each directory's names
// are sorted with a directory's taken as "name/". Only the directories on
// the current path are open. A directory that cannot be opened is skipped,
// as git skips it. A directory `visit` would have walked into that is a
// mount point (or lies on another device) is refused: the walk stops with
// an error naming it and the rule "mount-point" (ws(7), PATH POLICY);
// git itself would cross it.
// With `watch` (whose walk has begun: TreeWatch::begin_walk), a folder is
// watched before it is read, and its entries are taken from the watch
// while it vouches for them.
Status walk_worktree(const std::string& root_path, const std::function<bool(const WalkItem&)>& visit,
                     TreeWatch* watch = nullptr);

// For the views libgit2 computes, whose own walk would cross a mount point:
// walks the folders git would enter (those with something tracked below,
// else those neither ignored nor holding a nested repository) only to
// refuse a mount point among them, as walk_worktree does. `index_file` is
// the index libgit2 loads, named when it refuses to (index_refusal.h).
Status refuse_mount_points(const std::string& root_path, git_repository* repo, const std::string& index_file);

}  // namespace ws::detail
