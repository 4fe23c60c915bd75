// The named rules an Error carries (libcheck/result.h): one enum, one table
// of names, and no caller that asks which rule refused by comparing text.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "libcheck/path_policy.h"
#include "libcheck/result.h"
#include "libcheck/workspace_root.h"
#include "support/source_scan.h"

namespace fs = std::filesystem;

namespace {

// The first place `src` tells a rule by its text: a rule compared with a
// literal or with a name from a table, either way round, or a rule asked
// whether it is empty.
std::string rule_compared_as_text(const std::string& src) {
  static const std::regex text_rule(
      R"(\brule\s*[!=]=\s*"|"\s*[!=]=\s*[\w.>()-]*\brule\b|\brule\s*[!=]=\s*\w*rule_name\(|rule_name\([^;]*\)\s*[!=]=|\brule\.empty\(\))");
  std::smatch m;
  std::string code = wstest::strip_comments(src, wstest::Literals::keep);
  return std::regex_search(code, m, text_rule) ? m.str() : "";
}

}  // namespace

TEST_CASE("rule_name gives every rule its one user-visible name", "[rule]") {
  using ws::Rule;
  const std::vector<std::pair<Rule, std::string>> names = {
      {Rule::none, ""}, {Rule::empty, "empty"}, {Rule::unc_prefix, "unc-prefix"},
      {Rule::drive_prefix, "drive-prefix"}, {Rule::absolute, "absolute"}, {Rule::dot_component, "dot-component"},
      {Rule::backslash, "backslash"}, {Rule::control_char, "control-char"}, {Rule::git_dir, "git-dir"},
      {Rule::secret, "secret"}, {Rule::protected_path, "protected-path"}, {Rule::too_long, "too-long"},
      {Rule::symlink, "symlink"}, {Rule::special_file, "special-file"}, {Rule::hard_link, "hard-link"},
      {Rule::too_large, "too-large"}, {Rule::not_found, "not-found"}, {Rule::io, "io"},
      {Rule::mount_point, "mount-point"}, {Rule::submodule, "submodule"}, {Rule::outside_root, "outside-root"},
      {Rule::pathspec, "pathspec"}, {Rule::glob, "glob"}, {Rule::pattern, "pattern"}, {Rule::symbol, "symbol"},
      {Rule::count, "count"}, {Rule::reason, "reason"}, {Rule::not_a_folder, "not-a-folder"},
      {Rule::exists, "exists"}, {Rule::malformed_tree, "malformed-tree"}, {Rule::empty_folder, "empty-folder"},
      {Rule::missing_object, "missing-object"}, {Rule::object_type, "object-type"},
      {Rule::entry_name, "entry-name"}, {Rule::mode, "mode"}, {Rule::duplicate_name, "duplicate-name"},
      {Rule::tree_order, "tree-order"}, {Rule::policy_change, "policy-change"}, {Rule::locked, "locked"},
      {Rule::distinct_approver, "distinct-approver"}, {Rule::record_exists, "record-exists"},
      {Rule::interrupted_apply, "interrupted-apply"}, {Rule::running, "running"},
      {Rule::checked_out_elsewhere, "checked-out-elsewhere"}, {Rule::staged, "staged"},
      {Rule::content_changed, "content-changed"}, {Rule::token, "token"},
      {Rule::not_a_definition, "not-a-definition"}};
  // Every enumerator, in order: a new rule without a name here fails.
  REQUIRE(names.size() == static_cast<std::size_t>(Rule::not_a_definition) + 1);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO("rule " << i);
    CHECK(static_cast<std::size_t>(names[i].first) == i);
    CHECK(ws::rule_name(names[i].first) == names[i].second);
    CHECK(seen.insert(names[i].second).second);
  }
  CHECK(ws::make_error(ws::Errc::usage, "m").rule == Rule::none);
}

TEST_CASE("path and file rules convert to the shared enum and keep their names", "[rule]") {
  for (int r = 0; r <= static_cast<int>(ws::PathRule::too_long); ++r) {
    auto rule = static_cast<ws::PathRule>(r);
    INFO("path rule " << r);
    CHECK(static_cast<int>(ws::to_rule(rule)) == static_cast<int>(ws::Rule::empty) + r);
    CHECK(std::string(ws::path_rule_name(rule)) == ws::rule_name(ws::to_rule(rule)));
  }
  for (int r = 0; r <= static_cast<int>(ws::FileRule::mount_point); ++r) {
    auto rule = static_cast<ws::FileRule>(r);
    INFO("file rule " << r);
    CHECK(static_cast<int>(ws::to_rule(rule)) == static_cast<int>(ws::Rule::symlink) + r);
    CHECK(std::string(ws::file_rule_name(rule)) == ws::rule_name(ws::to_rule(rule)));
  }
  CHECK(ws::depth_cap_error("a/b").rule == ws::Rule::too_long);
  CHECK(ws::too_large_error("a", 2, 1).rule == ws::Rule::too_large);
}

TEST_CASE("the scan finds a rule told by its text", "[rule]") {
  CHECK(rule_compared_as_text(R"(if (e.rule == "too-large") x();)") == R"(rule == ")");
  CHECK(rule_compared_as_text(R"(ok = err.rule != "record-exists";)") == R"(rule != ")");
  CHECK(rule_compared_as_text(R"(if ("symlink" == why.rule) x();)") == R"(" == why.rule)");
  CHECK(rule_compared_as_text("if (rule == path_rule_name(PathRule::secret)) x();") == "rule == path_rule_name(");
  CHECK(rule_compared_as_text("if (!e.rule.empty()) x();") == "rule.empty()");
  CHECK(rule_compared_as_text("if (e.rule == Rule::too_large) x();").empty());
  CHECK(rule_compared_as_text("// once: rule == \"too-large\"\nx();").empty());
}

TEST_CASE("no source of libcheck or the tools tells a rule by its text", "[rule]") {
  std::size_t files = 0;
  for (const char* dir : {"libcheck", "tools"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(WS_SOURCE_DIR) / dir)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
      ++files;
      INFO(entry.path().string());
      CHECK(rule_compared_as_text(wstest::read_file(entry.path())) == "");
    }
  }
  CHECK(files > 50);
}
