// The merge by side (git/tree_merge.h) gives the tree libgit2's merge
// writes, and git's own (`git merge-tree --write-tree`), whenever it
// answers; it answers exactly when no file changed on both sides; and a
// hand-made tree (a name twice, nesting past the cap) leaves the merge to
// libgit2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "git_util.h"
#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "support/hand_made.h"
#include "support/temp_repo.h"
#include "tree_merge.h"

using wstest::chomp;
using wstest::TempRepo;

namespace {

// The side merge of `ours` and `theirs` from their merge base, as a hex id;
// "" when it leaves the merge to libgit2.
std::string merge_by_side(const TempRepo& repo, const std::string& ours, const std::string& theirs) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto tree = [&](const std::string& rev) {
    git_oid id;
    REQUIRE(ws::git::from_hex(chomp(repo.git({"rev-parse", rev + "^{tree}"})), id));
    git_tree* t = nullptr;
    REQUIRE(git_tree_lookup(&t, r->raw(), &id) == 0);
    return ws::git::Tree(t);
  };
  const std::string base = chomp(repo.git({"merge-base", ours, theirs}));
  auto b = tree(base), o = tree(ours), t = tree(theirs);
  auto merged = ws::git::merge_trees_by_side(r->raw(), b.get(), o.get(), t.get());
  return merged ? ws::git::to_hex(*merged) : "";
}

std::set<std::string> changed_since(const TempRepo& repo, const std::string& from, const std::string& to) {
  std::set<std::string> out;
  for (const auto& l : wstest::lines(repo.git({"diff", "--name-only", "--no-renames", from, to}))) out.insert(l);
  return out;
}

// The tree libgit2's merge of the two commits writes, with renames found,
// as git/merge_result.cpp runs it when the merge by side does not answer.
std::string libgit2_merge(const TempRepo& repo, const std::string& ours, const std::string& theirs) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto commit = [&](const std::string& hex) {
    git_oid id;
    REQUIRE(ws::git::from_hex(hex, id));
    git_commit* c = nullptr;
    REQUIRE(git_commit_lookup(&c, r->raw(), &id) == 0);
    return ws::git::Commit(c);
  };
  auto o = commit(ours), t = commit(theirs);
  git_merge_options opts = GIT_MERGE_OPTIONS_INIT;
  opts.flags = static_cast<git_merge_flag_t>(opts.flags | GIT_MERGE_FIND_RENAMES);
  git_index* raw = nullptr;
  REQUIRE(git_merge_commits(&raw, r->raw(), o.get(), t.get(), &opts) == 0);
  ws::git::Index index(raw);
  REQUIRE(!git_index_has_conflicts(index.get()));
  git_oid tree;
  REQUIRE(git_index_write_tree_to(&tree, index.get(), r->raw()) == 0);
  return ws::git::to_hex(tree);
}

// A random history: a base of files in a few folders, then two branches
// from it that each edit, add, delete and rename some files; `overlap`
// lets the second branch touch the first one's paths.
struct RandomHistory {
  TempRepo repo;
  std::mt19937_64 rng;
  std::vector<std::string> files;

  explicit RandomHistory(std::uint64_t seed) : rng(seed) {
    const std::vector<std::string> folders{"agents", "ai-tools", "prompts", "a/b", "a/b/c", "a/d", "e"};
    for (int i = 0; i < 40; ++i) {
      std::string path = folders[rng() % folders.size()] + "/f" + std::to_string(i) + ".txt";
      repo.write(path, "line 1\nline 2 of " + path + "\nline 3\n");
      files.push_back(path);
    }
    repo.commit_all("base");
  }

  std::string branch(const std::string& name, const std::vector<std::string>& pool, std::set<std::string>& touched) {
    repo.git({"checkout", "-q", "-b", name, "main"});
    for (int op = 0, n = 1 + static_cast<int>(rng() % 6); op < n; ++op) {
      const std::string& path = pool[rng() % pool.size()];
      if (!repo.exists(path)) continue;
      touched.insert(path);
      switch (rng() % 4) {
        case 0: repo.write(path, repo.read(path) + "more from " + name + "\n"); break;
        case 1: repo.remove(path); break;
        case 2: {
          std::string to = path + "." + name;
          repo.write(to, repo.read(path));
          repo.remove(path);
          touched.insert(to);
          break;
        }
        default: {
          std::string added = "new/" + name + std::to_string(op) + ".txt";
          repo.write(added, "added on " + name + "\n");
          touched.insert(added);
        }
      }
    }
    std::string commit = repo.commit_all(name);
    repo.git({"checkout", "-q", "main"});
    return commit;
  }
};

}  // namespace

