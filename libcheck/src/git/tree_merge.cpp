// The trivial three-way tree merge (tree_merge.h).
#include "tree_merge.h"

#include <array>
#include <map>
#include <string>

#include "git_util.h"
#include "libcheck/path_policy.h"

namespace ws::git {

namespace {

// One name's entry on each side: base, ours, theirs; null where absent.
using Sides = std::array<const git_tree_entry*, 3>;

bool same(const git_tree_entry* a, const git_tree_entry* b) {
  if (!a || !b) return !a && !b;
  return git_tree_entry_filemode(a) == git_tree_entry_filemode(b) && git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b));
}

bool is_tree(const git_tree_entry* e) { return e && git_tree_entry_filemode(e) == GIT_FILEMODE_TREE; }

class SideMerge {
 public:
  explicit SideMerge(git_repository* repo) : repo_(repo) {}

  // The merged folder of three versions of it (null: absent on that side),
  // as an id; nullopt to leave the merge to libgit2. `empty` is set when
  // the merged folder has no entries (it then has no tree of its own).
  std::optional<git_oid> folder(const git_tree* base, const git_tree* ours, const git_tree* theirs, int depth,
                                bool& empty) {
    if (depth > kMaxPathDepth) return std::nullopt;
    std::map<std::string, Sides> names;
    const std::array<const git_tree*, 3> trees{base, ours, theirs};
    for (std::size_t side = 0; side < trees.size(); ++side) {
      if (!trees[side]) continue;
      for (std::size_t i = 0, n = git_tree_entrycount(trees[side]); i < n; ++i) {
        const git_tree_entry* e = git_tree_entry_byindex(trees[side], i);
        Sides& s = names[git_tree_entry_name(e)];
        if (s[side]) return std::nullopt;  // a name twice in one tree
        s[side] = e;
      }
    }
    git_treebuilder* raw = nullptr;
    if (git_treebuilder_new(&raw, repo_, nullptr) < 0) return std::nullopt;
    TreeBuilder builder(raw);
    for (const auto& [name, s] : names) {
      auto taken = entry(s, depth);
      if (!taken) return std::nullopt;
      if (!taken->present) continue;
      if (git_treebuilder_insert(nullptr, builder.get(), name.c_str(), &taken->id, taken->mode) < 0) return std::nullopt;
    }
    empty = git_treebuilder_entrycount(builder.get()) == 0;
    git_oid id;
    if (git_treebuilder_write(&id, builder.get()) < 0) return std::nullopt;
    return id;
  }

 private:
  struct Taken {
    bool present = false;
    git_oid id{};
    git_filemode_t mode = GIT_FILEMODE_BLOB;
  };

  static Taken take(const git_tree_entry* e) {
    Taken t;
    if (!e) return t;
    t.present = true;
    t.id = *git_tree_entry_id(e);
    t.mode = git_tree_entry_filemode(e);
    return t;
  }

  // One name: the side that changed it, or, for a folder both sides
  // changed, the merge of its three versions. A file both sides changed,
  // even the same way, is libgit2's: two deletions may be a rename on one
  // side, which its rename detection reports as a conflict.
  std::optional<Taken> entry(const Sides& s, int depth) {
    const auto [base, ours, theirs] = s;
    if (same(base, ours)) return take(theirs);
    if (same(base, theirs)) return take(ours);
    if (!is_tree(ours) || !is_tree(theirs) || (base && !is_tree(base))) return std::nullopt;
    Tree b, o, t;
    if ((base && !lookup(base, b)) || !lookup(ours, o) || !lookup(theirs, t)) return std::nullopt;
    bool empty = false;
    auto id = folder(b.get(), o.get(), t.get(), depth + 1, empty);
    if (!id) return std::nullopt;
    Taken merged;
    merged.present = !empty;  // git keeps no empty folder
    merged.id = *id;
    merged.mode = GIT_FILEMODE_TREE;
    return merged;
  }

  bool lookup(const git_tree_entry* e, Tree& out) {
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo_, git_tree_entry_id(e)) < 0) return false;
    out.reset(raw);
    return true;
  }

  git_repository* repo_;
};

}  // namespace

std::optional<git_oid> merge_trees_by_side(git_repository* repo, const git_tree* base, const git_tree* ours,
                                           const git_tree* theirs) {
  bool empty = false;
  return SideMerge(repo).folder(base, ours, theirs, 0, empty);
}

}  // namespace ws::git
