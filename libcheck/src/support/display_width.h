// How many terminal cells a character takes, for lining a caret up under the
// character it points at (ws-build(1), the human format).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ws::detail {

// Cells `code_point` takes on a terminal, from Unicode's data as utf8proc
// ships it: 2 for East Asian Wide and Fullwidth characters and for emoji
// shown as emoji, 0 for combining marks and zero-width characters (U+200B,
// the joiner U+200D, variation selectors), 1 otherwise. Controls, which the
// renderers show escaped, and code points that are not characters count 1:
// a caret is never placed by a width of 0 that no terminal would give.
std::size_t display_width(std::uint32_t code_point);

}  // namespace ws::detail
