// Finding the inline suppressions of a definition (ws(7), RULES): the
// reader only finds them, and hands each to the build as a WS022
// diagnostic carrying the directive's text, so that a cached record keeps
// them too; the build's rules (compile/rule_config.cpp) parse them, match
// them to the diagnostics they name and report those that suppress nothing.
//
// A carried directive: code WS022, span the directive, message its text
// after "ws-ignore" ("WS014: reason", "WS010, WS011"), and one note whose
// span's start line is the line it applies to, or a note without a span
// when it applies to the whole file.
#pragma once

#include <cstdint>
#include <string_view>

#include "json_values.h"
#include "libcheck/definition.h"

namespace ws::detail {

// C#: a line comment `// ws-ignore CODES[: reason]`. Alone on its line it
// applies to the next line; after code, to its own line.
void read_code_suppressions(std::string_view bytes, std::uint32_t begin, Definition& def);

// Markdown: the front matter key `ws-ignore`, a string or a list of strings
// `CODES[: reason]`, each applying to the whole file. The key is taken out
// of `doc`, so the kind's schema never sees it.
void take_front_matter_suppressions(JsonDoc& doc, Definition& def);

}  // namespace ws::detail
