// Confined opens: beneath a directory fd, never through a link, never blocking.
#include "confined_open.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
#define WS_HAVE_OPENAT2 1
#else
#define WS_HAVE_OPENAT2 0
#endif

#include "mount_point.h"

namespace ws::detail {

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) reset(o.release());
  return *this;
}

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

namespace {

// Flags for the final open. O_NONBLOCK so that opening a FIFO returns at once
// instead of waiting for a writer (the fstat that follows then refuses it);
// O_NOCTTY so a terminal device can never become our controlling tty.
constexpr int kLeafFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC;

// A plain relative path: what the path policy accepts structurally. Checked
// here again because the walk would otherwise climb out through "..", and a
// NUL would silently cut the name short.
bool is_plain(std::string_view rel) {
  if (rel.empty() || rel.front() == '/' || rel.back() == '/') return false;
  if (rel.find('\0') != std::string_view::npos) return false;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string_view::npos) end = rel.size();
    std::string_view c = rel.substr(start, end - start);
    if (c.empty() || c == "." || c == "..") return false;
    start = end + 1;
  }
  return true;
}

FileRule rule_for_errno(int e) {
  switch (e) {
    case ENOENT:
    case ENOTDIR:  // a file where a directory was expected: no such path
      return FileRule::not_found;
    case EXDEV:  // openat2's RESOLVE_NO_XDEV: a plain path without links leaves only through a mount
      return FileRule::mount_point;
    case ELOOP:
      return FileRule::symlink;
    case ENXIO:  // a socket, or a device with nothing behind it
    case ENODEV:
      return FileRule::special_file;
    default:
      return FileRule::io;
  }
}

// 0: not probed yet, 1: usable, -1: not usable (old kernel, seccomp filter).
std::atomic<int> g_openat2_state{0};

bool openat2_unusable_errno(int e) { return e == ENOSYS || e == EPERM || e == EINVAL || e == E2BIG; }

#if WS_HAVE_OPENAT2
long sys_openat2(int dir_fd, const char* path, std::uint64_t flags, std::uint64_t resolve) {
  open_how how;
  std::memset(&how, 0, sizeof how);
  how.flags = flags;
  how.resolve = resolve;
  return ::syscall(SYS_openat2, dir_fd, path, &how, sizeof how);
}
#endif

// openat2 does in one call what the walk does by hand: every component is
// resolved beneath dir_fd, any link on the way fails with ELOOP and any
// mount point (a bind mount too) with EXDEV.
// Returns false when openat2 itself is unusable, so the caller can fall back.
bool try_openat2(int dir_fd, const std::string& rel, int leaf_flags, OpenOutcome& out) {
#if WS_HAVE_OPENAT2
  if (g_openat2_state.load(std::memory_order_relaxed) < 0) return false;
  long fd;
  do {
    fd = sys_openat2(dir_fd, rel.c_str(), static_cast<std::uint64_t>(leaf_flags),
                     RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV);
  } while (fd < 0 && errno == EINTR);
  if (fd >= 0) {
    g_openat2_state.store(1, std::memory_order_relaxed);
    out.fd.reset(static_cast<int>(fd));
    return true;
  }
  int e = errno;
  if (openat2_unusable_errno(e)) {
    // These describe the system call, not the file, so they hold for every
    // later call too; remembering them saves a failed syscall per file.
    g_openat2_state.store(-1, std::memory_order_relaxed);
    return false;
  }
  g_openat2_state.store(1, std::memory_order_relaxed);
  out.rule = rule_for_errno(e);
  return true;
#else
  (void)dir_fd;
  (void)rel;
  (void)leaf_flags;
  (void)out;
  return false;
#endif
}

// Why opening `name` beneath `at` failed with ELOOP or ENOTDIR: a link there
// is "symlink", anything else (a file where a directory was wanted) is not.
FileRule classify_link_error(int at, const char* name, int e) {
  struct stat st;
  if (::fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) return FileRule::symlink;
  return rule_for_errno(e);
}

// The fallback: one openat per component, each refusing to follow a link
// and each checked to lie on the root's side of every mount point.
// Directories are opened O_PATH (search permission is all a walk needs).
OpenOutcome walk_open(int dir_fd, const std::string& rel, int leaf_flags) {
  OpenOutcome out;
  dev_t root_dev;
  if (!device_of(dir_fd, root_dev)) return out;  // io
  Fd cur;
  int at = dir_fd;
  size_t start = 0;
  for (;;) {
    size_t slash = rel.find('/', start);
    bool leaf = slash == std::string::npos;
    std::string name = rel.substr(start, leaf ? std::string::npos : slash - start);
    int flags = leaf ? leaf_flags : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int fd;
    do {
      fd = ::openat(at, name.c_str(), flags);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      int e = errno;
      // O_NOFOLLOW gives ELOOP for a link, but O_PATH|O_DIRECTORY on a link
      // gives ENOTDIR, which also means "a plain file in the middle": ask.
      out.rule = (e == ELOOP || e == ENOTDIR) ? classify_link_error(at, name.c_str(), e) : rule_for_errno(e);
      return out;
    }
    if (crosses_mount(fd, root_dev)) {
      ::close(fd);
      out.rule = FileRule::mount_point;
      return out;
    }
    if (leaf) {
      out.fd.reset(fd);
      return out;
    }
    cur.reset(fd);
    at = cur.get();
    start = slash + 1;
  }
}

}  // namespace

