// Compiled kind schemas, cached process-wide by schema text: each distinct
// schema is parsed once however many files and threads validate against it.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

namespace valijson {
class Schema;
}

namespace ws::detail {

// A compiled schema, or why the schema cannot be used.
using CompiledSchema = std::variant<std::shared_ptr<const valijson::Schema>, std::string>;

// valijson evaluates 'pattern' and 'format' with std::regex, whose matcher
// recurses once per input character and overflows the stack on a long string
// (a 100 kB "cron" value is enough). Both keywords are therefore rewritten to
// custom keywords evaluated with RE2 (linear time, no recursion) before the
// schema reaches valijson; everything else is valijson's own.
CompiledSchema compiled_schema(const nlohmann::json& schema);

}  // namespace ws::detail