TEST_CASE("the merge by side writes libgit2's and git's merged tree whenever no file changed on both sides", "[tree-merge]") {
  int by_side = 0, left_to_libgit2 = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    RandomHistory h(seed);
    std::vector<std::string> first(h.files.begin(), h.files.begin() + 20), second(h.files.begin() + 20, h.files.end());
    std::set<std::string> t1, t2;
    const std::string ours = h.branch("ours", first, t1);
    // Half the histories touch the same files on both sides.
    const std::string theirs = h.branch("theirs", seed % 2 ? second : first, t2);
    INFO("seed " << seed);
    const std::string merged = merge_by_side(h.repo, ours, theirs);
    const std::string base = chomp(h.repo.git({"merge-base", ours, theirs}));
    std::set<std::string> a = changed_since(h.repo, base, ours), b = changed_since(h.repo, base, theirs), both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(both, both.begin()));
    if (!both.empty()) {
      CHECK(merged.empty());
      ++left_to_libgit2;
      continue;
    }
    REQUIRE(!merged.empty());
    ++by_side;
    CHECK(merged == libgit2_merge(h.repo, ours, theirs));
    auto git = h.repo.git_result({"merge-tree", "--write-tree", ours, theirs});
    REQUIRE(git.status == 0);
    CHECK(merged == chomp(git.out));
  }
  // Both ways were taken, often.
  CHECK(by_side >= 15);
  CHECK(left_to_libgit2 >= 5);
}

TEST_CASE("the merge by side leaves hand-made trees to libgit2", "[tree-merge]") {
  TempRepo repo;
  repo.write("a/x.txt", "x\n");
  repo.write("b/y.txt", "y\n");
  repo.commit_all("base");
  const std::string base_tree = chomp(repo.git({"rev-parse", "HEAD^{tree}"}));
  const std::string blob = wstest::write_blob(repo, "z\n");

  SECTION("a name twice in a folder both sides changed") {
    auto ours_tree = wstest::tree_with(repo, base_tree, "a", {"100644", "o.txt", blob});
    auto a_entries = wstest::tree_entries(repo, base_tree + ":a");
    a_entries.push_back({"100644", "x.txt", blob});  // x.txt twice
    auto twice = wstest::write_raw_tree(repo, a_entries);
    auto theirs_tree = wstest::tree_with(repo, base_tree, "", {"40000", "a", twice});
    auto ours = chomp(repo.git({"commit-tree", ours_tree, "-p", "HEAD", "-m", "ours"}));
    auto theirs = chomp(repo.git({"commit-tree", theirs_tree, "-p", "HEAD", "-m", "theirs"}));
    CHECK(merge_by_side(repo, ours, theirs).empty());
  }

  SECTION("folders both sides changed, nested past the depth cap") {
    const int depth = ws::kMaxPathDepth + 4;
    auto ours_inner = wstest::write_nested_folders(repo, "d", depth, {"100644", "o.txt", blob});
    auto theirs_inner = wstest::write_nested_folders(repo, "d", depth, {"100644", "t.txt", blob});
    auto ours_tree = wstest::tree_with(repo, base_tree, "", {"40000", "deep", ours_inner});
    auto theirs_tree = wstest::tree_with(repo, base_tree, "", {"40000", "deep", theirs_inner});
    auto ours = chomp(repo.git({"commit-tree", ours_tree, "-p", "HEAD", "-m", "ours"}));
    auto theirs = chomp(repo.git({"commit-tree", theirs_tree, "-p", "HEAD", "-m", "theirs"}));
    CHECK(merge_by_side(repo, ours, theirs).empty());
  }

  SECTION("a folder only one side changed is taken whole, whatever it holds") {
    // The hand-made folder is the request's alone: it is taken by id, never
    // read, and the view's own walk then judges what is in it.
    auto a_entries = wstest::tree_entries(repo, base_tree + ":a");
    a_entries.push_back({"100644", ".git", blob});
    auto odd = wstest::write_raw_tree(repo, a_entries);
    auto theirs_tree = wstest::tree_with(repo, base_tree, "", {"40000", "a", odd});
    auto ours_tree = wstest::tree_with(repo, base_tree, "b", {"100644", "o.txt", blob});
    auto ours = chomp(repo.git({"commit-tree", ours_tree, "-p", "HEAD", "-m", "ours"}));
    auto theirs = chomp(repo.git({"commit-tree", theirs_tree, "-p", "HEAD", "-m", "theirs"}));
    const std::string merged = merge_by_side(repo, ours, theirs);
    REQUIRE(!merged.empty());
    CHECK(chomp(repo.git({"rev-parse", merged + ":a"})) == odd);
    CHECK(chomp(repo.git({"rev-parse", merged + ":b/o.txt"})) == blob);
  }
}
