// Two trees compared by walking them side by side: a subtree whose id is
// the same on both sides is never opened (unless its entries are wanted),
// so a proposal of 20 files costs the directories those files live in, not
// the whole base twice as libgit2's tree-to-tree diff does.
#include <algorithm>
#include <optional>
#include <cstring>

#include "libcheck/path_policy.h"
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
// order; a hand-made one may not be, and is sorted rather than trusted
// for reading. ws-apply refuses such a tree before it gets here (the
// check_new of its walk, proposal_canonical.h).
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

// A tree at this depth holds only paths the policy refuses as too long;
// stopping there bounds the recursion below (and the work) by the cap,
// however deep a hostile tree nests.
bool too_deep(int depth) { return depth >= kMaxPathDepth; }

// The path a tree at the cap would add first: `folder` (ending with '/')
// and the tree's first entry.
std::string first_path_below(std::string folder, const git_tree* t) {
  if (t && git_tree_entrycount(t)) folder += git_tree_entry_name(git_tree_entry_byindex(t, 0));
  else if (!folder.empty()) folder.pop_back();
  return folder;
}

struct Walker {
  git_repository* repo;
  bool unchanged;
  const PairFn& fn;
  const TreeCheck& check_new;
  std::string path;

  // `path` ends with the folder's '/' here.
  Result<git::Tree> subtree(const git_tree_entry* e, bool is_new = false, int depth = 0) {
    if (is_new && check_new) {
      std::string_view folder(path.data(), path.size() - 1);
      if (auto st = check_new(*git_tree_entry_id(e), folder, depth); !st) return st.error();
    }
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo, git_tree_entry_id(e)) < 0)
      return git::error(Errc::environment, "cannot read the tree '" + path + "'");
    return git::Tree(raw);
  }

  // One side only: every blob below is added (side b) or deleted (side a);
  // with `same`, unchanged on both sides.
  Status one(const git_tree* t, bool is_new, bool same, int depth) {
    if (too_deep(depth)) return depth_cap_error(first_path_below(path, t));
    for (const git_tree_entry* e : ordered(t)) {
      std::size_t len = path.size();
      path.append(git_tree_entry_name(e));
      if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
        path.push_back('/');
        auto sub = subtree(e, is_new && !same, depth + 1);
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
    if (too_deep(depth)) return depth_cap_error(first_path_below(path, b && git_tree_entrycount(b) ? b : a));
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
          auto sub = subtree(e, /*is_new=*/c > 0, depth + 1);
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
            auto sb = subtree(eb[j], /*is_new=*/true, depth + 1);
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
                      const PairFn& fn, const TreeCheck& check_new) {
  Walker w{repo, unchanged, fn, check_new, {}};
  return w.both(from, to, 0);
}

Status check_changed_depth(git_repository* repo, const git_tree* from, const git_tree* to) {
  return walk_tree_pair(repo, from, to, /*unchanged=*/false, [](const TreePair&) {});
}

namespace {

// One entry of a tree being written; `name` points into the base tree or
// into an edit's path, both of which outlive the write.
struct OutEntry {
  std::string_view name;
  std::uint32_t mode;
  git_oid id;
  bool tree() const { return mode == GIT_FILEMODE_TREE; }
};

int out_order(const OutEntry& a, const OutEntry& b) {
  std::size_t n = std::min(a.name.size(), b.name.size());
  if (int c = std::memcmp(a.name.data(), b.name.data(), n)) return c;
  auto tail = [](const OutEntry& e, std::size_t at) -> unsigned char {
    if (at < e.name.size()) return static_cast<unsigned char>(e.name[at]);
    return e.tree() ? '/' : '\0';
  };
  unsigned char ca = tail(a, n), cb = tail(b, n);
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

struct TreeWriter {
  git_repository* repo;
  git_odb* odb;
  const KnownTrees* known;
  std::string buf;

  // Writes the folder `base` (null: new) with `edits` (all below `prefix`,
  // sorted by path) applied; nullopt when nothing is left in it.
  Result<std::optional<git_oid>> write(const git_tree* base, std::size_t prefix, const TreeEdit* first,
                                       const TreeEdit* last, int depth) {
    if (too_deep(depth)) return depth_cap_error(std::string(first->path));
    std::vector<OutEntry> entries;
    std::size_t n = base ? git_tree_entrycount(base) : 0;
    entries.reserve(n + static_cast<std::size_t>(last - first));
    for (std::size_t i = 0; i < n; ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(base, i);
      entries.push_back({git_tree_entry_name(e), static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e)),
                         *git_tree_entry_id(e)});
    }
    std::vector<bool> dropped(entries.size(), false);
    auto drop = [&](std::string_view name, bool tree) {
      for (std::size_t i = 0; i < n; ++i)
        if (!dropped[i] && entries[i].tree() == tree && entries[i].name == name) dropped[i] = true;
    };
    std::vector<OutEntry> added;
    for (const TreeEdit* e = first; e != last;) {
      std::string_view rest = std::string_view(e->path).substr(prefix);
      auto slash = rest.find('/');
      if (slash == std::string_view::npos) {  // a file of this folder
        drop(rest, false);
        if (!e->remove) added.push_back({rest, e->mode, e->id});
        ++e;
        continue;
      }
      // Every edit below the same child folder, written as one subtree.
      std::string_view name = rest.substr(0, slash);
      const TreeEdit* end = e;
      while (end != last && std::string_view(end->path).substr(prefix, slash + 1) == rest.substr(0, slash + 1)) ++end;
      git::Tree sub;
      for (std::size_t i = 0; i < n; ++i)
        if (!dropped[i] && entries[i].tree() && entries[i].name == name) {
          git_tree* raw = nullptr;
          if (git_tree_lookup(&raw, repo, &entries[i].id) < 0)
            return git::error(Errc::environment, "cannot read the tree '" + std::string(e->path.substr(0, prefix + slash)) + "'");
          sub.reset(raw);
          break;
        }
      auto id = write(sub.get(), prefix + slash + 1, e, end, depth + 1);
      if (!id) return id.error();
      drop(name, true);
      if (*id) added.push_back({name, GIT_FILEMODE_TREE, **id});
      e = end;
    }
    std::vector<OutEntry> out;
    out.reserve(entries.size() + added.size());
    for (std::size_t i = 0; i < n; ++i)
      if (!dropped[i]) out.push_back(entries[i]);
    auto less = [](const OutEntry& a, const OutEntry& b) { return out_order(a, b) < 0; };
    std::sort(added.begin(), added.end(), less);
    std::size_t mid = out.size();
    out.insert(out.end(), added.begin(), added.end());
    std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(mid), out.end(), less);
    if (out.empty()) return std::optional<git_oid>();
    // A file and a folder of one name cannot both be kept, nor two files
    // (a hand-written index can name one path twice).
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      for (std::size_t j = i + 1; j < out.size() && out[j].name.substr(0, out[i].name.size()) == out[i].name; ++j)
        if (out[j].name == out[i].name) {
          std::string path = std::string(first->path.substr(0, prefix)) + std::string(out[i].name);
          return make_error(Errc::refused,
                            out[i].tree() != out[j].tree()
                                ? "'" + path + "' would be both a file and a folder"
                                : "refused path '" + path + "': named twice in the changes; a tree holds each name once",
                            path);
        }
    buf.clear();
    char mode[16];
    for (const auto& e : out) {
      std::size_t at = sizeof mode;
      mode[--at] = ' ';
      std::uint32_t m = e.mode;
      do {
        mode[--at] = static_cast<char>('0' + (m & 7));
        m >>= 3;
      } while (m);
      buf.append(mode + at, sizeof mode - at);
      buf.append(e.name);
      buf.push_back('\0');
      buf.append(reinterpret_cast<const char*>(e.id.id), GIT_OID_RAWSZ);
    }
    if (known) {
      auto it = known->find(std::string(first->path.substr(0, prefix)));
      if (it != known->end() && it->second.bytes == buf) return std::optional<git_oid>(it->second.id);
    }
    git_oid id;
    git::clear_error();
    if (git_odb_write(&id, odb, buf.data(), buf.size(), GIT_OBJECT_TREE) < 0)
      return git::error(Errc::environment, "cannot write the tree '" + std::string(first->path.substr(0, prefix)) + "'");
    return std::optional<git_oid>(id);
  }
};

}  // namespace

