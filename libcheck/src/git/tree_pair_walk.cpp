// Tree walks with an explicit stack (tree_pair_walk.h): a subtree whose id
// is the same on both sides is never opened (unless its entries are
// wanted), so comparing a proposal of 20 files costs the folders those
// files live in, not the whole base twice as libgit2's tree-to-tree diff does.
#include "tree_pair_walk.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "git_util.h"
#include "libcheck/path_policy.h"

namespace ws::git {

namespace {

// One entry of a tree as a walk compares it, its name measured once.
struct Item {
  const git_tree_entry* entry;
  std::string_view name;
  bool tree;
};

// git's tree order: names compare bytewise with a '/' after a tree's name.
int git_order(const Item& a, const Item& b) {
  std::size_t n = std::min(a.name.size(), b.name.size());
  if (n)
    if (int c = std::memcmp(a.name.data(), b.name.data(), n)) return c;
  auto tail = [n](const Item& e) -> unsigned char {
    return n < e.name.size() ? static_cast<unsigned char>(e.name[n]) : e.tree ? '/' : '\0';
  };
  unsigned char ca = tail(a), cb = tail(b);
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

std::vector<Item> items_of(const git_tree* tree) {
  std::vector<Item> out;
  if (!tree) return out;
  std::size_t n = git_tree_entrycount(tree);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    out.push_back({e, git_tree_entry_name(e), git_tree_entry_type(e) == GIT_OBJECT_TREE});
  }
  return out;
}

// A tree's entries in git's order. A tree git wrote is already in that
// order; a hand-made one may not be, and is sorted rather than trusted for
// reading. ws-apply refuses such a tree before it gets here (the check_new
// of its walk, proposal_canonical.h).
std::vector<Item> ordered(const git_tree* tree) {
  std::vector<Item> out = items_of(tree);
  auto less = [](const Item& a, const Item& b) { return git_order(a, b) < 0; };
  if (!std::is_sorted(out.begin(), out.end(), less)) std::stable_sort(out.begin(), out.end(), less);
  return out;
}

// A folder at this depth holds only paths the policy refuses as too long;
// no walk enters it, which bounds the stack (and the work) by the cap
// however deep a hostile tree nests.
bool too_deep(int depth) { return depth >= kMaxPathDepth; }

// The path a tree at the cap would add first: `folder` (ending with '/')
// and the tree's first entry.
std::string first_path_below(std::string folder, const git_tree* t) {
  if (t && git_tree_entrycount(t)) folder += git_tree_entry_name(git_tree_entry_byindex(t, 0));
  else if (!folder.empty()) folder.pop_back();
  return folder;
}

Result<Tree> open_tree(git_repository* repo, const git_oid* id, const std::string& folder) {
  git_tree* raw = nullptr;
  if (git_tree_lookup(&raw, repo, id) < 0) return error(Errc::environment, "cannot read the tree '" + folder + "'");
  return Tree(raw);
}

// A folder of a pair walk: its entries on each side and how far the walk
// got. A one-sided folder keeps its entries in `a`.
struct PairFrame {
  Tree a_own, b_own;  // the subtrees this folder opened (none for the top)
  std::vector<Item> a, b;
  std::size_t i = 0, j = 0;
  std::size_t path_len = 0;  // the walk's path up to and with this folder's '/'
  int depth = 0;
  bool one = false;     // one side only: every blob below is added or deleted...
  bool is_new = false;  // ...added (the `to` side) when set
  bool same = false;    // ...or, with this, unchanged on both sides
};

class PairWalk {
 public:
  PairWalk(git_repository* repo, bool unchanged, const PairFn& fn, const TreeCheck& check_new)
      : repo_(repo), unchanged_(unchanged), fn_(fn), check_new_(check_new) {}

  Status run(const git_tree* from, const git_tree* to) {
    if (auto st = push_both(from, to, {}, {}, 0); !st) return st;
    while (!stack_.empty()) {
      Status st = stack_.back().one ? step_one() : step_both();
      if (!st) return st;
    }
    return Ok{};
  }

 private:
  git_repository* repo_;
  bool unchanged_;
  const PairFn& fn_;
  const TreeCheck& check_new_;
  std::string path_;
  std::vector<PairFrame> stack_;

  // The subtree `e` of the folder `path_` names (ending with its '/'),
  // checked first when it is new on the `to` side.
  Result<Tree> subtree(const Item& e, bool is_new, int depth) {
    if (is_new && check_new_) {
      std::string_view folder(path_.data(), path_.size() - 1);
      if (auto st = check_new_(*git_tree_entry_id(e.entry), folder, depth); !st) return st.error();
    }
    return open_tree(repo_, git_tree_entry_id(e.entry), path_);
  }

  Status push_both(const git_tree* a, const git_tree* b, Tree a_own, Tree b_own, int depth) {
    if (too_deep(depth)) return depth_cap_error(first_path_below(path_, b && git_tree_entrycount(b) ? b : a));
    PairFrame& f = stack_.emplace_back();
    f.a = ordered(a);
    f.b = ordered(b);
    f.a_own = std::move(a_own);
    f.b_own = std::move(b_own);
    f.path_len = path_.size();
    f.depth = depth;
    return Ok{};
  }

  Status push_one(Tree t, bool is_new, bool same, int depth) {
    if (too_deep(depth)) return depth_cap_error(first_path_below(path_, t.get()));
    PairFrame& f = stack_.emplace_back();
    f.a = ordered(t.get());
    f.a_own = std::move(t);
    f.path_len = path_.size();
    f.depth = depth;
    f.one = true;
    f.is_new = is_new;
    f.same = same;
    return Ok{};
  }

