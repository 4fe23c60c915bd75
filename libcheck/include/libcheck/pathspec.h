// Pathspecs: which paths of a view a command looks at, written as git takes
// them (ws(7), PATHSPECS): relative to the current folder, or to the
// workspace root with a leading ':/'; an exact path, a folder ("agents" or
// "agents/"), or a glob with '*', '?' or '[...]' ('*' also matches '/', as
// in git). '.' and '..' are resolved as text, as git does; a pathspec that
// leads out of the root is refused.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws {

struct Pathspec {
  std::string text;  // repository-relative, normalised: no trailing '/'; "" is everything
  bool glob = false;
  // Bytes of `text` that are the current folder's path, matched literally
  // even when they hold '*', '?' or '['.
  std::size_t literal = 0;
  std::string arg;  // as the user wrote it, for messages
};

// Where a command stands in the workspace: the current folder's path below
// the root with a trailing '/' ("agents/"), or "" at the root.
struct PathPrefix {
  std::string folder;
};

// The prefix of `dir` (the tool's folder, after -C) in the workspace rooted
// at `root` (canonical); "" when `dir` is the root or not beneath it (the
// .git folder, a bare repository).
PathPrefix path_prefix_of(const std::string& root, const std::string& dir);

// Refuses what the path policy refuses ('.git', control characters, ...) and
// a pathspec leading out of the root, naming the rule (Errc::usage).
Result<Pathspec> parse_pathspec(std::string_view arg, const PathPrefix& prefix = {});
Result<std::vector<Pathspec>> parse_pathspecs(const std::vector<std::string>& args, const PathPrefix& prefix = {});

// The pathspecs a listing or a search uses: those given, or with none given
// below the root, the current folder (as git ls-files, git grep and rg do).
// Such an implicit pathspec has an empty `arg` and is never reported as
// matching nothing.
std::vector<Pathspec> or_current_folder(std::vector<Pathspec> given, const PathPrefix& prefix);

bool pathspec_matches(const Pathspec& spec, std::string_view path);
// True when `specs` is empty or any spec matches.
bool any_pathspec_matches(const std::vector<Pathspec>& specs, std::string_view path);

// The one error for a pathspec that matched nothing in the view: exit 2 in
// every tool, since a typo must not read as a clean answer (ws(7), EXIT
// STATUS).
Error unmatched_pathspec(const Pathspec& spec);

// `path` (repository-relative) as human output shows it, relative to the
// current folder as git prints it: "a.json", "../prompts/p.md".
std::string path_from_prefix(std::string_view path, const PathPrefix& prefix);

}  // namespace ws
