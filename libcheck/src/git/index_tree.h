// The tree id an index would write (what `git write-tree` prints), computed
// from its stage-0 entries, for an index whose cache-tree extension does
// not say: `git reset` and `git add` leave it invalid, and a view then had
// to walk the whole base tree to learn that the index still equals it.
#pragma once

#include <array>
#include <optional>

#include "index_file.h"

namespace ws::detail {

// nullopt when the index has a conflict (an entry of stage 1 to 3) or an
// intent-to-add entry, whose tree git would not write.
std::optional<std::array<unsigned char, 20>> index_tree_id(const IndexFile& index);

}  // namespace ws::detail
