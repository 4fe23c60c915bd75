// Trees written from a base and its edits, and the changes between two
// trees (the walk itself is tree_pair_walk.h's).
#include <algorithm>
#include <optional>
#include <cstring>

#include "libcheck/path_policy.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

// A folder at this depth holds only paths the policy refuses as too long.
bool too_deep(int depth) { return depth >= kMaxPathDepth; }

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

// The entries of one base folder by name, so that each edit finds the
// entry it replaces without a scan of the folder: writing k edits into a
// folder of n entries stays O(n + k log n), not O(n k). A hand-written base
// tree may name an entry twice; `next` chains such twins.
class FolderIndex {
 public:
  explicit FolderIndex(const std::vector<OutEntry>& entries) : next_(entries.size(), kNone) {
    order_.reserve(entries.size());
    for (std::uint32_t i = 0; i < entries.size(); ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return key(entries, x) < key(entries, y); });
    for (std::size_t i = 0; i + 1 < order_.size(); ++i)
      if (key(entries, order_[i]) == key(entries, order_[i + 1])) next_[order_[i]] = order_[i + 1];
  }

  // The first of `entries` (those the index was made of) named `name` that
  // is a folder (or a file), else kNone.
  std::uint32_t find(const std::vector<OutEntry>& entries, std::string_view name, bool tree) const {
    const std::pair<bool, std::string_view> wanted{tree, name};
    auto it = std::lower_bound(order_.begin(), order_.end(), wanted,
                               [&](std::uint32_t x, const std::pair<bool, std::string_view>& k) {
                                 return key(entries, x) < k;
                               });
    return it != order_.end() && key(entries, *it) == wanted ? *it : kNone;
  }
  std::uint32_t next(std::uint32_t i) const { return next_[i]; }

  static constexpr std::uint32_t kNone = UINT32_MAX;

 private:
  static std::pair<bool, std::string_view> key(const std::vector<OutEntry>& entries, std::uint32_t i) {
    return {entries[i].tree(), entries[i].name};
  }
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> next_;
};

// One folder being written: its base entries, what the edits drop and add,
// and the next edit to apply. Edits below one child folder are written as
// that child's own Folder, pushed on the writer's stack.
struct Folder {
  git::Tree owned;  // the base folder when this writer looked it up
  const git_tree* base = nullptr;
  std::size_t prefix = 0;  // length of the folder's path with its '/'
  const TreeEdit* first = nullptr;
  const TreeEdit* last = nullptr;
  const TreeEdit* next = nullptr;
  int depth = 0;
  std::vector<OutEntry> entries;
  std::vector<bool> dropped;
  std::vector<OutEntry> added;
  std::optional<FolderIndex> index;  // made for a folder with many edits
  std::string_view child;            // the child folder being written, while it is
  const TreeEdit* child_end = nullptr;

  void drop(std::string_view name, bool tree) {
    for_each_named(name, tree, [&](std::uint32_t i) {
      dropped[i] = true;
      return true;
    });
  }
  // The base's folder `name`, unless an edit dropped it already.
  const OutEntry* base_folder(std::string_view name) {
    const OutEntry* found = nullptr;
    for_each_named(name, true, [&](std::uint32_t i) {
      if (!dropped[i]) found = &entries[i];
      return !found;
    });
    return found;
  }
  // Calls `fn(i)` for each entry named `name` (a folder or a file) until it
  // returns false. A folder with few edits is scanned; past kScanEdits the
  // index is made once, so that k edits cost O(n + k log n).
  template <typename Fn>
  void for_each_named(std::string_view name, bool tree, Fn fn) {
    constexpr std::ptrdiff_t kScanEdits = 8;
    if (!index && last - first <= kScanEdits) {
      for (std::uint32_t i = 0; i < entries.size(); ++i)
        if (entries[i].tree() == tree && entries[i].name == name && !fn(i)) return;
      return;
    }
    if (!index) index.emplace(entries);
    for (std::uint32_t i = index->find(entries, name, tree); i != FolderIndex::kNone; i = index->next(i))
      if (!fn(i)) return;
  }
  std::string path() const { return std::string(first->path.substr(0, prefix)); }
};

// Writes the tree of a base with edits applied, one folder at a time, deepest
// first, on an explicit stack: a proposal as deep as the path policy allows
// never deepens the C++ stack.
struct TreeWriter {
  git_repository* repo;
  git_odb* odb;
  const KnownTrees* known;
  std::string buf;

  // The folder `base` (null: new) with `edits` (all below `prefix`, sorted by
  // path) applied; nullopt when nothing is left in it.
  Result<std::optional<git_oid>> write(const git_tree* base, const TreeEdit* first, const TreeEdit* last) {
    std::vector<Folder> stack;
    if (auto st = open(stack, git::Tree(), base, 0, first, last, 0); !st) return st.error();
    while (true) {
      Folder& f = stack.back();
      auto descended = apply_edits(stack, f);
      if (!descended) return descended.error();
      if (*descended) continue;
      auto id = finish(stack.back());
      if (!id) return id.error();
      stack.pop_back();
      if (stack.empty()) return *id;
      Folder& parent = stack.back();
      parent.drop(parent.child, true);
      if (*id) parent.added.push_back({parent.child, GIT_FILEMODE_TREE, **id});
      parent.next = parent.child_end;
    }
  }

