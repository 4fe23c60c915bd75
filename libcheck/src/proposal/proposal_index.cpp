// The index following an applied proposal, rewritten without libgit2's
// git_index_read + git_index_write: those hash the whole file with the
// collision-detecting SHA-1 on the way in (to check the trailer) and again
// on the way out, and parse every entry into a map, to change a handful of
// entries (a third of ws-apply at 20,000 definitions). Here the file is
// locked first, read once, its untouched entries copied byte for byte and
// the trailer computed with OpenSSL's SHA-1.
//
// The lock is taken before the branch moves and held until the index has
// followed (apply_journal.h): the staged entries are checked under it, so
// nothing staged between the check and the write is lost.
//
// Only what this code fully understands is rewritten: versions 2 and 3, no
// conflict stages, no extension it would have to interpret beyond the cache
// tree (TREE, whose folders above a changed path are invalidated as git
// does) and resolve-undo (REUC, kept). Optional caches git rebuilds on its
// own (untracked cache, fsmonitor, the offset tables) are dropped, as
// libgit2 drops them. Anything else is left to libgit2.
#include <fcntl.h>
// The low-level SHA1_* functions, deprecated in OpenSSL 3 for EVP: the
// one-shot SHA1() now goes through EVP, which starts OpenSSL (its config
// file, its providers) on first use; these compute the digest and nothing else.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "apply_journal.h"
#include "index_file.h"
#include "index_refusal.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
void put32(std::string& out, std::uint32_t v) {
  const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                     static_cast<char>(v)};
  out.append(b, 4);
}

struct RawEntry {
  std::string_view path;
  std::size_t start, end;  // bytes of the whole entry, padding included
  bool extended;
};

Error io_error(const std::string& what, const std::string& path, int err) {
  return make_error(Errc::environment, "cannot " + what + " '" + path + "': " + std::strerror(err), path);
}

// Writes `bytes` to `path` (created or truncated): a file only this apply writes.
Status write_file(const std::string& path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return io_error("write the index", path, errno);
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      return io_error("write the index", path, err);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) return io_error("write the index", path, errno);
  return Ok{};
}

// The bytes of `path`, or nullopt when it does not exist.
Result<std::optional<std::string>> read_file(const std::string& path, timespec& mtime) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    return io_error("read the index", path, errno);
  }
  struct stat st {};
  std::string data;
  bool ok = ::fstat(fd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(Errc::environment, "refused '" + path + "': not a regular file where git keeps the index", path);
  }
  if (ok) {
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < data.size()) {
      ssize_t n = ::read(fd, data.data() + got, data.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    ok = got == data.size();
  }
  int err = errno;
  ::close(fd);
  if (!ok) return io_error("read the index", path, err ? err : EIO);
  mtime = st.st_mtim;
  return std::optional<std::string>(std::move(data));
}

// Whether an index entry (null: none) holds `mode` and `id` (mode 0: no file).
bool entry_is(const detail::IndexEntry* e, std::uint32_t mode, const std::string& id) {
  if (!e) return mode == 0;
  return mode != 0 && e->mode == mode && git::hex_equals(id, e->id);
}

bool is_dir_of(std::string_view dir, std::string_view path) {
  return path.size() > dir.size() && path[dir.size()] == '/' && path.substr(0, dir.size()) == dir;
}

// The cache tree with every folder above a changed path invalidated (its
// entry count -1, its id dropped), as git and libgit2 do; empty when the
// extension does not parse, which drops it (it is only a cache).
std::string invalidated_tree(std::string_view data, const std::vector<AppliedPath>& changes) {
  std::string out;
  std::size_t pos = 0;
  struct Frame {
    std::size_t path_len;
    long remaining;
  };
  std::vector<Frame> stack;
  std::string path;  // "" for the root, else "a/b"
  while (pos < data.size()) {
    auto nul = data.find('\0', pos);
    if (nul == std::string_view::npos) return {};
    std::string_view name = data.substr(pos, nul - pos);
    pos = nul + 1;
    auto sp = data.find(' ', pos);
    auto nl = data.find('\n', pos);
    if (sp == std::string_view::npos || nl == std::string_view::npos || sp > nl) return {};
    long count = 0, subtrees = 0;
    try {
      count = std::stol(std::string(data.substr(pos, sp - pos)));
      subtrees = std::stol(std::string(data.substr(sp + 1, nl - sp - 1)));
    } catch (...) {
      return {};
    }
    if (subtrees < 0) return {};
    pos = nl + 1;
    bool has_id = count >= 0;
    if (has_id && pos + 20 > data.size()) return {};
    // Where this node sits.
    while (!stack.empty() && stack.back().remaining == 0) stack.pop_back();
    if (stack.empty() && !out.empty()) return {};  // a second root
    if (!stack.empty()) {
      --stack.back().remaining;
      path.resize(stack.back().path_len);
      if (!path.empty()) path.push_back('/');
      path.append(name);
    } else {
      path.clear();
    }
    bool touched = path.empty();
    for (std::size_t i = 0; !touched && i < changes.size(); ++i) touched = is_dir_of(path, changes[i].path);
    out.append(name);
    out.push_back('\0');
    out += std::to_string(touched ? -1 : count) + " " + std::to_string(subtrees) + "\n";
    if (has_id) {
      if (!touched) out.append(data.substr(pos, 20));
      pos += 20;
    }
    stack.push_back({path.size(), subtrees});
  }
  return out;
}

}  // namespace

