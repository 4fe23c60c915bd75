// Reading files whole, and C++ sources with their comments taken out, for
// the tests that scan the repository's own code (no shell, the layering,
// rules never compared as text).
#pragma once

#include <string>

namespace wstest {

// The bytes of the file at `path`; "" when it cannot be read.
std::string read_file(const std::string& path);

enum class Literals { keep, blank };
// `src`, C++ source, without its comments (a // comment's newline stays, so
// line counts hold), its string and character literals kept as written or
// each blanked to one space.
std::string strip_comments(const std::string& src, Literals literals);

}  // namespace wstest
