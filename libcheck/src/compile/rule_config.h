// The rules a team tunes (ws(7), RULES), applied to a build's diagnostics:
// the base config's "rules" and "rule_paths", then the inline suppressions
// the readers found (read/suppression_read.h). Codes that guard a trust
// boundary (is_trust_boundary) pass through untouched.
#pragma once

#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/rule_config.h"

namespace ws::compile_detail {

// Rewrites `diags` (in any order): drops what the rules turn off or a
// suppression silences, sets the levels the rules give, and replaces each
// carried directive by what it calls for: nothing when it suppressed
// something, WS022 when a code of it suppressed nothing, WS023 when it is
// refused.
void apply_rules(const RuleConfig& rules, std::vector<Diagnostic>& diags);

}  // namespace ws::compile_detail