Result<git_oid> write_edited_tree(git_repository* repo, const git_tree* base, std::vector<TreeEdit> edits,
                                  const KnownTrees* known) {
  std::sort(edits.begin(), edits.end(), [](const TreeEdit& a, const TreeEdit& b) {
    return a.path != b.path ? a.path < b.path : a.remove > b.remove;  // a removal before an add of the same path
  });
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) < 0) return git::error(Errc::environment, "cannot open the object database");
  git::Odb odb(raw);
  TreeWriter w{repo, odb.get(), known, {}};
  auto id = edits.empty() && base ? std::optional<git_oid>(*git_tree_id(base))
                                  : w.write(base, 0, edits.data(), edits.data() + edits.size(), 0);
  if (!id) return id.error();
  if (*id) return **id;
  git_oid empty;  // everything removed: the empty tree
  if (git_odb_write(&empty, odb.get(), "", 0, GIT_OBJECT_TREE) < 0)
    return git::error(Errc::environment, "cannot write the empty tree");
  return empty;
}

Result<std::vector<TreeChange>> tree_changes(git_repository* repo, git_tree* from, git_tree* to,
                                             const TreeCheck& check_new) {
  std::vector<TreeChange> out;
  auto st = walk_tree_pair(repo, from, to, /*unchanged=*/false, [&](const TreePair& p) {
    TreeChange c;
    c.path = std::string(p.path);
    c.old_mode = p.old_mode;
    c.new_mode = p.new_mode;
    c.status = !p.new_id ? GIT_DELTA_DELETED : !p.old_id ? GIT_DELTA_ADDED : GIT_DELTA_MODIFIED;
    if (p.new_id) c.new_id = git::to_hex(*p.new_id);
    out.push_back(std::move(c));
  }, check_new);
  if (!st) return st.error();
  return out;
}

}  // namespace ws::proposal
