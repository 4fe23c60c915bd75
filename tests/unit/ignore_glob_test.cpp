// The "ignore" globs of .ws/config.json match as gitignore(5) patterns do
// (the e2e test compares them with git check-ignore; these pin the rules).
#include <catch2/catch.hpp>

#include "libcheck/ignore_glob.h"

using ws::IgnoreGlob;
using ws::is_ignored_path;
using ws::parse_ignore_glob;

namespace {

std::vector<IgnoreGlob> globs(std::initializer_list<const char*> texts) {
  std::vector<IgnoreGlob> out;
  for (const char* t : texts) {
    auto g = parse_ignore_glob(t);
    REQUIRE(g.ok());
    out.push_back(*g);
  }
  return out;
}

}  // namespace

TEST_CASE("ignore globs: names, anchors, folders, stars and negation", "[ignore-glob]") {
  struct Row {
    std::initializer_list<const char*> patterns;
    const char* path;
    bool ignored;
  };
  const Row rows[] = {
      {{"*.bak"}, "a/b/c.bak", true},
      {{"*.bak"}, "a.bak/c.txt", true},  // a folder named so, and all inside it
      {{"notes"}, "x/notes/y", true},
      {{"notes"}, "x/notes", true},
      {{"/notes"}, "x/notes", false},
      {{"/notes"}, "notes/y", true},
      {{"a/b"}, "x/a/b", false},  // a '/' in the middle anchors
      {{"a/b"}, "a/b/c", true},
      {{"build/"}, "build", false},  // folders only
      {{"build/"}, "x/build/y", true},
      {{"a/*/c"}, "a/b/c", true},
      {{"a/*/c"}, "a/b/b/c", false},  // '*' never crosses '/'
      {{"a/**/c"}, "a/c", true},
      {{"a/**/c"}, "a/b/b/c", true},
      {{"**/tmp"}, "tmp/x", true},
      {{"**/tmp"}, "a/b/tmp", true},
      {{"drafts/**"}, "drafts", false},  // what is inside, not the folder
      {{"drafts/**"}, "drafts/a/b", true},
      {{"a?c"}, "abc", true},
      {{"a?c"}, "a/c", false},
      {{"[xy]z"}, "q/yz", true},
      {{"\\!x"}, "!x", true},
      {{"*.txt", "!keep.txt"}, "a/keep.txt", false},
      {{"*.txt", "!keep.txt"}, "a/other.txt", true},
      {{"out/", "!out/keep.txt"}, "out/keep.txt", true},  // a folder ignored stays ignored
      {{"!x", "x"}, "x", true},                           // the last match decides
  };
  for (const auto& row : rows) {
    std::string shown;
    for (const char* p : row.patterns) shown += std::string(p) + " ";
    INFO(shown << "vs " << row.path);
    CHECK(is_ignored_path(globs(row.patterns), row.path) == row.ignored);
  }
  CHECK_FALSE(is_ignored_path({}, "anything"));
}

TEST_CASE("ignore globs: a pattern that names nothing or leaves the root is refused", "[ignore-glob]") {
  const std::pair<const char*, const char*> rows[] = {
      {"", "names nothing; write a file or folder name, or a glob"},
      {"/", "names nothing; write a file or folder name, or a glob"},
      {"!", "names nothing; write a file or folder name, or a glob"},
      {"a//b", "has an empty, '.' or '..' segment; write a path relative to the workspace root"},
      {"./a", "has an empty, '.' or '..' segment; write a path relative to the workspace root"},
      {"a/../../b", "has an empty, '.' or '..' segment; write a path relative to the workspace root"},
      {"a\tb", "holds a control character"},
  };
  for (const auto& [text, why] : rows) {
    INFO(text);
    auto g = parse_ignore_glob(text);
    REQUIRE_FALSE(g.ok());
    CHECK(g.error().code == ws::Errc::invalid);
    CHECK(g.error().message == "invalid .ws/config.json: 'ignore' pattern '" + std::string(text) + "' " + why);
  }
}

TEST_CASE("ignore globs: a deep path against many '**' is answered", "[ignore-glob]") {
  std::string path;
  for (int i = 0; i < 256; ++i) path += "d/";
  path += "f";
  auto g = globs({"**/**/**/**/**/**/**/**/x/**/**/**/**/y"});
  CHECK_FALSE(is_ignored_path(g, path));
}
