// The cron check of a definition's fields (WS024; ws-build(1), ws(7) KINDS).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json_values.h"
#include "libcheck/definition.h"
#include "libcheck/kinds.h"

namespace ws::detail {

// What is wrong with `text` as a standard 5-field cron expression, as
// "hour '25' is out of range 0-23"; nullopt when it is one.
std::optional<std::string> cron_fault(std::string_view text);

// Checks every top-level string field whose schema property says
// "format": "cron" and appends WS024 at the value for each that is not a
// cron expression. A value of another type is the schema's to report.
void check_cron_fields(const Kind& kind, const JsonDoc& doc, Definition& def);

}  // namespace ws::detail
