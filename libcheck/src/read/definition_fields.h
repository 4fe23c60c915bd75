// Which fields of a definition a change touched (DefinitionChange::fields,
// ws-build(1), IMPACT): the two versions of a file read as their readers
// read them, up to the object each format holds (JSON object, front matter,
// C# header), and compared field by field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/kinds.h"

namespace ws::detail {

// The top-level fields whose values differ between `before` and `after`
// (bytes of one file of `kind`), sorted, then "body" when the text after a
// C# header or a front matter differs (once, should a field be called so).
// A side that does not read as an object (a syntax error, bytes that are not
// UTF-8) has no fields, and then its body is all of its text. Nothing for a
// kind that is never read.
std::vector<std::string> changed_fields(const Kind& kind, std::string_view before, std::string_view after);

// The top-level fields of one file of `kind` as its reader reads them (the
// JSON object, the front matter, the C# header): an empty object when it
// does not read as one (ws-lsp(1)'s hover shows the description).
nlohmann::json definition_object(const Kind& kind, std::string_view bytes);

}  // namespace ws::detail
