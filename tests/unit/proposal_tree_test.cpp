// Writing a proposal's tree folder by folder must give the tree libgit2's
// git_tree_create_updated gives for the same edits.
#include <catch2/catch.hpp>

#include <cstring>

#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "proposal_internal.h"
#include "support/temp_repo.h"

namespace {

struct Edit {
  std::string path;
  const char* bytes;  // null: remove
  bool exec = false;
};

// `libgit2`: also compare with git_tree_create_updated, which cannot
// replace a file by a folder.
std::string both_ways(const wstest::TempRepo& repo, const std::vector<Edit>& edits, bool libgit2 = true) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  git_repository* g = r->raw();
  git_oid head;
  REQUIRE(git_reference_name_to_id(&head, g, "HEAD") == 0);
  git_commit* c = nullptr;
  REQUIRE(git_commit_lookup(&c, g, &head) == 0);
  ws::git::Commit commit(c);
  git_tree* t = nullptr;
  REQUIRE(git_commit_tree(&t, c) == 0);
  ws::git::Tree base(t);

  std::vector<ws::proposal::TreeEdit> ours;
  std::vector<git_tree_update> theirs;
  for (const auto& e : edits) {
    ws::proposal::TreeEdit te;
    te.path = e.path;
    te.remove = !e.bytes;
    if (e.bytes) REQUIRE(git_blob_create_from_buffer(&te.id, g, e.bytes, std::strlen(e.bytes)) == 0);
    te.mode = e.exec ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
    ours.push_back(te);
  }
  for (const auto& te : ours) {
    git_tree_update u{};
    u.action = te.remove ? GIT_TREE_UPDATE_REMOVE : GIT_TREE_UPDATE_UPSERT;
    u.id = te.id;
    u.filemode = static_cast<git_filemode_t>(te.mode);
    u.path = te.path.c_str();
    theirs.push_back(u);
  }
  auto got = ws::proposal::write_edited_tree(g, base.get(), ours);
  REQUIRE(got.ok());
  if (libgit2) {
    git_oid expected;
    int rc = git_tree_create_updated(&expected, g, base.get(), theirs.size(), theirs.data());
    INFO((git_error_last() ? git_error_last()->message : ""));
    REQUIRE(rc == 0);
    CHECK(ws::git::to_hex(*got) == ws::git::to_hex(expected));
  }
  return ws::git::to_hex(*got);
}

}  // namespace

TEST_CASE("a proposal tree written folder by folder equals git_tree_create_updated's", "[proposal]") {
  wstest::TempRepo repo;
  repo.write("agents/AGa.json", "a\n");
  repo.write("agents/AGb.json", "b\n");
  repo.write("agents/deep/er/AGc.json", "c\n");
  repo.write("agents/deep/er/AGd.json", "d\n");
  repo.write("agents-x.json", "x\n");
  repo.write("agents.d/y.json", "y\n");
  repo.write("tasks/gone/TKg.json", "g\n");
  repo.write("tasks/TKt.json", "t\n");
  repo.write("swap", "a file\n");
  repo.commit_all("base");

  both_ways(repo, {{"agents/AGa.json", "a2\n"}});                                    // modify
  both_ways(repo, {{"agents/AGb.json", nullptr}, {"agents/new/deeper/AGn.json", "n\n"}});  // delete, nested add
  both_ways(repo, {{"tasks/gone/TKg.json", nullptr}});                               // a folder emptied
  both_ways(repo, {{"agents/deep/er/AGc.json", nullptr}, {"agents/deep/er/AGd.json", nullptr}});
  both_ways(repo, {{"agents/AGa.json", "a\n", true}});                               // mode only
  both_ways(repo, {{"agents-x.json", "x2\n"}, {"agents/AGa.json", "a3\n"}, {"agents.d/z.json", "z\n"},
                   {"agents/AGa.json-", "dash\n"}, {"top.json", "t\n"}, {"agents/deep/er/AGc.json", nullptr},
                   {"agents/deep/AGmoved.json", "c\n"}});
  // A file replaced by a folder: the tree git itself commits.
  std::string swapped = both_ways(repo, {{"swap", nullptr}, {"swap/inside.json", "i\n"}}, false);
  repo.remove("swap");
  repo.write("swap/inside.json", "i\n");
  repo.commit_all("swap");
  CHECK(swapped == wstest::chomp(repo.git({"rev-parse", "HEAD^{tree}"})));
  // And back.
  std::string back = both_ways(repo, {{"swap/inside.json", nullptr}, {"swap", "a file\n"}}, false);
  repo.git({"rm", "-r", "-q", "swap"});
  repo.write("swap", "a file\n");
  repo.commit_all("swap back");
  CHECK(back == wstest::chomp(repo.git({"rev-parse", "HEAD^{tree}"})));
}