  // The next entry of a one-sided folder.
  Status step_one() {
    PairFrame& f = stack_.back();
    path_.resize(f.path_len);
    if (f.i == f.a.size()) {
      stack_.pop_back();
      return Ok{};
    }
    const Item e = f.a[f.i++];
    const bool is_new = f.is_new, same = f.same;
    const int depth = f.depth + 1;
    path_.append(e.name);
    if (e.tree) {
      path_.push_back('/');
      auto sub = subtree(e, is_new && !same, depth);
      if (!sub) return sub.error();
      return push_one(std::move(sub).value(), is_new, same, depth);  // `f` is not used after this
    }
    TreePair p;
    p.path = path_;
    auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e.entry));
    const git_oid* id = git_tree_entry_id(e.entry);
    if (same || !is_new) p.old_mode = mode, p.old_id = id;
    if (same || is_new) p.new_mode = mode, p.new_id = id;
    p.changed = !same;
    fn_(p);
    return Ok{};
  }

  // The next path of a folder on both sides, in git's order.
  Status step_both() {
    PairFrame& f = stack_.back();
    path_.resize(f.path_len);
    if (f.i == f.a.size() && f.j == f.b.size()) {
      stack_.pop_back();
      return Ok{};
    }
    const int c = f.i == f.a.size() ? 1 : f.j == f.b.size() ? -1 : git_order(f.a[f.i], f.b[f.j]);
    const Item ea = c <= 0 ? f.a[f.i] : Item{}, eb = c >= 0 ? f.b[f.j] : Item{};
    if (c <= 0) ++f.i;
    if (c >= 0) ++f.j;
    const int depth = f.depth + 1;
    const Item& e = c <= 0 ? ea : eb;
    path_.append(e.name);
    if (e.tree) path_.push_back('/');
    if (c != 0) return one_side(e, /*is_new=*/c > 0, depth);
    return both_sides(ea, eb, depth);  // `f` is not used after these
  }

  // A path on one side only: a file, or a folder walked whole.
  Status one_side(const Item& e, bool is_new, int depth) {
    if (e.tree) {
      auto sub = subtree(e, is_new, depth);
      if (!sub) return sub.error();
      return push_one(std::move(sub).value(), is_new, /*same=*/false, depth);
    }
    TreePair p;
    p.path = path_;
    auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e.entry));
    if (is_new) p.new_mode = mode, p.new_id = git_tree_entry_id(e.entry);
    else p.old_mode = mode, p.old_id = git_tree_entry_id(e.entry);
    fn_(p);
    return Ok{};
  }

  // A path on both sides (of one type: git's order sets a folder's name
  // apart from a file's).
  Status both_sides(const Item& ea, const Item& eb, int depth) {
    const bool same_id = git_oid_equal(git_tree_entry_id(ea.entry), git_tree_entry_id(eb.entry));
    if (ea.tree) {
      if (same_id) {
        if (!unchanged_) return Ok{};
        auto sub = subtree(eb, false, depth);
        if (!sub) return sub.error();
        return push_one(std::move(sub).value(), true, /*same=*/true, depth);
      }
      auto sa = subtree(ea, false, depth);
      if (!sa) return sa.error();
      auto sb = subtree(eb, /*is_new=*/true, depth);
      if (!sb) return sb.error();
      const git_tree* a = sa->get();
      const git_tree* b = sb->get();
      return push_both(a, b, std::move(sa).value(), std::move(sb).value(), depth);
    }
    TreePair p;
    p.path = path_;
    p.old_mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(ea.entry));
    p.new_mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(eb.entry));
    p.old_id = git_tree_entry_id(ea.entry);
    p.new_id = git_tree_entry_id(eb.entry);
    p.changed = !same_id || p.old_mode != p.new_mode;
    if (p.changed || unchanged_) fn_(p);
    return Ok{};
  }
};

// A folder of a one-tree walk.
struct Frame {
  Tree own;  // none for the top
  const git_tree* tree;
  std::size_t next = 0;
  std::size_t path_len;
  int depth;
};

}  // namespace

Status walk_tree_pair(git_repository* repo, const git_tree* from, const git_tree* to, bool unchanged,
                      const PairFn& fn, const TreeCheck& check_new) {
  return PairWalk(repo, unchanged, fn, check_new).run(from, to);
}

Status check_changed_depth(git_repository* repo, const git_tree* from, const git_tree* to) {
  return walk_tree_pair(repo, from, to, /*unchanged=*/false, [](const TreePair&) {});
}

Status walk_tree(git_repository* repo, const git_tree* tree, std::string folder, int depth, const EntryFn& fn) {
  if (too_deep(depth)) return depth_cap_error(first_path_below(std::move(folder), tree));
  std::string path = std::move(folder);
  std::vector<Frame> stack;
  stack.push_back({Tree(), tree, 0, path.size(), depth});
  while (!stack.empty()) {
    Frame& f = stack.back();
    path.resize(f.path_len);
    if (f.next == git_tree_entrycount(f.tree)) {
      stack.pop_back();
      continue;
    }
    const git_tree_entry* e = git_tree_entry_byindex(f.tree, f.next++);
    path.append(git_tree_entry_name(e));
    if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
      fn(path, e);
      continue;
    }
    path.push_back('/');
    const int sub_depth = f.depth + 1;
    auto sub = open_tree(repo, git_tree_entry_id(e), path);
    if (!sub) return sub.error();
    if (too_deep(sub_depth)) return depth_cap_error(first_path_below(path, sub->get()));
    const git_tree* t = sub->get();
    stack.push_back({std::move(sub).value(), t, 0, path.size(), sub_depth});  // `f` is not used after this
  }
  return Ok{};
}

}  // namespace ws::git
