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
