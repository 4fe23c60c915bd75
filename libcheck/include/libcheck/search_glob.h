// ws-grep's -g/--glob GLOB, as rg's (ws-grep(1), OPTIONS): gitignore globs
// (ignore_glob.h, the one matcher) over root-relative paths, read the other
// way round: a glob selects what it matches, a leading '!' excludes it.
//
//   - the last glob that matches a path decides;
//   - a folder whose deciding glob is a '!' one is not entered: nothing
//     under it is searched, whatever a later glob says of its files;
//   - a file no glob matches is searched only when every glob is a '!' one;
//   - '{a,b}' is one glob per alternative, in order ("*.{json,md}"), as rg
//     allows; alternatives do not nest, and '\{' or '[{]' is a literal '{'.
#pragma once

#include <string_view>
#include <vector>

#include "libcheck/ignore_glob.h"
#include "libcheck/result.h"

namespace ws {

// One -g argument, its alternatives expanded. Errc::usage naming the glob
// and the rule it breaks: "invalid glob 'a/{b' for --glob: ...".
Result<std::vector<IgnoreGlob>> parse_search_glob(std::string_view text);

// Whether ws-grep -g searches `path` (a file's root-relative path) under
// `globs`, every -g argument's expansion in command-line order. True when
// `globs` is empty.
bool search_globs_select(const std::vector<IgnoreGlob>& globs, std::string_view path);

}  // namespace ws
