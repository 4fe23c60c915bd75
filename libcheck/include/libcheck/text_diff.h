// The unified diff of two versions of one file, as `git diff` prints it
// (libgit2's patch of two buffers), for tools that show an edit before
// making it (ws rename --dry-run).
#pragma once

#include <string>
#include <string_view>

#include "libcheck/result.h"

namespace ws {

// "diff --git a/PATH b/PATH", the index line with both blob ids, then the
// hunks with three lines of context; empty when the bytes are equal.
Result<std::string> unified_diff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace ws
