// index_tree_id against `git write-tree` on indexes git wrote, in tree
// shapes where git's folder order and a plain path sort could part ways.
#include <catch2/catch.hpp>

#include <filesystem>

#include "index_file.h"
#include "index_tree.h"
#include "support/temp_repo.h"

using ws::detail::IndexFile;
using wstest::TempRepo;

namespace {

std::string hex(const std::array<unsigned char, 20>& id) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned char c : id) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

std::optional<std::string> computed(const TempRepo& repo) {
  IndexFile index = IndexFile::read(repo.abs(".git/index"));
  INFO("index: " << static_cast<int>(index.state()) << " " << index.reason());
  REQUIRE(index.state() != IndexFile::State::unsupported);
  auto id = ws::detail::index_tree_id(index);
  if (!id) return std::nullopt;
  return hex(*id);
}

// Files whose names sort around a folder of a similar name: "a", "a-b",
// "a.b", "a/x", "a0", "ab", nested folders, an executable and a symlink.
void shapes(const TempRepo& repo) {
  for (const char* p : {"a-b", "a.b", "a/x", "a/b/c", "a/b-c/d", "a0", "ab", "b/a.json", "b/a/x.json",
                        "deep/er/and/deeper/file", "z"})
    repo.write(p, std::string("bytes of ") + p + "\n");
  std::filesystem::permissions(repo.abs("a0"), std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  std::filesystem::create_symlink("z", repo.abs("link"));
}

}  // namespace

TEST_CASE("index tree: the id git write-tree gives, whatever the cache tree says", "[index-tree]") {
  TempRepo repo;
  shapes(repo);
  repo.git({"add", "-A"});
  std::string expected = wstest::chomp(repo.git({"write-tree"}));
  CHECK(computed(repo).value_or("none") == expected);
  CHECK(repo.git({"ls-files", "-s", "a0"}).substr(0, 7) == "100755 ");
  CHECK(repo.git({"ls-files", "-s", "link"}).substr(0, 7) == "120000 ");
  repo.commit_all("shapes");
  CHECK(wstest::chomp(repo.git({"rev-parse", "HEAD^{tree}"})) == expected);
  // git reset rewrites the index from the tree and leaves its cache tree
  // invalid: the id is computed from the entries, and still git's.
  repo.git({"reset", "-q", "HEAD"});
  CHECK(computed(repo).value_or("none") == expected);
  // A staged change moves it, as it moves git's.
  repo.write("a/b/c", "changed\n");
  repo.git({"add", "a/b/c"});
  std::string staged = wstest::chomp(repo.git({"write-tree"}));
  CHECK(staged != expected);
  CHECK(computed(repo).value_or("none") == staged);
  repo.git({"rm", "-q", "--cached", "a-b"});
  CHECK(computed(repo).value_or("none") == wstest::chomp(repo.git({"write-tree"})));
}

TEST_CASE("index tree: an empty index is the empty tree", "[index-tree]") {
  TempRepo repo;
  repo.write("x", "x\n");
  repo.git({"add", "x"});
  repo.git({"rm", "-q", "--cached", "x"});
  CHECK(computed(repo).value_or("none") == "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
}

TEST_CASE("index tree: a conflict or an intent-to-add entry has no tree", "[index-tree]") {
  TempRepo repo;
  repo.write("f", "base\n");
  repo.commit_all("base");
  repo.write("new", "new\n");
  repo.git({"add", "-N", "new"});
  CHECK_FALSE(computed(repo));
  repo.git({"rm", "-q", "--cached", "new"});
  CHECK(computed(repo));
  repo.git({"checkout", "-q", "-b", "other"});
  repo.write("f", "other\n");
  repo.commit_all("other");
  repo.git({"checkout", "-q", "main"});
  repo.write("f", "main\n");
  repo.commit_all("main");
  CHECK(repo.git_result({"merge", "-q", "other"}).status != 0);  // f conflicts
  CHECK_FALSE(computed(repo));
}