Result<bool> IndexUpdate::write_fast(const std::vector<AppliedPath>& changes, const std::string& to) const {
  if (!exists_) return false;  // no index yet: libgit2 makes one
  const std::string& data = data_;
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  if (data.size() < 12 + 20 || std::memcmp(d, "DIRC", 4) != 0) return false;
  std::uint32_t version = be32(d + 4);
  if (version != 2 && version != 3) return false;
  std::uint32_t count = be32(d + 8);
  const std::size_t end = data.size() - 20;

  std::vector<RawEntry> entries;
  entries.reserve(count);
  std::size_t pos = 12;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (pos + 62 > end) return false;
    std::uint32_t flags = (std::uint32_t{d[pos + 60]} << 8) | d[pos + 61];
    if ((flags >> 12) & 3) return false;  // a conflict: libgit2 resolves it as git add would
    bool extended = flags & 0x4000;
    if (extended && version < 3) return false;
    std::size_t name_at = pos + 62 + (extended ? 2 : 0);
    std::size_t len = flags & 0xFFF;
    if (len == 0xFFF) {
      const void* nul = name_at < end ? std::memchr(d + name_at, 0, end - name_at) : nullptr;
      if (!nul) return false;
      len = static_cast<const unsigned char*>(nul) - (d + name_at);
    }
    std::size_t size = (name_at - pos + len + 8) & ~std::size_t{7};
    if (pos + size > end || len == 0 || d[name_at + len] != 0) return false;
    RawEntry e{std::string_view(data.data() + name_at, len), pos, pos + size, extended};
    if (!entries.empty() && !(entries.back().path < e.path)) return false;  // unsorted or duplicated
    entries.push_back(e);
    pos += size;
  }
  std::string tree_ext, reuc_ext;
  bool has_tree = false;
  while (pos < end) {
    if (pos + 8 > end) return false;
    std::uint32_t size = be32(d + pos + 4);
    if (size > end - pos - 8) return false;
    std::string_view sig(data.data() + pos, 4), body(data.data() + pos + 8, size);
    if (sig == "TREE") {
      has_tree = true;
      tree_ext = invalidated_tree(body, changes);
    } else if (sig == "REUC") {
      reuc_ext = body;
    } else if (sig == "NAME" || sig[0] < 'A' || sig[0] > 'Z') {
      return false;  // conflict names, or a required extension (split index, sparse folders)
    }
    pos += 8 + size;
  }

  // What the changes do to the entries, checked before anything is written:
  // a path whose entry carries extended flags (skip-worktree,
  // intent-to-add), or a file that would sit where the index has a folder
  // (or the reverse), is left to libgit2.
  auto find = [&](std::string_view p) {
    return std::lower_bound(entries.begin(), entries.end(), p,
                            [](const RawEntry& e, std::string_view q) { return e.path < q; });
  };
  auto changed = [&](std::string_view p) {
    auto it = std::lower_bound(changes.begin(), changes.end(), p,
                               [](const AppliedPath& c, std::string_view q) { return c.path < q; });
    return it != changes.end() && it->path == p ? &*it : nullptr;
  };
  if (!std::is_sorted(changes.begin(), changes.end(),
                      [](const AppliedPath& a, const AppliedPath& b) { return a.path < b.path; }))
    return false;
  for (const auto& c : changes) {
    auto it = find(c.path);
    if (it != entries.end() && it->path == c.path && it->extended) return false;
    if (c.new_mode == 0) continue;
    // An entry below this path, still there after the changes.
    for (auto below = find(c.path + "/"); below != entries.end() && is_dir_of(c.path, below->path); ++below) {
      const AppliedPath* gone = changed(below->path);
      if (!gone || gone->new_mode != 0) return false;
    }
    // An entry at a folder of this path.
    for (auto slash = c.path.find('/'); slash != std::string::npos; slash = c.path.find('/', slash + 1)) {
      std::string_view dir(c.path.data(), slash);
      auto at = find(dir);
      if (at != entries.end() && at->path == dir) {
        const AppliedPath* gone = changed(dir);
        if (!gone || gone->new_mode != 0) return false;
      }
    }
  }

  // An entry git could take as clean from its stat data alone only because
  // it was written in the same instant as the old index ("racily clean") is
  // smudged, as git does on every write, since the new index is younger.
  auto racy = [&](const RawEntry& e) {
    std::uint32_t sec = be32(d + e.start + 8), nsec = be32(d + e.start + 12);
    auto isec = static_cast<std::uint32_t>(mtime_.tv_sec), insec = static_cast<std::uint32_t>(mtime_.tv_nsec);
    return sec > isec || (sec == isec && nsec >= insec);
  };
  std::string out;
  out.reserve(data.size() + changes.size() * 96);
  out.append("DIRC", 4);
  put32(out, version);
  put32(out, 0);  // the count, once known
  std::uint32_t written = 0;
  std::size_t i = 0;
  auto copy_until = [&](std::string_view p) {
    for (; i < entries.size() && entries[i].path < p; ++i, ++written) {
      std::size_t at = out.size();
      out.append(data, entries[i].start, entries[i].end - entries[i].start);
      if (racy(entries[i])) std::memset(out.data() + at + 36, 0, 4);  // the size field
    }
  };
  for (const auto& c : changes) {
    copy_until(c.path);
    if (i < entries.size() && entries[i].path == c.path) ++i;  // replaced or removed
    if (c.new_mode == 0) continue;
    git_oid oid;
    if (!git::from_hex(c.new_id, oid)) return false;
    out.append(24, '\0');  // no stat data (times, device, inode): git hashes the file when it next looks
    put32(out, c.new_mode);
    out.append(12, '\0');  // uid, gid, size
    out.append(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
    std::size_t len = c.path.size();
    std::uint32_t flags = static_cast<std::uint32_t>(std::min<std::size_t>(len, 0xFFF));
    out.push_back(static_cast<char>(flags >> 8));
    out.push_back(static_cast<char>(flags));
    out.append(c.path);
    std::size_t size = (62 + len + 8) & ~std::size_t{7};
    out.append(size - 62 - len, '\0');
    ++written;
  }
  copy_until(std::string_view("\xff\xff\xff\xff", 4));
  for (; i < entries.size(); ++i, ++written) out.append(data, entries[i].start, entries[i].end - entries[i].start);
  out[8] = static_cast<char>(written >> 24);
  out[9] = static_cast<char>(written >> 16);
  out[10] = static_cast<char>(written >> 8);
  out[11] = static_cast<char>(written);
  auto extension = [&](const char* sig, const std::string& body) {
    out.append(sig, 4);
    put32(out, static_cast<std::uint32_t>(body.size()));
    out.append(body);
  };
  if (has_tree && !tree_ext.empty()) extension("TREE", tree_ext);
  if (!reuc_ext.empty()) extension("REUC", reuc_ext);
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA_CTX sha;
  SHA1_Init(&sha);
  SHA1_Update(&sha, out.data(), out.size());
  SHA1_Final(digest, &sha);
  out.append(reinterpret_cast<const char*>(digest), sizeof digest);

  if (auto st = write_file(to, out); !st) return st.error();
  return true;
}

