// Pathspecs: which paths of a view a command looks at. Repository-relative:
// an exact path, a directory prefix ("agents" or "agents/"), or a glob with
// '*', '?' or '[...]' ('*' also matches '/', as in git).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws {

struct Pathspec {
  std::string text;  // normalised: no trailing '/'
  bool glob = false;
};

// Refuses what the path policy refuses (absolute, '..', '.git', ...), with the
// rule named; "." alone means the whole workspace.
Result<Pathspec> parse_pathspec(std::string_view arg);
Result<std::vector<Pathspec>> parse_pathspecs(const std::vector<std::string>& args);

bool pathspec_matches(const Pathspec& spec, std::string_view path);
// True when `specs` is empty or any spec matches.
bool any_pathspec_matches(const std::vector<Pathspec>& specs, std::string_view path);

}  // namespace ws
