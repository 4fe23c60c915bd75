// ws-apply --show on a terminal: the unified diff and the diffstat coloured
// as git colours them by default (color.diff: meta bold, frag cyan, old red,
// new green, whitespace at the end of an added line on red, the commit line
// yellow), byte for byte what `git diff --color=always` writes.
#pragma once

#include <string>
#include <string_view>

namespace wscli {

// `patch`, every line made terminal-safe first (ws(7), TERMINAL OUTPUT), then
// coloured: the colours are the only escape sequences in the result.
std::string coloured_patch(std::string_view patch);

// A diffstat that is terminal-safe already, with the '+' and '-' of each
// file's graph in green and red.
std::string coloured_stat(std::string_view stat);

// `line` (one line, terminal-safe) in git's commit colour.
std::string commit_colour(std::string_view line);

}  // namespace wscli
