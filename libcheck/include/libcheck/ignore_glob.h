// The "ignore" globs of .ws/config.json (ws(7), WORKSPACE CONFIGURATION):
// gitignore(5) patterns over repository-relative paths.
//
//   - a pattern without '/' (but a trailing one) matches a name at any
//     depth: "*.txt", "notes";
//   - a pattern with '/' at its start or in its middle is anchored at the
//     workspace root: "/TODO", "design/drafts";
//   - a trailing '/' matches folders only: "build/";
//   - '*' and '?' never match '/'; '[...]' is a bracket expression; a
//     backslash quotes the next character;
//   - "**" as a whole segment matches any number of folders: "**/tmp",
//     "drafts/**" (everything inside), "a/**/b";
//   - a leading '!' re-includes what an earlier pattern ignored, unless a
//     folder above it is ignored (as in git).
// The last pattern that matches decides; a file under an ignored folder is
// ignored. Each segment is matched by fnmatch(3); only "**" and the
// anchoring are handled here, because libgit2's ignore API matches a
// repository's own ignore files and cannot take a list of patterns that
// comes from a base commit's config. The e2e tests compare the result with
// `git check-ignore --no-index`.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws {

struct IgnoreGlob {
  std::string text;                   // as written in the config
  std::vector<std::string> segments;  // the pattern split at '/', markers removed
  bool negated = false;               // leading '!'
  bool folders_only = false;          // trailing '/'
  bool anchored = false;              // matched against the whole path, not the file name
};

// Errc::invalid naming the config key it is under ("ignore",
// "rule_paths.WS014"), the pattern and the rule it breaks, for an empty
// pattern, one with control characters, or one with an empty segment.
Result<IgnoreGlob> parse_ignore_glob(std::string_view text, std::string_view key = "ignore");

// The same rules for a glob from elsewhere (ws-grep -g): `bad` turns the
// rule broken ("holds a control character") into the caller's error.
Result<IgnoreGlob> parse_glob(std::string_view text, const std::function<Error(const std::string& rule)>& bad);

// The last of `globs` that matches `path`, a repository-relative path of a
// file, or of a folder when `is_folder`; null when none does. The one
// matcher both gitignore's rule (is_ignored_path) and rg's -g rule
// (search_glob.h) decide with.
const IgnoreGlob* last_matching_glob(const std::vector<IgnoreGlob>& globs, std::string_view path, bool is_folder);

// Whether `path` (a file's repository-relative path) is ignored by `globs`.
bool is_ignored_path(const std::vector<IgnoreGlob>& globs, std::string_view path);

}  // namespace ws
