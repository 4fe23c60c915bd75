// The files git keeps beside the tracked ones -- configuration, ignore and
// exclude files, the index -- are read by libgit2 with a plain open(2). A
// FIFO in one of those places would block that open forever, and a device
// would be read as if it held text. Each such path is checked here, without
// opening it, before anything reads it. See ws(7), SAFETY.
#pragma once

#include <string>
#include <string_view>

#include "libcheck/result.h"

struct git_repository;

namespace ws::detail {

// Ok when `path` does not exist or is a regular file (through symlinks:
// ~/.gitconfig is often one). Otherwise an environment error naming the path
// and what it is, e.g. "refused '/r/.git/info/exclude': a FIFO where git
// reads a regular file; remove it or replace it with a file".
Status require_regular_file(const std::string& path);

// The same for an ignore file of the working tree, seen in a directory
// listing: `type` is the dirent type (DT_*), `rel` its repository-relative
// path. A symlink is refused too: it would be followed out of the tree.
Status require_regular_ignore_file(unsigned char type, std::string_view rel);

// Before libgit2 looks for a repository (it reads safe.directory from
// them): the global and system configuration files.
Status check_global_config_files();

// Before libgit2 opens the repository found at `git_dir`: its configuration
// files (the repository's, the shared one of a linked worktree).
Status check_config_files(const std::string& git_dir);

// Once the repository is open: the index, info/exclude, info/attributes and
// the configured or default excludes file.
Status check_repository_files(::git_repository* repo);

}  // namespace ws::detail