bool openat2_available() {
#if WS_HAVE_OPENAT2
  int state = g_openat2_state.load(std::memory_order_relaxed);
  if (state != 0) return state > 0;
  long fd = sys_openat2(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd >= 0) {
    ::close(static_cast<int>(fd));
    g_openat2_state.store(1, std::memory_order_relaxed);
    return true;
  }
  if (openat2_unusable_errno(errno)) {
    g_openat2_state.store(-1, std::memory_order_relaxed);
    return false;
  }
  return true;
#else
  return false;
#endif
}

namespace {

OpenOutcome open_with(int dir_fd, std::string_view rel, Resolve how, int leaf_flags) {
  OpenOutcome out;
  if (dir_fd < 0) return out;  // io: a moved-from root
  if (!is_plain(rel)) {
    out.rule = FileRule::not_found;
    return out;
  }
  std::string name(rel);
  if (how != Resolve::walk_only) {
    if (try_openat2(dir_fd, name, leaf_flags, out)) return out;
    if (how == Resolve::openat2_only) return out;  // rule stays io
  }
  return walk_open(dir_fd, name, leaf_flags);
}

}  // namespace

OpenOutcome open_beneath(int dir_fd, std::string_view rel, Resolve how) {
  return open_with(dir_fd, rel, how, kLeafFlags);
}

OpenOutcome open_dir_beneath(int dir_fd, std::string_view rel, Resolve how) {
  OpenOutcome out = open_with(dir_fd, rel, how, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  // O_DIRECTORY on a link at the end gives ENOTDIR, not ELOOP: ask what is there.
  if (!out.fd.valid() && out.rule == FileRule::not_found && is_plain(rel)) {
    std::string name(rel);
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      out.rule = FileRule::symlink;
  }
  return out;
}

WorkspaceRoot::ReadResult read_beneath(int dir_fd, std::string_view rel, std::uint64_t cap, bool for_write,
                                       Resolve how) {
  WorkspaceRoot::ReadResult r;
  r.error = FileError{FileRule::io, std::string(rel)};
  auto fail = [&](FileRule rule) {
    r.error.rule = rule;
    return std::move(r);
  };

  OpenOutcome o = open_beneath(dir_fd, rel, how);
  if (!o.fd.valid()) return fail(o.rule);

  struct stat st;
  if (::fstat(o.fd.get(), &st) != 0) return fail(FileRule::io);
  if (!S_ISREG(st.st_mode)) return fail(FileRule::special_file);
  // A second name for the same inode may lie outside the workspace or under
  // .secrets/, so its bytes are not this path's to show; and a file about
  // to be replaced must have one name, or the others would change too.
  // Checked on the opened file, so a link made after the open is moot.
  if (st.st_nlink > 1) {
    r.error.links = static_cast<std::uint64_t>(st.st_nlink);
    r.error.for_write = for_write;
    return fail(FileRule::hard_link);
  }
  auto too_large = [&](std::uint64_t size) {
    r.error.size = size;
    r.error.cap = cap;
    return fail(FileRule::too_large);
  };
  if (st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) > cap)
    return too_large(st.st_size < 0 ? 0 : static_cast<std::uint64_t>(st.st_size));

  // st_size is only a hint (the file may grow while we read), so the loop
  // enforces the cap itself: reading cap+1 bytes proves the file too large.
  const std::uint64_t limit = cap == UINT64_MAX ? cap : cap + 1;
  const std::uint64_t hint = static_cast<std::uint64_t>(st.st_size) + 1;
  std::string bytes;
  bytes.reserve(static_cast<size_t>(std::min(hint, limit)));
  while (bytes.size() < limit) {
    // Ask for the rest of the hinted size (one byte more proves EOF), then
    // 64 KiB blocks if it grew: a resize zero-fills, so never over-ask.
    std::uint64_t rest = bytes.size() < hint ? hint - bytes.size() : 64 * 1024;
    std::uint64_t want = std::min<std::uint64_t>(limit - bytes.size(), rest);
    size_t old = bytes.size();
    bytes.resize(old + static_cast<size_t>(want));
    ssize_t n = ::read(o.fd.get(), bytes.data() + old, static_cast<size_t>(want));
    if (n < 0) {
      bytes.resize(old);
      if (errno == EINTR) continue;
      return fail(FileRule::io);
    }
    bytes.resize(old + static_cast<size_t>(n));
    if (n == 0) break;
  }
  if (bytes.size() > cap) {
    // It grew while read: its size now, or what was read if it shrank back.
    struct stat now;
    std::uint64_t size = ::fstat(o.fd.get(), &now) == 0 && now.st_size > 0 ? static_cast<std::uint64_t>(now.st_size) : 0;
    return too_large(std::max<std::uint64_t>(size, bytes.size()));
  }

  r.ok = true;
  r.bytes = std::move(bytes);
  return r;
}

std::uint64_t extra_links_beneath(int dir_fd, std::string_view rel) {
  if (dir_fd < 0 || !is_plain(rel)) return 0;
  std::string name(rel);
  struct stat st;
  if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  if (!S_ISREG(st.st_mode) || st.st_nlink <= 1) return 0;
  return static_cast<std::uint64_t>(st.st_nlink);
}

}  // namespace ws::detail
