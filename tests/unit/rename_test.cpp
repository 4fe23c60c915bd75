// plan_rename and apply_rename (rename.h) with a writer in between, and the
// write discipline under them (WorkspaceRoot::replace_all): a file changed
// after it was read, a folder swapped for a link, modes kept, no temporary
// file left behind.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

#include "libcheck/compile.h"
#include "libcheck/rename.h"
#include "libcheck/workspace.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::TempRepo;

namespace {

ws::Workspace open(const TempRepo& repo) {
  ws::OpenOptions o;
  o.dir = repo.path();
  o.kinds_dir = std::string(WS_SOURCE_DIR) + "/schemas/kinds";
  auto w = ws::open_workspace(o);
  REQUIRE(w.ok());
  return std::move(w).value();
}

}  // namespace

TEST_CASE("apply_rename: a referrer changed after the plan was read: refused, nothing written", "[rename]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  auto w = open(repo);
  auto plan = ws::plan_rename(w, {"agent", "Billing", "Payments"}, nullptr);
  REQUIRE(plan.ok());
  REQUIRE(plan->files.size() == 4);
  // Another writer edits one referrer, keeping its length.
  repo.replace("agents/AGtriage01.json", "\"model\": \"small\"", "\"model\": \"large\"");
  auto before = wstest::tree_bytes(repo);
  auto done = ws::apply_rename(w, *plan);
  REQUIRE(!done.ok());
  CHECK(done.error().code == ws::Errc::refused);
  CHECK(done.error().message ==
        "refused to write 'agents/AGtriage01.json': the file changed since it was read; nothing was changed, run the "
        "command again");
  CHECK(wstest::tree_bytes(repo) == before);
}

TEST_CASE("apply_rename: a folder swapped for a link after the plan: refused, nothing written", "[rename]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  auto w = open(repo);
  auto plan = ws::plan_rename(w, {"agent", "Billing", "Payments"}, nullptr);
  REQUIRE(plan.ok());
  wstest::TempDir outside;
  fs::rename(repo.abs("ai-tools"), outside.path() + "/ai-tools");
  fs::create_directory_symlink(outside.path() + "/ai-tools", repo.abs("ai-tools"));
  std::string outside_before = repo.read("../" + fs::relative(outside.path() + "/ai-tools/TLroute01.cs", repo.path()).string());
  auto before = wstest::tree_bytes(repo);
  auto done = ws::apply_rename(w, *plan);
  REQUIRE(!done.ok());
  CHECK(done.error().rule == ws::Rule::symlink);
  CHECK(done.error().message.rfind("refused path 'ai-tools/TLroute01.cs': symlink", 0) == 0);
  CHECK(wstest::tree_bytes(repo) == before);
  CHECK(repo.read("../" + fs::relative(outside.path() + "/ai-tools/TLroute01.cs", repo.path()).string()) ==
        outside_before);
}

TEST_CASE("replace_all: the mode kept, every file replaced, no temporary file left", "[rename]") {
  TempRepo repo;
  repo.write("a/one.txt", "one\n");
  repo.write("b/c/two.txt", "two\n");
  repo.write("top.txt", "top\n");
  REQUIRE(::chmod(repo.abs("b/c/two.txt").c_str(), 0755) == 0);
  auto root = ws::WorkspaceRoot::open(repo.path(), "");
  REQUIRE(root.ok());
  auto done = root->replace_all({{"a/one.txt", "one\n", "ONE\n"}, {"b/c/two.txt", "two\n", "TWO\n"},
                                 {"top.txt", "top\n", "TOP\n"}});
  REQUIRE(done.ok());
  CHECK(wstest::tree_bytes(repo) == std::map<std::string, std::string>{
                              {"a/one.txt", "ONE\n"}, {"b/c/two.txt", "TWO\n"}, {"top.txt", "TOP\n"}});
  struct stat st;
  REQUIRE(::stat(repo.abs("b/c/two.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0755);
  REQUIRE(::stat(repo.abs("a/one.txt").c_str(), &st) == 0);
  CHECK(st.st_nlink == 1);

  // The last file differs from what was expected: none is replaced.
  auto refused = root->replace_all({{"a/one.txt", "ONE\n", "1\n"}, {"top.txt", "top\n", "T\n"}});
  REQUIRE(!refused.ok());
  CHECK(refused.error().message ==
        "refused to write 'top.txt': the file changed since it was read; nothing was changed, run the command again");
  CHECK(wstest::tree_bytes(repo) == std::map<std::string, std::string>{
                              {"a/one.txt", "ONE\n"}, {"b/c/two.txt", "TWO\n"}, {"top.txt", "TOP\n"}});
}
