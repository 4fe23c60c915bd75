// Unicode's widths come from utf8proc (Debian's libutf8proc, linked like
// RE2) rather than a table kept here: East Asian Width, combining classes
// and emoji presentation change with every Unicode version, and glibc's
// wcwidth() would need the process's locale, which a library must not set.
#include "display_width.h"

#include <utf8proc.h>

namespace ws::detail {

std::size_t display_width(std::uint32_t code_point) {
  if (code_point < 0x20 || (code_point >= 0x7f && code_point < 0xa0)) return 1;
  if (!utf8proc_codepoint_valid(static_cast<utf8proc_int32_t>(code_point))) return 1;
  int width = utf8proc_charwidth(static_cast<utf8proc_int32_t>(code_point));
  return width < 0 ? 1 : static_cast<std::size_t>(width);
}

}  // namespace ws::detail
