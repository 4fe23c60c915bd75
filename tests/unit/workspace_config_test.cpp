#include <catch2/catch.hpp>

#include "libcheck/workspace.h"

using ws::parse_workspace_config;

TEST_CASE("workspace config: valid keys are read", "[workspace]") {
  auto c = parse_workspace_config(R"({"unrouted": "warning", "protected": ["ops/"], "size_cap": 4096})");
  REQUIRE(c.ok());
  CHECK(c->unrouted == ws::UnroutedPolicy::warning);
  CHECK(c->protected_paths == std::vector<std::string>{"**/.gitattributes", ".gitmodules", ".pre-commit-config.yaml",
                                                       ".github/", ".gitlab-ci.yml", "ops/"});
  CHECK(c->size_cap == 4096);
  CHECK_FALSE(c->approval.distinct_approver);
  // Files in unknown folders are warnings unless the config says otherwise.
  auto defaults = parse_workspace_config("{}");
  REQUIRE(defaults.ok());
  CHECK(defaults->unrouted == ws::UnroutedPolicy::warning);
  CHECK(defaults->ignore.empty());
  auto globs = parse_workspace_config(R"({"ignore": ["scripts/", "!scripts/keep", "/TODO"]})");
  REQUIRE(globs.ok());
  REQUIRE(globs->ignore.size() == 3);
  CHECK(globs->ignore[0].folders_only);
  CHECK(globs->ignore[1].negated);
  CHECK(globs->ignore[2].anchored);
  auto a = parse_workspace_config(R"({"approval": {"distinct_approver": true}})");
  REQUIRE(a.ok());
  CHECK(a->approval.distinct_approver);
  auto off = parse_workspace_config(R"({"approval": {}})");
  REQUIRE(off.ok());
  CHECK_FALSE(off->approval.distinct_approver);
}

TEST_CASE("workspace config: the rule keys are read", "[workspace][rules]") {
  auto c = parse_workspace_config(
      R"({"rules": {"WS014": "off", "WS005": "error", "WS010": "warning", "WS004": "error"},
          "rule_paths": {"WS022": ["legacy/**", "!legacy/keep.cs"]}, "require_suppression_reason": true})");
  REQUIRE(c.ok());
  using L = ws::RuleLevel;
  using C = ws::DiagCode;
  // In the order of the codes (JSON objects are read sorted by key).
  CHECK(c->rules.levels == std::vector<std::pair<C, L>>{{C::path_refused, L::error},
                                                        {C::unrouted_file, L::error},
                                                        {C::unresolved_reference, L::warning},
                                                        {C::shadowed_root, L::off}});
  REQUIRE(c->rules.paths_off.size() == 1);
  CHECK(c->rules.paths_off[0].code == C::unused_suppression);
  CHECK(c->rules.paths_off[0].globs.size() == 2);
  CHECK(c->rules.require_suppression_reason);
  auto defaults = parse_workspace_config("{}");
  REQUIRE(defaults.ok());
  CHECK(defaults->rules.levels.empty());
  CHECK(defaults->rules.paths_off.empty());
  CHECK_FALSE(defaults->rules.require_suppression_reason);
}

TEST_CASE("workspace config: the default-protected paths, and 'unprotected' lifting some", "[workspace]") {
  const std::vector<std::string> defaults{"**/.gitattributes", ".gitmodules", ".pre-commit-config.yaml", ".github/",
                                          ".gitlab-ci.yml"};
  CHECK(ws::WorkspaceConfig{}.protected_paths == defaults);
  CHECK(ws::default_protected_paths() == defaults);
  CHECK(ws::default_protected_names() == std::vector<std::string>{".gitattributes", ".gitmodules",
                                                                  ".pre-commit-config.yaml", ".github/",
                                                                  ".gitlab-ci.yml"});
  auto empty = parse_workspace_config("{}");
  REQUIRE(empty.ok());
  CHECK(empty->protected_paths == defaults);

  auto some = parse_workspace_config(R"({"unprotected": [".github/", ".gitattributes"], "protected": ["ops/"]})");
  REQUIRE(some.ok());
  CHECK(some->protected_paths ==
        std::vector<std::string>{".gitmodules", ".pre-commit-config.yaml", ".gitlab-ci.yml", "ops/"});

  auto all = parse_workspace_config(
      R"({"unprotected": [".gitattributes", ".gitmodules", ".pre-commit-config.yaml", ".github/", ".gitlab-ci.yml"]})");
  REQUIRE(all.ok());
  CHECK(all->protected_paths.empty());
}

namespace {

// The refusals several keys share, each naming the key (and code) refused.
std::string no_code(const std::string& key) {
  return "invalid .ws/config.json: '" + key + "' names no diagnostic code; the codes are WS001 to WS025 " +
         "(ws-build(1), DIAGNOSTICS)";
}
std::string not_a_level(const std::string& key) {
  return "invalid .ws/config.json: '" + key + "' must be \"off\", \"note\", \"warning\" or \"error\"";
}
std::string may_not_lower(const std::string& key, const std::string& code) {
  return "invalid .ws/config.json: '" + key + "' may not lower " + code +
         ": it guards a trust boundary (ws(7), RULES, lists the codes no config can tune)";
}
std::string not_default_protected(const std::string& path) {
  return "invalid .ws/config.json: 'unprotected' may name only default-protected paths (.gitattributes, .gitmodules, "
         ".pre-commit-config.yaml, .github/, .gitlab-ci.yml), not '" + path + "'";
}

}  // namespace

