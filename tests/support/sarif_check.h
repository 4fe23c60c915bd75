// A SARIF log checked against the official SARIF 2.1.0 JSON Schema (OASIS,
// in ../shared/data) by Debian's python3-jsonschema (Draft 4, the schema's
// own draft).
#pragma once

#include <optional>
#include <string>

#include "support/process.h"

namespace wstest {

// The validator's run on `sarif`: status 0 and nothing printed when it is
// valid, else status 1 and one line per error ("path : message"). Nullopt,
// after a WARN saying why (so the skip shows in the report), when the
// schema or python3-jsonschema is missing.
std::optional<RunResult> validate_sarif(const std::string& sarif);

}  // namespace wstest
