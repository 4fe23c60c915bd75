// The index following an applied proposal, rewritten without libgit2's
// git_index_read + git_index_write: those hash the whole file with the
// collision-detecting SHA-1 on the way in (to check the trailer) and again
// on the way out, and parse every entry into a map, to change a handful of
// entries (a third of ws-apply at 20,000 definitions). Here the file is
// locked first, read once, its untouched entries copied byte for byte and
// the trailer computed with OpenSSL's SHA-1.
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

// Removes the lock unless the new index was renamed over the old one.
struct Lock {
  std::string path;
  int fd = -1;
  bool done = false;
  ~Lock() {
    if (fd >= 0) ::close(fd);
    if (!done && !path.empty()) ::unlink(path.c_str());
  }
};

bool is_dir_of(std::string_view dir, std::string_view path) {
  return path.size() > dir.size() && path[dir.size()] == '/' && path.substr(0, dir.size()) == dir;
}

// The cache tree with every folder above a changed path invalidated (its
// entry count -1, its id dropped), as git and libgit2 do; empty when the
// extension does not parse, which drops it (it is only a cache).
std::string invalidated_tree(std::string_view data, const std::vector<TreeChange>& changes) {
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

Result<bool> update_index_file(const std::string& index_path, const std::vector<TreeChange>& changes) {
  // Locked before it is read, so that no other writer's index is lost in between.
  Lock lock;
  lock.path = index_path + ".lock";
  lock.fd = ::open(lock.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (lock.fd < 0) {
    int err = errno;
    lock.path.clear();  // not ours to remove
    if (err == EEXIST)
      return make_error(Errc::environment, "the index is locked ('" + index_path +
                                               ".lock' exists: another git is running, or one was killed)");
    return make_error(Errc::environment, "cannot lock the index ('" + index_path + ".lock'): " + std::strerror(err));
  }
  int in = ::open(index_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;  // no index yet: libgit2 makes one
  struct stat st;
  std::string data;
  bool read_ok = ::fstat(in, &st) == 0;
  if (read_ok) {
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < data.size()) {
      ssize_t n = ::read(in, data.data() + got, data.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    read_ok = got == data.size();
  }
  ::close(in);
  if (!read_ok) return false;
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
                               [](const TreeChange& c, std::string_view q) { return c.path < q; });
    return it != changes.end() && it->path == p ? &*it : nullptr;
  };
  if (!std::is_sorted(changes.begin(), changes.end(),
                      [](const TreeChange& a, const TreeChange& b) { return a.path < b.path; }))
    return false;
  for (const auto& c : changes) {
    auto it = find(c.path);
    if (it != entries.end() && it->path == c.path && it->extended) return false;
    if (c.status == GIT_DELTA_DELETED) continue;
    // An entry below this path, still there after the changes.
    for (auto below = find(c.path + "/"); below != entries.end() && is_dir_of(c.path, below->path); ++below) {
      const TreeChange* gone = changed(below->path);
      if (!gone || gone->status != GIT_DELTA_DELETED) return false;
    }
    // An entry at a folder of this path.
    for (auto slash = c.path.find('/'); slash != std::string::npos; slash = c.path.find('/', slash + 1)) {
      std::string_view dir(c.path.data(), slash);
      auto at = find(dir);
      if (at != entries.end() && at->path == dir) {
        const TreeChange* gone = changed(dir);
        if (!gone || gone->status != GIT_DELTA_DELETED) return false;
      }
    }
  }

  // An entry git could take as clean from its stat data alone only because
  // it was written in the same instant as the old index ("racily clean") is
  // smudged, as git does on every write, since the new index is younger.
  auto racy = [&](const RawEntry& e) {
    std::uint32_t sec = be32(d + e.start + 8), nsec = be32(d + e.start + 12);
    auto isec = static_cast<std::uint32_t>(st.st_mtim.tv_sec), insec = static_cast<std::uint32_t>(st.st_mtim.tv_nsec);
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
    if (c.status == GIT_DELTA_DELETED) continue;
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

  std::size_t put = 0;
  while (put < out.size()) {
    ssize_t n = ::write(lock.fd, out.data() + put, out.size() - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(Errc::environment, std::string("cannot write the index: ") + std::strerror(errno));
    put += static_cast<std::size_t>(n);
  }
  if (::close(lock.fd) != 0) {
    lock.fd = -1;
    return make_error(Errc::environment, std::string("cannot write the index: ") + std::strerror(errno));
  }
  lock.fd = -1;
  if (::rename(lock.path.c_str(), index_path.c_str()) != 0)
    return make_error(Errc::environment, std::string("cannot replace the index: ") + std::strerror(errno));
  lock.done = true;
  return true;
}

}  // namespace ws::proposal
