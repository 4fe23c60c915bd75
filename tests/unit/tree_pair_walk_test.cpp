// The iterative tree walks answer as git itself does: the pair walk lists
// the changes of `git diff-tree -r` in its order (and every path of the new
// tree with `unchanged`), the one-tree walk the entries of `git ls-tree -r`;
// both stop at the depth cap naming the first path past it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "git_util.h"
#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "support/hand_made.h"
#include "support/temp_repo.h"
#include "tree_pair_walk.h"

using wstest::chomp;
using wstest::lines;

namespace {

struct Trees {
  ws::Repository repo;
  ws::git::Tree from, to;
};

Trees open_trees(const wstest::TempRepo& repo, const std::string& from, const std::string& to) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto lookup = [&](const std::string& hex) {
    git_oid id;
    REQUIRE(ws::git::from_hex(hex, id));
    git_tree* t = nullptr;
    REQUIRE(git_tree_lookup(&t, r->raw(), &id) == 0);
    return ws::git::Tree(t);
  };
  ws::git::Tree a = lookup(from), b = lookup(to);
  return {std::move(r).value(), std::move(a), std::move(b)};
}

std::string mode_of(std::uint32_t mode) {
  std::ostringstream s;
  s << std::oct << mode;
  std::string m = s.str();
  return std::string(6 - std::min<std::size_t>(6, m.size()), '0') + m;
}

// One line a pair walk reports, as `git diff-tree -r` spells a change
// (":old_mode new_mode old_id new_id X\tpath"), or "= mode id\tpath" for an
// unchanged path.
std::vector<std::string> pair_lines(Trees& t, bool unchanged) {
  std::vector<std::string> out;
  const std::string zero(40, '0');
  auto st = ws::git::walk_tree_pair(t.repo.raw(), t.from.get(), t.to.get(), unchanged, [&](const ws::git::TreePair& p) {
    std::string old_id = p.old_id ? ws::git::to_hex(*p.old_id) : zero;
    std::string new_id = p.new_id ? ws::git::to_hex(*p.new_id) : zero;
    if (!p.changed) {
      out.push_back("= " + mode_of(p.new_mode) + " " + new_id + "\t" + std::string(p.path));
      return;
    }
    char status = !p.old_id ? 'A' : !p.new_id ? 'D' : 'M';
    out.push_back(":" + mode_of(p.old_mode) + " " + mode_of(p.new_mode) + " " + old_id + " " + new_id + " " + status +
                  "\t" + std::string(p.path));
  });
  REQUIRE(st.ok());
  return out;
}

}  // namespace

TEST_CASE("tree walk: the pair walk lists git diff-tree's changes in its order, unchanged paths with them",
          "[tree-walk]") {
  wstest::TempRepo repo;
  repo.write("a.json", "a\n");
  repo.write("a-b/x", "x\n");
  repo.write("a/keep/k", "k\n");
  repo.write("a/mod", "m\n");
  repo.write("a/gone", "g\n");
  repo.write("swap", "a file\n");
  repo.write("folder/f", "f\n");
  repo.write("same/s", "s\n");
  std::string base = repo.commit_all("base");
  repo.write("a/mod", "m2\n");
  repo.remove("a/gone");
  repo.write("a/new/deep/n", "n\n");
  repo.remove("swap");
  repo.write("swap/inside", "now a folder\n");
  std::filesystem::remove_all(repo.abs("folder"));
  repo.write("folder", "now a file\n");
  repo.write("a.json", "a2\n");
  std::filesystem::permissions(repo.abs("a-b/x"), std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  std::string next = repo.commit_all("next");
  Trees t = open_trees(repo, chomp(repo.git({"rev-parse", base + "^{tree}"})),
                       chomp(repo.git({"rev-parse", next + "^{tree}"})));

  std::vector<std::string> expected = lines(repo.git({"diff-tree", "-r", "--no-renames", base, next}));
  REQUIRE(expected.size() == 9);
  CHECK(pair_lines(t, false) == expected);

  // With `unchanged`, every path of the new tree too, in the same order as
  // git ls-tree -r lists them (deleted paths where git's order puts them).
  std::vector<std::string> all = pair_lines(t, true);
  std::vector<std::string> unchanged_paths, expected_unchanged;
  for (const auto& l : all)
    if (l[0] == '=') unchanged_paths.push_back(l.substr(l.find('\t') + 1));
  for (const auto& l : lines(repo.git({"ls-tree", "-r", "--name-only", next}))) {
    bool changed = false;
    for (const auto& e : expected) changed |= e.substr(e.find('\t') + 1) == l;
    if (!changed) expected_unchanged.push_back(l);
  }
  CHECK(unchanged_paths == expected_unchanged);
  CHECK(all.size() == expected.size() + expected_unchanged.size());
}

TEST_CASE("tree walk: the one-tree walk lists git ls-tree -r's entries in its order", "[tree-walk]") {
  wstest::TempRepo repo;
  repo.write("b/c/d", "d\n");
  repo.write("b.txt", "b\n");
  repo.write("b-c", "bc\n");
  repo.write("a", "a\n");
  repo.write("z/y/x/w", "w\n");
  std::string head = repo.commit_all("base");
  std::string tree = chomp(repo.git({"rev-parse", head + "^{tree}"}));
  Trees t = open_trees(repo, tree, tree);
  std::vector<std::string> got;
  auto st = ws::git::walk_tree(t.repo.raw(), t.to.get(), "top/", 1, [&](std::string_view path, const git_tree_entry* e) {
    got.push_back(mode_of(git_tree_entry_filemode_raw(e)) + " blob " + ws::git::to_hex(*git_tree_entry_id(e)) + "\t" +
                  std::string(path));
  });
  REQUIRE(st.ok());
  std::vector<std::string> expected;
  for (const auto& l : lines(repo.git({"ls-tree", "-r", head}))) expected.push_back(l.substr(0, l.find('\t') + 1) + "top/" + l.substr(l.find('\t') + 1));
  CHECK(got == expected);
}

TEST_CASE("tree walk: both walks stop at the depth cap naming the first path past it", "[tree-walk][depth-cap]") {
  wstest::TempRepo repo;
  repo.write("a", "a\n");
  std::string base = repo.commit_all("base");
  std::string blob = wstest::write_blob(repo, "x\n");
  std::string root = chomp(repo.git({"rev-parse", base + "^{tree}"}));
  // 'deep' and 300 folders: the folder at 256 components is not entered.
  std::string deep = wstest::tree_with(repo, root, "", {"40000", "deep", wstest::write_nested_folders(repo, "d", 300, {"100644", "f", blob})});
  std::string refused = "deep/";
  for (int i = 0; i < 255; ++i) refused += "d/";
  refused += "d";
  Trees t = open_trees(repo, root, deep);
  int seen = 0;
  auto pair = ws::git::walk_tree_pair(t.repo.raw(), t.from.get(), t.to.get(), true, [&](const ws::git::TreePair&) { ++seen; });
  REQUIRE_FALSE(pair.ok());
  CHECK(pair.error().message == ws::depth_cap_error(refused).message);
  CHECK(pair.error().subject == refused);
  CHECK(seen == 1);  // 'a', before 'deep' was entered
  auto one = ws::git::walk_tree(t.repo.raw(), t.to.get(), "", 0, [&](std::string_view, const git_tree_entry*) {});
  REQUIRE_FALSE(one.ok());
  CHECK(one.error().message == ws::depth_cap_error(refused).message);
}