std::string index_lock_marker(const std::string& proposal) { return "ws-apply " + proposal + "\n"; }

std::vector<std::string> index_update_files(const std::string& index_path, const std::string& scratch, long pid) {
  return {index_path + ".lock", scratch + "/index.lock." + std::to_string(pid) + ".tmp",
          scratch + "/index.new", scratch + "/index.new.lock"};
}

Result<std::unique_ptr<IndexUpdate>> IndexUpdate::lock(const std::string& index_path, const std::string& scratch,
                                                       const std::string& marker, const std::string& workdir) {
  std::unique_ptr<IndexUpdate> u(new IndexUpdate);
  u->index_path_ = index_path;
  u->lock_path_ = index_path + ".lock";
  u->scratch_ = scratch;
  // The marker is written first and linked into place: link(2) fails when
  // the lock exists, as O_EXCL would, and the lock never exists without it.
  const std::string tmp = index_update_files(index_path, scratch, ::getpid())[1];
  if (auto st = write_file(tmp, marker); !st) {
    ::unlink(tmp.c_str());
    return st.error();
  }
  int linked = ::link(tmp.c_str(), u->lock_path_.c_str());
  int err = errno;
  ::unlink(tmp.c_str());
  if (linked != 0) {
    if (err == EEXIST)
      return make_error(Errc::refused, "the index is locked by another process (" +
                                           lock_description(u->lock_path_, workdir) +
                                           "); if no git is running, remove the lock file and retry",
                        u->lock_path_, Rule::locked);
    return io_error("lock the index", u->lock_path_, err);
  }
  u->locked_ = true;
  auto data = read_file(index_path, u->mtime_);
  if (!data) return data.error();
  u->exists_ = data->has_value();
  if (u->exists_) {
    u->data_ = std::move(**data);
    u->parsed_ = detail::IndexFile::parse(u->data_);
  }
  return u;
}

