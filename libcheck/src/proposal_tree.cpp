// Two trees compared by walking them side by side: a subtree whose id is
// the same on both sides is never opened (unless its entries are wanted),
// so a proposal of 20 files costs the directories those files live in, not
// the whole base twice as libgit2's tree-to-tree diff does.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "proposal_internal.h"

namespace ws::proposal {

namespace {

// git's tree order: names compare bytewise with a '/' after a tree's name.
int git_order(const git_tree_entry* a, const git_tree_entry* b) {
  const char* na = git_tree_entry_name(a);
  const char* nb = git_tree_entry_name(b);
  std::size_t la = std::strlen(na), lb = std::strlen(nb);
  std::size_t n = std::min(la, lb);
  if (int c = std::memcmp(na, nb, n)) return c;
  auto tail = [](const git_tree_entry* e, const char* name, std::size_t len, std::size_t at) -> unsigned char {
    if (at < len) return static_cast<unsigned char>(name[at]);
    return git_tree_entry_type(e) == GIT_OBJECT_TREE ? '/' : '\0';
  };
  unsigned char ca = tail(a, na, la, n), cb = tail(b, nb, lb, n);
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

// A tree's entries in git's order. A tree git wrote is already in that
// order; a hand-made one may not be, and is sorted rather than trusted.
std::vector<const git_tree_entry*> ordered(const git_tree* tree) {
  std::vector<const git_tree_entry*> out;
  if (!tree) return out;
  std::size_t n = git_tree_entrycount(tree);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(git_tree_entry_byindex(tree, i));
  auto less = [](const git_tree_entry* a, const git_tree_entry* b) { return git_order(a, b) < 0; };
  if (!std::is_sorted(out.begin(), out.end(), less)) std::stable_sort(out.begin(), out.end(), less);
  return out;
}

// Deeper than any path the policy accepts; stops a hostile tree from
// exhausting the stack.
constexpr int kMaxDepth = 512;

struct Walker {
  git_repository* repo;
  bool unchanged;
  const PairFn& fn;
  std::string path;

  Result<git::Tree> subtree(const git_tree_entry* e) {
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo, git_tree_entry_id(e)) < 0)
      return git::error(Errc::environment, "cannot read the tree '" + path + "'");
    return git::Tree(raw);
  }

  // One side only: every blob below is added (side b) or deleted (side a);
  // with `same`, unchanged on both sides.
  Status one(const git_tree* t, bool is_new, bool same, int depth) {
    if (depth > kMaxDepth) return make_error(Errc::invalid, "tree nested too deeply at '" + path + "'");
    for (const git_tree_entry* e : ordered(t)) {
      std::size_t len = path.size();
      path.append(git_tree_entry_name(e));
      if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
        path.push_back('/');
        auto sub = subtree(e);
        if (!sub) return sub.error();
        if (auto st = one(sub->get(), is_new, same, depth + 1); !st) return st;
      } else {
        TreePair p;
        p.path = path;
        auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e));
        const git_oid* id = git_tree_entry_id(e);
        if (same || !is_new) p.old_mode = mode, p.old_id = id;
        if (same || is_new) p.new_mode = mode, p.new_id = id;
        p.changed = !same;
        fn(p);
      }
      path.resize(len);
    }
    return Ok{};
  }

  Status both(const git_tree* a, const git_tree* b, int depth) {
    if (depth > kMaxDepth) return make_error(Errc::invalid, "tree nested too deeply at '" + path + "'");
    auto ea = ordered(a), eb = ordered(b);
    std::size_t i = 0, j = 0;
    while (i < ea.size() || j < eb.size()) {
      int c = i == ea.size() ? 1 : j == eb.size() ? -1 : git_order(ea[i], eb[j]);
      const git_tree_entry* e = c <= 0 ? ea[i] : eb[j];
      std::size_t len = path.size();
      path.append(git_tree_entry_name(e));
      bool tree = git_tree_entry_type(e) == GIT_OBJECT_TREE;
      if (tree) path.push_back('/');
      Status st = Ok{};
      if (c != 0) {  // on one side only
        if (tree) {
          auto sub = subtree(e);
          if (!sub) return sub.error();
          st = one(sub->get(), /*is_new=*/c > 0, /*same=*/false, depth + 1);
        } else {
          TreePair p;
          p.path = path;
          auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e));
          if (c < 0) p.old_mode = mode, p.old_id = git_tree_entry_id(e);
          else p.new_mode = mode, p.new_id = git_tree_entry_id(e);
          fn(p);
        }
      } else {
        bool same_id = git_oid_equal(git_tree_entry_id(ea[i]), git_tree_entry_id(eb[j]));
        if (tree) {
          if (same_id) {
            if (unchanged) {
              auto sub = subtree(eb[j]);
              if (!sub) return sub.error();
              st = one(sub->get(), true, /*same=*/true, depth + 1);
            }
          } else {
            auto sa = subtree(ea[i]);
            if (!sa) return sa.error();
            auto sb = subtree(eb[j]);
            if (!sb) return sb.error();
            st = both(sa->get(), sb->get(), depth + 1);
          }
        } else {
          TreePair p;
          p.path = path;
          p.old_mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(ea[i]));
          p.new_mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(eb[j]));
          p.old_id = git_tree_entry_id(ea[i]);
          p.new_id = git_tree_entry_id(eb[j]);
          p.changed = !same_id || p.old_mode != p.new_mode;
          if (p.changed || unchanged) fn(p);
        }
      }
      path.resize(len);
      if (!st) return st;
      if (c <= 0) ++i;
      if (c >= 0) ++j;
    }
    return Ok{};
  }
};

}  // namespace

Status walk_tree_pair(git_repository* repo, const git_tree* from, const git_tree* to, bool unchanged,
                      const PairFn& fn) {
  Walker w{repo, unchanged, fn, {}};
  return w.both(from, to, 0);
}

Result<std::vector<TreeChange>> tree_changes(git_repository* repo, git_tree* from, git_tree* to) {
  std::vector<TreeChange> out;
  auto st = walk_tree_pair(repo, from, to, /*unchanged=*/false, [&](const TreePair& p) {
    TreeChange c;
    c.path = std::string(p.path);
    c.old_mode = p.old_mode;
    c.new_mode = p.new_mode;
    c.status = !p.new_id ? GIT_DELTA_DELETED : !p.old_id ? GIT_DELTA_ADDED : GIT_DELTA_MODIFIED;
    if (p.new_id) c.new_id = git::to_hex(*p.new_id);
    out.push_back(std::move(c));
  });
  if (!st) return st.error();
  return out;
}

}  // namespace ws::proposal
