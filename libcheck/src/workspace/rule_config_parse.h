// Reading the rule keys of .ws/config.json (ws(7), RULES) into a RuleConfig;
// workspace.cpp's parse_workspace_config hands each key here.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "libcheck/result.h"
#include "libcheck/rule_config.h"

namespace ws::detail {

// "rules": {"WS014": "off", "WS005": "error"}.
Status parse_rule_levels(const nlohmann::json& value, RuleConfig& out);
// "rule_paths": {"WS014": ["legacy/**", "*.draft.cs"]}.
Status parse_rule_paths(const nlohmann::json& value, RuleConfig& out);
// "require_suppression_reason": true.
Status parse_require_reason(const nlohmann::json& value, RuleConfig& out);

}  // namespace ws::detail
