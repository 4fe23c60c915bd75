#include "worktree_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "git_files.h"
#include "git_util.h"
#include "index_refusal.h"
#include "libcheck/workspace_root.h"
#include "mount_point.h"
#include "tree_watch.h"

namespace ws::detail {

namespace {

// A directory's entries as views into one buffer of names, so reading and
// sorting a folder of 20,000 files moves 24-byte records, not strings. The
// prefix (the key's first eight bytes) orders almost every pair of names (a
// folder of generated ids differs within eight bytes), so the sort rarely
// reaches the bytes themselves. Zero padding sorts a name before any longer
// name it begins.
using Child = FolderListing::Entry;

std::uint64_t prefix_of(std::string_view key) {
  std::uint64_t p = 0;
  if (key.size() >= 8) {
    std::memcpy(&p, key.data(), 8);
    if constexpr (std::endian::native == std::endian::little) p = __builtin_bswap64(p);
    return p;
  }
  for (std::size_t i = 0; i < 8; ++i)
    p = (p << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0u);
  return p;
}

WalkItem::Type type_of(const Child& c) { return static_cast<WalkItem::Type>(c.type); }

struct Dir {
  int fd = -1;
  std::string rel;  // "" for the root, else "a/b/"
  // Every child's key, the name with '/' appended for a directory, each
  // followed by a NUL: a file's key is its name for openat and fstatat.
  FolderListing list;
  std::size_t next = 0;
  std::string_view key(const Child& c) const { return list.key(c); }
};

// Sorts `c` by prefix, least significant byte first: one counting pass
// for all eight bytes, then one placing pass for each byte the prefixes do
// not all share (a folder of generated ids shares most of them).
void radix_sort_by_prefix(std::vector<Child>& c) {
  const std::size_t n = c.size();
  std::vector<std::array<std::uint32_t, 256>> counts(8, std::array<std::uint32_t, 256>{});
  for (const Child& x : c)
    for (int b = 0; b < 8; ++b) ++counts[b][(x.prefix >> (8 * b)) & 0xFF];
  std::vector<Child> other(n);
  for (int b = 0; b < 8; ++b) {
    auto& count = counts[b];
    if (count[(c[0].prefix >> (8 * b)) & 0xFF] == n) continue;  // every prefix has this byte
    std::uint32_t at = 0;
    for (std::uint32_t& k : count) at += std::exchange(k, at);  // each bucket's first place
    for (const Child& x : c) other[count[(x.prefix >> (8 * b)) & 0xFF]++] = x;
    c.swap(other);
  }
}

// A directory's children in bytewise order of their keys. A large folder
// is sorted by prefix without comparisons (sorting each folder's names was
// a fifth of the walk: bench/DIAGNOSES.md, ls-view), then each run of
// equal prefixes by the keys themselves.
void sort_children(Dir& d) {
  std::vector<Child>& children = d.list.entries;
  auto by_key = [&d](const Child& a, const Child& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return d.key(a) < d.key(b);
  };
  constexpr std::size_t kRadixFrom = 256;  // below, a comparison sort costs less than the counts
  if (children.size() < kRadixFrom) {
    std::sort(children.begin(), children.end(), by_key);
    return;
  }
  radix_sort_by_prefix(children);
  for (auto run = children.begin(); run != children.end();) {
    auto past = std::find_if(run + 1, children.end(), [&](const Child& c) { return c.prefix != run->prefix; });
    if (past - run > 1) std::sort(run, past, by_key);
    run = past;
  }
}

// Reads a directory's entries worth looking at into `d`, sorted.
bool read_dir(Dir& d) {
  int own = ::dup(d.fd);  // closedir closes it; d.fd stays open for the walk
  DIR* dir = own < 0 ? nullptr : fdopendir(own);
  if (!dir) {
    if (own >= 0) ::close(own);
    return false;
  }
  d.list.ignore_file_type = DT_REG;  // unless it has one of another type
  std::string& names = d.list.names;
  while (dirent* de = readdir(dir)) {
    std::string_view name = de->d_name;
    if (name == "." || name == "..") continue;
    if (d.rel.empty() && name == ".git") continue;
    unsigned char type = de->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(d.fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : S_ISREG(st.st_mode) ? DT_REG
           : S_ISFIFO(st.st_mode) ? DT_FIFO : S_ISSOCK(st.st_mode) ? DT_SOCK : S_ISCHR(st.st_mode) ? DT_CHR
           : S_ISBLK(st.st_mode) ? DT_BLK : DT_UNKNOWN;
    }
    if (name == ".gitignore") d.list.ignore_file_type = type;
    WalkItem::Type t;
    if (type == DT_DIR) t = WalkItem::Type::dir;
    else if (type == DT_REG) t = WalkItem::Type::file;
    else if (type == DT_LNK) t = WalkItem::Type::link;
    else continue;  // FIFOs, sockets, devices: never content
    Child c{0, static_cast<std::uint32_t>(names.size()), static_cast<std::uint32_t>(name.size()),
            static_cast<std::uint8_t>(t)};
    names.append(name);
    if (t == WalkItem::Type::dir) {
      names.push_back('/');
      ++c.size;
    }
    names.push_back('\0');
    c.prefix = prefix_of(d.key(c));
    d.list.entries.push_back(c);
  }
  closedir(dir);
  sort_children(d);
  return true;
}

// A directory's entries worth looking at, sorted: as `watch` kept them
// when it vouches for them, else read now (and kept). Takes `fd`.
std::optional<Dir> open_dir(int fd, std::string rel, TreeWatch* watch) {
  Dir d{fd, std::move(rel), {}, 0};
  if (const FolderListing* kept = watch ? watch->listing(d.rel) : nullptr) {
    d.list = *kept;
    return d;
  }
  if (!read_dir(d)) {
    ::close(fd);
    return std::nullopt;
  }
  if (watch) watch->keep_listing(d.rel, d.list);
  return d;
}

// libgit2 reads a folder's .gitignore when asked about a path in it.
Status ignore_file_ok(const Dir& d) {
  return require_regular_ignore_file(d.list.ignore_file_type, d.rel + ".gitignore");
}

void close_all(std::vector<Dir>& stack) {
  for (Dir& open : stack) ::close(open.fd);
  stack.clear();
}

// The refusal of a folder the walk would enter that lies across a mount.
Error mount_refusal(std::string_view rel) {
  std::string path(rel.substr(0, rel.size() - 1));  // without the folder's '/'
  FileError why{FileRule::mount_point, path};
  return make_error(Errc::refused, why.message(), path, to_rule(why.rule));
}

}  // namespace

Status walk_worktree(const std::string& root_path, const std::function<bool(const WalkItem&)>& visit,
                     TreeWatch* watch) {
  int root_fd = ::open(root_path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root_fd < 0) return make_error(Errc::environment, "cannot open the workspace root '" + root_path + "'");
  dev_t root_dev;
  if (!device_of(root_fd, root_dev)) {
    ::close(root_fd);
    return make_error(Errc::environment, "cannot stat the workspace root '" + root_path + "'");
  }
  std::vector<Dir> stack;
  if (auto root = open_dir(root_fd, "", watch)) stack.push_back(std::move(*root));
  if (!stack.empty())
    if (auto st = ignore_file_ok(stack.back()); !st) {
      close_all(stack);
      return st;
    }
  // `rel` always starts with the folder at the top of the stack's own
  // path: it was last that folder's path or one of its children's.
  std::string rel;
  std::string name;
  while (!stack.empty()) {
    Dir& d = stack.back();
    if (d.next == d.list.entries.size()) {
      ::close(d.fd);
      stack.pop_back();
      continue;
    }
    const Child& c = d.list.entries[d.next++];
    std::string_view key = d.key(c);
    rel.resize(d.rel.size());
    rel.append(key);
    // A file's name is its key, NUL-terminated in the names; a folder's key
    // ends in '/', so its name is copied.
    const char* name_z = key.data();
    if (type_of(c) == WalkItem::Type::dir) name_z = name.assign(key.substr(0, key.size() - 1)).c_str();
    int fd = d.fd;
    if (!visit(WalkItem{type_of(c), rel, fd, name_z}) || type_of(c) != WalkItem::Type::dir) continue;
    if (watch) watch->enter_folder(rel, fd, name.c_str());  // before the folder is read
    int sub = openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) continue;
    if (crosses_mount(sub, root_dev)) {
      ::close(sub);
      close_all(stack);
      return mount_refusal(rel);
    }
    // `d` and `c` are not used past this point: the push may move them.
    if (auto child = open_dir(sub, rel, watch)) {
      stack.push_back(std::move(*child));
      if (auto st = ignore_file_ok(stack.back()); !st) {
        close_all(stack);
        return st;
      }
    }
  }
  return Ok{};
}

Status refuse_mount_points(const std::string& root_path, git_repository* repo, const std::string& index_file) {
  git_index* raw = nullptr;
  if (git_repository_index(&raw, repo) < 0)
    return index_load_error(index_file, git::error(Errc::environment, "cannot read the index"));
  std::unique_ptr<git_index, decltype(&git_index_free)> index(raw, git_index_free);
  return walk_worktree(root_path, [&](const WalkItem& item) {
    if (item.type != WalkItem::Type::dir) return false;
    const std::string rel(item.rel);
    std::size_t at = 0;
    if (git_index_find_prefix(&at, index.get(), rel.c_str()) == 0) return true;
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, repo, rel.c_str()) == 0 && ignored) return false;
    struct stat gst;
    return fstatat(item.dir_fd, (std::string(item.name) + "/.git").c_str(), &gst, AT_SYMLINK_NOFOLLOW) != 0;
  });
}

}  // namespace ws::detail
