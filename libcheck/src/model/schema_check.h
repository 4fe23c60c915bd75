// JSON Schema checks of a definition object (JSON file, front matter, C#
// header) with valijson, reported as WS006 at the offending key or value.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_values.h"
#include "libcheck/diagnostic.h"
#include "libcheck/kinds.h"

namespace ws::detail {

// Why `schema` cannot be used (not a schema, unsupported $ref, bad pattern),
// or nothing. Compiles the schema into the process-wide cache on the way.
std::optional<std::string> schema_problem(const nlohmann::json& schema);

// Validates `doc` against `kind.schema`. Reports only the innermost errors,
// with messages written from the schema. A missing `name_key` is left to the
// name check (WS007), which says it better. Returns whether `doc` is valid.
bool check_schema(const Kind& kind, const JsonDoc& doc, std::string_view path,
                  std::string_view name_key, std::vector<Diagnostic>& out);

}  // namespace ws::detail
