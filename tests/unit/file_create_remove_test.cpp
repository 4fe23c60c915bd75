// WorkspaceRoot::create_new and remove_if_holds (workspace_root.h): a file
// created only where no file is, removed only while it holds the bytes
// shown, each confined beneath the root and leaving no temporary behind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "libcheck/workspace_root.h"
#include "support/source_scan.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

// Every name beneath `dir`, sorted, one a line ("a/", "a/b.json").
std::string names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    out.push_back(e.path().lexically_relative(dir).string() + (e.is_directory() && !e.is_symlink() ? "/" : ""));
  std::sort(out.begin(), out.end());
  std::string s;
  for (const auto& n : out) s += n + "\n";
  return s;
}

ws::Rule rule_of(const ws::Status& st) { return st ? ws::Rule::none : st.error().rule; }

}  // namespace

TEST_CASE("create_new makes the file and its folders, and never replaces one", "[fs][create]") {
  wstest::TempDir tmp;
  auto root = ws::WorkspaceRoot::open(tmp.path(), "");
  REQUIRE(root.ok());
  REQUIRE(root->create_new("prompts/new/PRa.md", "---\nname: A\n---\n").ok());
  CHECK(wstest::read_file(tmp.path() + "/prompts/new/PRa.md") == "---\nname: A\n---\n");
  CHECK(rule_of(root->create_new("prompts/new/PRa.md", "other")) == ws::Rule::exists);
  CHECK(wstest::read_file(tmp.path() + "/prompts/new/PRa.md") == "---\nname: A\n---\n");
  CHECK(rule_of(root->create_new("prompts/PRbig.md", std::string(2000, 'x'), 1000)) == ws::Rule::too_large);
  // Nothing else: no temporary file left by any of them.
  CHECK(names(tmp.path()) == "prompts/\nprompts/new/\nprompts/new/PRa.md\n");
}

TEST_CASE("create_new never writes through a linked folder", "[fs][create]") {
  wstest::TempDir tmp, outside;
  fs::create_directory_symlink(outside.path(), tmp.path() + "/agents");
  auto root = ws::WorkspaceRoot::open(tmp.path(), "");
  REQUIRE(root.ok());
  CHECK(rule_of(root->create_new("agents/AGx.json", "{}")) == ws::Rule::symlink);
  CHECK(rule_of(root->create_new("agents/sub/AGx.json", "{}")) == ws::Rule::symlink);
  CHECK(names(outside.path()) == "");
}

TEST_CASE("remove_if_holds removes the file only while it holds the bytes shown", "[fs][remove]") {
  wstest::TempDir tmp, outside;
  auto root = ws::WorkspaceRoot::open(tmp.path(), "");
  REQUIRE(root.ok());
  fs::create_directory(tmp.path() + "/tasks");
  write(tmp.path() + "/tasks/TKa.json", "old");
  auto changed = root->remove_if_holds("tasks/TKa.json", "older");
  CHECK(rule_of(changed) == ws::Rule::content_changed);
  CHECK(changed.error().message ==
        "refused to delete 'tasks/TKa.json': the file changed since it was read; nothing was changed");
  CHECK(wstest::read_file(tmp.path() + "/tasks/TKa.json") == "old");
  REQUIRE(root->remove_if_holds("tasks/TKa.json", "old").ok());
  CHECK(names(tmp.path()) == "tasks/\n");
  CHECK(rule_of(root->remove_if_holds("tasks/TKa.json", "old")) == ws::Rule::not_found);

  // A link is refused as a link, and stays; so does a file with two names.
  write(outside.path() + "/target", "old");
  fs::create_symlink(outside.path() + "/target", tmp.path() + "/tasks/TKlink.json");
  CHECK(rule_of(root->remove_if_holds("tasks/TKlink.json", "old")) == ws::Rule::symlink);
  fs::create_hard_link(outside.path() + "/target", tmp.path() + "/tasks/TKhard.json");
  CHECK(rule_of(root->remove_if_holds("tasks/TKhard.json", "old")) == ws::Rule::hard_link);
  CHECK(names(tmp.path()) == "tasks/\ntasks/TKhard.json\ntasks/TKlink.json\n");
  CHECK(wstest::read_file(outside.path() + "/target") == "old");
}