 private:
  static Status open(std::vector<Folder>& stack, git::Tree owned, const git_tree* base, std::size_t prefix,
                     const TreeEdit* first, const TreeEdit* last, int depth) {
    if (too_deep(depth)) return depth_cap_error(std::string(first->path));
    Folder f;
    f.owned = std::move(owned);
    f.base = base;
    f.prefix = prefix;
    f.first = f.next = first;
    f.last = last;
    f.depth = depth;
    std::size_t n = base ? git_tree_entrycount(base) : 0;
    f.entries.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(base, i);
      f.entries.push_back({git_tree_entry_name(e), static_cast<std::uint32_t>(git_tree_entry_filemode_raw(e)),
                           *git_tree_entry_id(e)});
    }
    f.dropped.assign(n, false);
    stack.push_back(std::move(f));
    return Ok{};
  }

  // Applies the folder's file edits in order up to the next child folder,
  // which it opens on the stack (true); false once every edit is applied.
  Result<bool> apply_edits(std::vector<Folder>& stack, Folder& f) {
    while (f.next != f.last) {
      const TreeEdit* e = f.next;
      std::string_view rest = std::string_view(e->path).substr(f.prefix);
      auto slash = rest.find('/');
      if (slash == std::string_view::npos) {  // a file of this folder
        f.drop(rest, false);
        if (!e->remove) f.added.push_back({rest, e->mode, e->id});
        ++f.next;
        continue;
      }
      // Every edit below the same child folder, written as one subtree.
      std::string_view name = rest.substr(0, slash);
      const TreeEdit* end = e;
      while (end != f.last && std::string_view(end->path).substr(f.prefix, slash + 1) == rest.substr(0, slash + 1))
        ++end;
      git::Tree sub;
      if (const OutEntry* folder = f.base_folder(name)) {
        git_tree* raw = nullptr;
        if (git_tree_lookup(&raw, repo, &folder->id) < 0)
          return git::error(Errc::environment,
                            "cannot read the tree '" + std::string(e->path.substr(0, f.prefix + slash)) + "'");
        sub.reset(raw);
      }
      f.child = name;
      f.child_end = end;
      const git_tree* sub_tree = sub.get();
      std::size_t prefix = f.prefix + slash + 1;
      int depth = f.depth + 1;
      if (auto st = open(stack, std::move(sub), sub_tree, prefix, e, end, depth); !st) return st.error();
      return true;  // `f` may have moved with the stack
    }
    return false;
  }

  // The folder's tree: its kept entries and the added ones in git's order,
  // written (or found among the known trees); nullopt when it is empty.
  Result<std::optional<git_oid>> finish(const Folder& f) {
    std::vector<OutEntry> out;
    out.reserve(f.entries.size() + f.added.size());
    for (std::size_t i = 0; i < f.entries.size(); ++i)
      if (!f.dropped[i]) out.push_back(f.entries[i]);
    auto less = [](const OutEntry& a, const OutEntry& b) { return out_order(a, b) < 0; };
    std::vector<OutEntry> added = f.added;
    std::sort(added.begin(), added.end(), less);
    std::size_t mid = out.size();
    out.insert(out.end(), added.begin(), added.end());
    std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(mid), out.end(), less);
    if (out.empty()) return std::optional<git_oid>();
    if (auto st = refuse_twins(f, out); !st) return st.error();
    encode(out);
    if (known) {
      auto it = known->find(f.path());
      if (it != known->end() && it->second.bytes == buf) return std::optional<git_oid>(it->second.id);
    }
    git_oid id;
    git::clear_error();
    if (git_odb_write(&id, odb, buf.data(), buf.size(), GIT_OBJECT_TREE) < 0)
      return git::error(Errc::environment, "cannot write the tree '" + f.path() + "'");
    return std::optional<git_oid>(id);
  }

  // A file and a folder of one name cannot both be kept, nor two files (a
  // hand-written index can name one path twice). `out` is in git's order,
  // where every name that starts with another follows it.
  static Status refuse_twins(const Folder& f, const std::vector<OutEntry>& out) {
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      for (std::size_t j = i + 1; j < out.size() && out[j].name.substr(0, out[i].name.size()) == out[i].name; ++j)
        if (out[j].name == out[i].name) {
          std::string path = f.path() + std::string(out[i].name);
          return make_error(Errc::refused,
                            out[i].tree() != out[j].tree()
                                ? "'" + path + "' would be both a file and a folder"
                                : "refused path '" + path + "': named twice in the changes; a tree holds each name once",
                            path);
        }
    return Ok{};
  }

  // git's tree format: "<octal mode> <name>\0<20-byte id>" per entry.
  void encode(const std::vector<OutEntry>& out) {
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
                                  : w.write(base, edits.data(), edits.data() + edits.size());
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