TEST_CASE("workspace config: each refusal names the rule", "[workspace]") {
  struct Case {
    const char* text;
    std::string message;
  };
  const Case cases[] = {
      {"{", "invalid .ws/config.json: not valid JSON"},
      // A number beyond double range: not JSON we can read, not "not an object".
      {R"({"size_cap": 1E400})", "invalid .ws/config.json: not valid JSON"},
      {"[]", "invalid .ws/config.json: not a JSON object"},
      {R"({"unrouted": "maybe"})",
       "invalid .ws/config.json: 'unrouted' must be \"error\", \"warning\" or \"ignore\""},
      {R"({"protected": "ops/"})", "invalid .ws/config.json: 'protected' must be an array of paths"},
      {R"({"protected": [""]})", "invalid .ws/config.json: 'protected' entries must be non-empty strings"},
      {R"({"size_cap": 0})", "invalid .ws/config.json: 'size_cap' must be a positive number of bytes"},
      {R"({"size_cap": -1})", "invalid .ws/config.json: 'size_cap' must be a positive number of bytes"},
      {R"({"colour": true})",
       "invalid .ws/config.json: unknown key 'colour'; allowed: unrouted, ignore, protected, unprotected, size_cap, "
       "approval, rules, rule_paths, require_suppression_reason"},
      // The rule keys (ws(7), RULES): one line naming the key; trust-boundary codes are never lowered.
      {R"({"rules": ["WS014"]})",
       "invalid .ws/config.json: 'rules' must be an object of codes and levels, as {\"WS014\": \"off\"}"},
      {R"({"rules": {"WS999": "off"}})", no_code("rules.WS999")},
      {R"({"rules": {"ws014": "off"}})", no_code("rules.ws014")},
      {R"({"rules": {"WS014": "silent"}})", not_a_level("rules.WS014")},
      {R"({"rules": {"WS014": false}})", not_a_level("rules.WS014")},
      {R"({"rules": {"WS004": "off"}})", may_not_lower("rules.WS004", "WS004")},
      {R"({"rules": {"WS017": "warning"}})", may_not_lower("rules.WS017", "WS017")},
      {R"({"rules": {"WS023": "note"}})", may_not_lower("rules.WS023", "WS023")},
      {R"({"rule_paths": {"WS012": ["legacy/**"]}})", may_not_lower("rule_paths.WS012", "WS012")},
      {R"({"rule_paths": {"WS014": []}})",
       "invalid .ws/config.json: 'rule_paths.WS014' must be a non-empty array of paths or globs"},
      {R"({"rule_paths": {"WS014": [1]}})", "invalid .ws/config.json: 'rule_paths.WS014' entries must be strings"},
      {R"({"rule_paths": {"WS014": ["a/../b"]}})",
       "invalid .ws/config.json: 'rule_paths.WS014' pattern 'a/../b' has an empty, '.' or '..' segment; write a "
       "path relative to the workspace root"},
      {R"({"rule_paths": ["WS014"]})",
       "invalid .ws/config.json: 'rule_paths' must be an object of codes and path lists, as {\"WS014\": "
       "[\"legacy/**\"]}"},
      {R"({"require_suppression_reason": "yes"})",
       "invalid .ws/config.json: 'require_suppression_reason' must be true or false"},
      {R"({"ignore": ["ok", "x/./y"]})",
       "invalid .ws/config.json: 'ignore' pattern 'x/./y' has an empty, '.' or '..' segment; write a path relative "
       "to the workspace root"},
      {R"({"ignore": [3]})", "invalid .ws/config.json: 'ignore' entries must be non-empty strings"},
      {R"({"unprotected": ".github/"})", "invalid .ws/config.json: 'unprotected' must be an array of paths"},
      {R"({"unprotected": [7]})", "invalid .ws/config.json: 'unprotected' entries must be non-empty strings"},
      // Only a default can be lifted: never .git/, .secrets/, .ws/ or a path the workspace protects.
      {R"({"unprotected": [".secrets/"]})", not_default_protected(".secrets/")},
      {R"({"unprotected": [".github"]})", not_default_protected(".github")},
      {R"({"unprotected": ["**/.gitattributes"]})", not_default_protected("**/.gitattributes")},
      {R"({"approval": true})", "invalid .ws/config.json: 'approval' must be an object"},
      {R"({"approval": {"distinct_approver": "yes"}})",
       "invalid .ws/config.json: 'approval.distinct_approver' must be true or false"},
      {R"({"approval": {"distinct_approver": 1}})",
       "invalid .ws/config.json: 'approval.distinct_approver' must be true or false"},
      {R"({"approval": {"distinct_approvers": true}})",
       "invalid .ws/config.json: unknown key 'approval.distinct_approvers'; allowed in 'approval': distinct_approver"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto r = parse_workspace_config(c.text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == c.message);
    CHECK(r.error().subject == ".ws/config.json");
  }
}
