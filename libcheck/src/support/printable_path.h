// Paths shown to a person: one rule for every message that quotes a path
// (ws(7), "Paths"), so no file name can forge output lines or terminal escapes.
#pragma once

#include <string>
#include <string_view>

namespace ws::detail {

// `path` made safe to print inside quotes on one line: control bytes, DEL,
// C1 controls and bytes that are not UTF-8 are shown as \n, \t, \r or \xNN,
// so a hostile file name cannot forge extra output lines or terminal escapes.
std::string printable_path(std::string_view path);

}  // namespace ws::detail