IndexUpdate::~IndexUpdate() {
  if (locked_) ::unlink(lock_path_.c_str());
}

Result<std::vector<std::string>> IndexUpdate::staged(const std::vector<AppliedPath>& paths) const {
  const detail::IndexFile& index = parsed_;
  if (index.state() == detail::IndexFile::State::unsupported)
    return make_error(Errc::environment, "cannot read the index '" + index_path_ + "' to look for staged changes (" +
                                             index.reason() + ")", index_path_);
  auto applied = [&](std::string_view p) {
    auto it = std::lower_bound(paths.begin(), paths.end(), p,
                               [](const AppliedPath& a, std::string_view q) { return a.path < q; });
    return it != paths.end() && it->path == p;
  };
  const auto& entries = index.entries();
  auto from = [&](std::string_view q) {  // the first entry at or after q
    return std::lower_bound(entries.begin(), entries.end(), q, [&](const detail::IndexEntry& e, std::string_view k) {
      return index.path(e) < k;
    });
  };
  std::vector<std::string> out;
  for (const auto& p : paths) {
    bool conflict = false;  // an entry at another stage: a merge not resolved
    for (auto it = from(p.path); it != entries.end() && index.path(*it) == p.path; ++it) conflict |= it->stage != 0;
    const detail::IndexEntry* e = index.find(p.path);
    if (conflict || (!entry_is(e, p.old_mode, p.old_id) && !entry_is(e, p.new_mode, p.new_id))) out.push_back(p.path);
    if (p.new_mode == 0) continue;
    // A file landing below an index file, or where the index has a folder:
    // entries the apply would displace unless it changes them itself.
    std::size_t before = out.size();
    for (auto slash = p.path.find('/'); slash != std::string::npos; slash = p.path.find('/', slash + 1)) {
      std::string_view dir(p.path.data(), slash);
      auto it = from(dir);
      if (it != entries.end() && index.path(*it) == dir && !applied(dir)) out.emplace_back(dir);
    }
    for (auto it = from(p.path + "/"); it != entries.end() && is_dir_of(p.path, index.path(*it)); ++it)
      if (!applied(index.path(*it))) out.emplace_back(index.path(*it));
    if (out.size() > before) out.push_back(p.path);  // its own entry cannot land past them either
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Status IndexUpdate::write_with_libgit2(const std::vector<AppliedPath>& paths, const std::string& to) const {
  ::unlink(to.c_str());
  if (exists_) {
    if (auto st = write_file(to, data_); !st) return st;
  }
  git_index* raw = nullptr;
  if (git_index_open(&raw, to.c_str()) < 0)
    return detail::index_load_error(index_path_, git::error(Errc::environment, "cannot read the index"));
  git::Index index(raw);
  for (const auto& p : paths) {
    if (p.new_mode == 0) {
      git_index_remove(index.get(), p.path.c_str(), 0);
      continue;
    }
    git_index_entry e{};
    e.path = p.path.c_str();
    e.mode = p.new_mode;
    git::from_hex(p.new_id, e.id);
    if (git_index_add(index.get(), &e) < 0)
      return git::error(Errc::environment, "cannot update the index for '" + p.path + "'");
  }
  if (git_index_write(index.get()) < 0) return git::error(Errc::environment, "cannot write the index");
  return Ok{};
}

Status IndexUpdate::write(const std::vector<AppliedPath>& paths) {
  const std::string to = index_update_files(index_path_, scratch_, ::getpid())[2];
  auto fast = write_fast(paths, to);
  if (!fast) return fast.error();
  if (!*fast) {
    if (auto st = write_with_libgit2(paths, to); !st) return st;
  }
  // Renamed over the index while the lock is held, as git does under its
  // lock; the lock (holding the marker) goes after.
  if (::rename(to.c_str(), index_path_.c_str()) != 0) return io_error("replace the index", index_path_, errno);
  ::unlink(lock_path_.c_str());
  locked_ = false;
  return Ok{};
}

}  // namespace ws::proposal
