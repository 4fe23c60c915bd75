// Why an index libgit2 will not load was refused: the path in it, and the
// rule (ws(7), PATH POLICY), instead of libgit2's "invalid entry".
#pragma once

#include <string>

#include "libcheck/result.h"

namespace ws::detail {

// The error to report when libgit2 could not load (or diff against) the
// index file `index_file`: libgit2 refuses an entry whose path holds '..',
// '.git' and the like, without naming it. Returns the refusal of the first
// entry whose path the path policy refuses, naming the index, the path
// (escaped) and the rule; else `fallback`, libgit2's own error.
Error index_load_error(const std::string& index_file, Error fallback);

}  // namespace ws::detail
