// The id git gives a blob of given bytes (what `git hash-object` prints),
// computed without a repository or libgit2, for digests that must agree
// with git's ids but are taken where no git code belongs (the kind pack's
// digest, kinds.h).
#pragma once

#include <string>
#include <string_view>

namespace ws::detail {

// 40 lower-case hex digits: SHA-1 of "blob <size>\0" followed by `bytes`.
std::string blob_id_hex(std::string_view bytes);

}  // namespace ws::detail
