// What every format shares once it holds a positioned object (JSON file,
// front matter, C# header): the schema check, the name, the members and the
// references found at the kind's pointers.
#pragma once

#include <string_view>

#include "json_values.h"
#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws::detail {

// Checks and takes `name` as the definition's name: empty is WS007; for a kind
// that defines a symbol, anything but a C# identifier of at most
// kMaxNameLength characters that is not a keyword is WS008 (the message says which). `file_level` reports without a span.
void take_name(const Kind& kind, std::string_view name, const Span& span, bool file_level, Definition& def);

// Validates `doc` against the kind's schema, then fills name, members and
// pointer references. A missing name is reported at `missing_at` with
// `missing_message`.
void finish_definition(const Kind& kind, const JsonDoc& doc, const Span& missing_at,
                       std::string_view missing_message, Definition& def);

}  // namespace ws::detail