TEST_CASE("a proposal tree from nothing, and one with nothing left", "[proposal]") {
  wstest::TempRepo repo;
  repo.write("only.json", "o\n");
  repo.commit_all("base");
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  git_repository* g = r->raw();
  ws::proposal::TreeEdit add;
  add.path = "a/b.json";
  REQUIRE(git_blob_create_from_buffer(&add.id, g, "b\n", 2) == 0);
  add.mode = GIT_FILEMODE_BLOB;
  auto fresh = ws::proposal::write_edited_tree(g, nullptr, {add});
  REQUIRE(fresh.ok());
  git_tree* t = nullptr;
  REQUIRE(git_tree_lookup(&t, g, &*fresh) == 0);
  ws::git::Tree tree(t);
  CHECK(git_tree_entrycount(t) == 1);
  CHECK(std::string(git_tree_entry_name(git_tree_entry_byindex(t, 0))) == "a");

  CHECK(both_ways(repo, {{"only.json", nullptr}}) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904");  // the empty tree
}

TEST_CASE("a folder with many edits, and a tree at the depth cap, equal git_tree_create_updated's",
          "[proposal][tree-walk]") {
  // Past a few edits a folder's entries are looked up through an index
  // (proposal_tree.cpp, FolderIndex): modify, delete and add among 600
  // entries whose names share prefixes ("f1", "f10", "f100"), beside
  // folders of the same stems, so that a lookup by the wrong kind shows.
  wstest::TempRepo repo;
  for (int i = 0; i < 600; ++i) repo.write("many/f" + std::to_string(i) + ".json", "v" + std::to_string(i) + "\n");
  for (int i = 0; i < 20; ++i) repo.write("many/f" + std::to_string(i) + "/in.json", "d\n");
  std::string deep;
  for (int i = 0; i < ws::kMaxPathDepth - 1; ++i) deep += "d/";
  repo.write(deep + "leaf.json", "leaf\n");
  repo.commit_all("base");

  std::vector<Edit> edits;
  std::vector<std::string> texts;
  texts.reserve(1000);
  for (int i = 0; i < 600; i += 3) {
    texts.push_back("changed " + std::to_string(i) + "\n");
    edits.push_back({"many/f" + std::to_string(i) + ".json", texts.back().c_str()});
  }
  for (int i = 1; i < 600; i += 7)
    if (i % 3 != 0) edits.push_back({"many/f" + std::to_string(i) + ".json", nullptr});
  for (int i = 600; i < 700; ++i) edits.push_back({"many/f" + std::to_string(i) + ".json", "new\n"});
  for (int i = 0; i < 20; i += 2) edits.push_back({"many/f" + std::to_string(i) + "/in.json", nullptr});
  edits.push_back({"many/f5/more.json", "more\n"});
  both_ways(repo, edits);

  // 255 folders down, the deepest the path policy allows, and back out.
  both_ways(repo, {{deep + "leaf.json", "leaf 2\n"}, {deep + "other.json", "o\n"}});
  both_ways(repo, {{deep + "leaf.json", nullptr}});
}
