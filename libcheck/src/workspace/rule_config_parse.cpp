// The rule keys of .ws/config.json (ws(7), RULES). Every refusal is one line
// naming the key, as the rest of the config's are: a config the tools cannot
// read stops them (exit 2), and a change proposing one is WS019. Keys are
// quoted as written: the tools' error lines and the human report make them
// safe for a terminal (ws(7), TERMINAL OUTPUT), JSON carries them exact.
#include "rule_config_parse.h"

#include <algorithm>


namespace ws::detail {

namespace {

Error invalid_rule(const std::string& why) {
  return make_error(Errc::invalid, "invalid .ws/config.json: " + why, ".ws/config.json");
}

// The code a key of "rules" or "rule_paths" names. A code that guards a
// trust boundary may not be lowered: only "error", its own level, passes
// (`level_error` true).
Result<DiagCode> rule_code(const std::string& object, const std::string& key, bool level_error) {
  std::string shown = object + "." + key;
  auto code = find_diag_code(key);
  if (!code) {
    const auto table = all_diagnostics();
    return invalid_rule("'" + shown + "' names no diagnostic code; the codes are " + table.front().id + " to " +
                        table.back().id + " (ws-build(1), DIAGNOSTICS)");
  }
  if (is_trust_boundary(*code) && !level_error)
    return invalid_rule("'" + shown + "' may not lower " + key +
                        ": it guards a trust boundary (ws(7), RULES, lists the codes no config can tune)");
  return *code;
}

std::optional<RuleLevel> level_named(const nlohmann::json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "off") return RuleLevel::off;
  if (s == "note") return RuleLevel::note;
  if (s == "warning") return RuleLevel::warning;
  if (s == "error") return RuleLevel::error;
  return std::nullopt;
}

}  // namespace

Status parse_rule_levels(const nlohmann::json& value, RuleConfig& out) {
  if (!value.is_object())
    return invalid_rule("'rules' must be an object of codes and levels, as {\"WS014\": \"off\"}");
  out.levels.clear();
  for (auto& [key, v] : value.items()) {
    auto level = level_named(v);
    if (!level)
      return invalid_rule("'rules." + key +
                          "' must be \"off\", \"note\", \"warning\" or \"error\"");
    auto code = rule_code("rules", key, *level == RuleLevel::error);
    if (!code) return code.error();
    out.levels.emplace_back(*code, *level);
  }
  return Ok{};
}

Status parse_rule_paths(const nlohmann::json& value, RuleConfig& out) {
  if (!value.is_object())
    return invalid_rule("'rule_paths' must be an object of codes and path lists, as {\"WS014\": [\"legacy/**\"]}");
  out.paths_off.clear();
  for (auto& [key, v] : value.items()) {
    auto code = rule_code("rule_paths", key, /*level_error=*/false);
    if (!code) return code.error();
    std::string shown = "rule_paths." + key;
    if (!v.is_array() || v.empty())
      return invalid_rule("'" + shown + "' must be a non-empty array of paths or globs");
    RulePathsOff entry{*code, {}};
    for (auto& p : v) {
      if (!p.is_string()) return invalid_rule("'" + shown + "' entries must be strings");
      auto glob = parse_ignore_glob(p.get_ref<const std::string&>(), shown);
      if (!glob) return glob.error();
      entry.globs.push_back(std::move(glob).value());
    }
    out.paths_off.push_back(std::move(entry));
  }
  return Ok{};
}

Status parse_require_reason(const nlohmann::json& value, RuleConfig& out) {
  if (!value.is_boolean()) return invalid_rule("'require_suppression_reason' must be true or false");
  out.require_suppression_reason = value.get<bool>();
  return Ok{};
}

}  // namespace ws::detail
