// Pathspecs as git takes them (ws(7), PATHSPECS): from the current folder,
// ':/' from the root, '.' and '..' resolved as text, the current folder's own
// path matched literally; and paths shown from the current folder.
#include <catch2/catch.hpp>

#include "libcheck/pathspec.h"

using ws::parse_pathspec;
using ws::path_from_prefix;
using ws::PathPrefix;

TEST_CASE("pathspec: resolved against the current folder", "[pathspec]") {
  const PathPrefix agents{"agents/"};
  struct Row {
    const char* arg;
    const char* text;
  };
  const Row rows[] = {
      {"a.json", "agents/a.json"}, {".", "agents"},        {"./", "agents"},
      {"..", ""},                  {":/", ""},             {":/prompts/", "prompts"},
      {"../prompts", "prompts"},   {"x/../y", "agents/y"}, {".//a.json", "agents/a.json"},
  };
  for (const auto& row : rows) {
    INFO(row.arg);
    auto s = parse_pathspec(row.arg, agents);
    REQUIRE(s.ok());
    CHECK(s->text == row.text);
    CHECK(s->arg == row.arg);
  }
  for (const char* out : {"../..", ":/..", "../../agents", "x/../../.."}) {
    INFO(out);
    auto s = parse_pathspec(out, agents);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == ws::Errc::usage);
    CHECK(s.error().rule == ws::Rule::outside_root);
  }
  auto empty = parse_pathspec("", agents);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().rule == ws::Rule::empty);
  auto absolute = parse_pathspec("/etc/passwd", agents);
  REQUIRE_FALSE(absolute.ok());
  CHECK(absolute.error().rule == ws::Rule::absolute);
  auto git = parse_pathspec("../.git/config", agents);
  REQUIRE_FALSE(git.ok());
  CHECK(git.error().rule == ws::Rule::git_dir);
}

TEST_CASE("pathspec: the current folder's path is never a glob", "[pathspec]") {
  const PathPrefix odd{"a[1]/"};
  auto all = parse_pathspec("*.json", odd);
  REQUIRE(all.ok());
  CHECK(all->glob);
  CHECK(ws::pathspec_matches(*all, "a[1]/x.json"));
  CHECK(ws::pathspec_matches(*all, "a[1]/deep/x.json"));  // '*' matches '/', as in git
  CHECK_FALSE(ws::pathspec_matches(*all, "a1/x.json"));
  auto here = parse_pathspec(".", odd);
  REQUIRE(here.ok());
  CHECK_FALSE(here->glob);
  CHECK(ws::pathspec_matches(*here, "a[1]/x"));
  CHECK_FALSE(ws::pathspec_matches(*here, "a1/x"));
  auto implicit = ws::or_current_folder({}, odd);
  REQUIRE(implicit.size() == 1);
  CHECK(implicit[0].arg.empty());
  CHECK(ws::pathspec_matches(implicit[0], "a[1]/x"));
  CHECK_FALSE(ws::pathspec_matches(implicit[0], "a1/x"));
  CHECK(ws::or_current_folder({}, PathPrefix{}).empty());
}

TEST_CASE("pathspec: paths shown from the current folder as git shows them", "[pathspec]") {
  CHECK(path_from_prefix("agents/a.json", PathPrefix{}) == "agents/a.json");
  CHECK(path_from_prefix("agents/a.json", PathPrefix{"agents/"}) == "a.json");
  CHECK(path_from_prefix("prompts/p.md", PathPrefix{"agents/"}) == "../prompts/p.md");
  CHECK(path_from_prefix("README.md", PathPrefix{"access/groups/"}) == "../../README.md");
  CHECK(path_from_prefix("access/grants/g.json", PathPrefix{"access/groups/"}) == "../grants/g.json");
  CHECK(path_from_prefix("agentsx/a.json", PathPrefix{"agents/"}) == "../agentsx/a.json");
}

TEST_CASE("pathspec: one message for a pathspec that matched nothing", "[pathspec]") {
  auto s = parse_pathspec("agnets", PathPrefix{"x/"});
  REQUIRE(s.ok());
  auto e = ws::unmatched_pathspec(*s);
  CHECK(e.code == ws::Errc::usage);
  CHECK(e.message == "pathspec 'agnets' did not match any file");
}
