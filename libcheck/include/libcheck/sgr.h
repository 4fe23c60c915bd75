// The SGR colour sequences (ECMA-48 "select graphic rendition") libcheck and
// the tools write on a terminal: ws-build's human report (clang's colours)
// and ws-apply --show's diff (git's colours). One table, so a colour is
// spelt once; each user names its roles (error, frag, old...) over it.
// Output is compared byte for byte with clang's and git's, so the two
// spellings of reset both stay.
#pragma once

#include <string_view>

namespace ws::sgr {

inline constexpr std::string_view reset = "\x1b[0m";
inline constexpr std::string_view reset_short = "\x1b[m";  // git's spelling
inline constexpr std::string_view bold = "\x1b[1m";
inline constexpr std::string_view red = "\x1b[31m";
inline constexpr std::string_view green = "\x1b[32m";
inline constexpr std::string_view yellow = "\x1b[33m";
inline constexpr std::string_view cyan = "\x1b[36m";
inline constexpr std::string_view on_red = "\x1b[41m";  // red background
inline constexpr std::string_view bold_red = "\x1b[1;31m";
inline constexpr std::string_view bold_green = "\x1b[1;32m";
inline constexpr std::string_view bold_magenta = "\x1b[1;35m";
inline constexpr std::string_view bold_cyan = "\x1b[1;36m";

}  // namespace ws::sgr
