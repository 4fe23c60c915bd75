// WorkspaceRoot::replace_all: the write discipline of every tool that edits
// files of the working tree (ws(7), WRITING FILES). Each folder is opened
// beneath the root as a file is (no link, no mount point), and every later
// step works on that folder's descriptor, so a link planted on the way after
// the check cannot redirect a write.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "confined_open.h"
#include "libcheck/workspace_root.h"
#include "printable_path.h"

namespace ws {

namespace {

using detail::Fd;

std::string shown_quoted(std::string_view path) { return "'" + detail::printable_path(path) + "'"; }

// A file on its way to replace one: the folder it lies in, the names.
struct Pending {
  const WorkspaceRoot::Replacement* file = nullptr;
  Fd dir;
  std::string name;       // the file's name in `dir`
  std::string temporary;  // the new bytes, not yet renamed over `name`
  std::string backup;     // a second name of the old file while the renames run
  mode_t mode = 0644;
};

std::string folder_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string name_of(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string random_suffix() {
  static thread_local std::mt19937_64 gen{std::random_device{}()};
  static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string s(10, '0');
  for (char& c : s) c = kDigits[gen() % 36];
  return s;
}

Error io_error(std::string_view path, std::string_view what, int e) {
  return make_error(Errc::environment,
                    "cannot write " + shown_quoted(path) + ": " + std::string(what) + " (" + std::strerror(e) +
                        "); nothing was changed",
                    std::string(path), Rule::io);
}

Error file_error(const FileError& fe) {
  return make_error(fe.rule == FileRule::io ? Errc::environment : Errc::refused, fe.message(), fe.path,
                    to_rule(fe.rule));
}

// Opens the file's folder beneath the root, reads the file as a write reads
// it and checks that it still holds the expected bytes.
Result<Pending> check_one(int root_fd, const WorkspaceRoot::Replacement& r, std::uint64_t cap) {
  Pending p;
  p.file = &r;
  p.name = name_of(r.path);
  std::string folder = folder_of(r.path);
  if (folder.empty()) {
    p.dir.reset(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  } else {
    detail::OpenOutcome o = detail::open_dir_beneath(root_fd, folder);
    if (!o.fd.valid()) return file_error(FileError{o.rule, r.path});
    p.dir = std::move(o.fd);
  }
  if (!p.dir.valid()) return io_error(r.path, "cannot open its folder", errno);
  auto now = detail::read_beneath(p.dir.get(), p.name, cap, true);
  if (!now.ok) {
    now.error.path = r.path;
    return file_error(now.error);
  }
  if (now.bytes != r.expected)
    return make_error(Errc::refused,
                      "refused to write " + shown_quoted(r.path) +
                          ": the file changed since it was read; nothing was changed, run the command again",
                      r.path, Rule::none);
  struct stat st;
  if (::fstatat(p.dir.get(), p.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) p.mode = st.st_mode & 07777;
  return p;
}

// Writes `bytes` to a fresh temporary file ".NAME.ws-new-*" in `dir`,
// with `mode` (nullopt: the default mode less the umask, as a new file
// gets); returns its name.
Result<std::string> write_temporary_file(int dir, const std::string& name, std::string_view bytes,
                                         std::optional<mode_t> mode, std::string_view path) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string temporary = "." + name + ".ws-new-" + random_suffix();
    Fd fd(::openat(dir, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode ? 0600 : 0666));
    if (!fd.valid()) {
      if (errno == EEXIST) continue;
      return io_error(path, "cannot create a temporary file beside it", errno);
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        int e = errno;
        ::unlinkat(dir, temporary.c_str(), 0);
        return io_error(path, "cannot write the temporary file", e);
      }
      done += static_cast<std::size_t>(n);
    }
    // Not synced: a working-tree file is written as git writes one
    // (core.fsync leaves the working tree out), and a sync a file would
    // cost more than the whole build at a hundred files.
    if (mode && ::fchmod(fd.get(), *mode) != 0) {
      int e = errno;
      ::unlinkat(dir, temporary.c_str(), 0);
      return io_error(path, "cannot set the temporary file's mode", e);
    }
    return temporary;
  }
  return io_error(path, "no free temporary name beside it", EEXIST);
}

// Writes the new bytes to a fresh temporary file beside the old one.
Status write_temporary(Pending& p) {
  auto name = write_temporary_file(p.dir.get(), p.name, p.file->bytes, p.mode, p.file->path);
  if (!name) return name.error();
  p.temporary = std::move(*name);
  return Ok{};
}

// Whether two descriptors name the same folder: the one the temporary file
// was written in must still be the one the path leads to.
bool same_folder(int a, int b) {
  struct stat sa, sb;
  return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void remove_temporaries(std::vector<Pending>& pending) {
  for (Pending& p : pending) {
    if (!p.temporary.empty()) ::unlinkat(p.dir.get(), p.temporary.c_str(), 0);
    if (!p.backup.empty()) ::unlinkat(p.dir.get(), p.backup.c_str(), 0);
  }
}

// A second name for each old file, so that a failed rename among several
// can put back those replaced.
Status keep_backups(std::vector<Pending>& pending) {
  for (Pending& p : pending) {
    std::string backup = "." + p.name + ".ws-old-" + random_suffix();
    if (::linkat(p.dir.get(), p.name.c_str(), p.dir.get(), backup.c_str(), 0) != 0) {
      int e = errno;
      remove_temporaries(pending);
      return io_error(p.file->path, "cannot keep the old file while writing", e);
    }
    p.backup = backup;
  }
  return Ok{};
}

// Renames the new files over the old ones, the old ones kept under a
// second name until all are in. A single file needs none: its one rename
// happens or not. It gets none, so a process killed while writing it never
// leaves a second name behind (nor the file, for that instant, with two
// links).
Status rename_all(std::vector<Pending>& pending) {
  if (pending.size() > 1)
    if (auto kept = keep_backups(pending); !kept) return kept.error();
  for (std::size_t i = 0; i < pending.size(); ++i) {
    Pending& p = pending[i];
    if (::renameat(p.dir.get(), p.temporary.c_str(), p.dir.get(), p.name.c_str()) == 0) {
      p.temporary.clear();
      continue;
    }
    int e = errno;
    for (std::size_t k = 0; k < i; ++k)
      ::renameat(pending[k].dir.get(), pending[k].backup.c_str(), pending[k].dir.get(), pending[k].name.c_str());
    remove_temporaries(pending);
    return io_error(p.file->path, "cannot rename the new file into place", e);
  }
  remove_temporaries(pending);  // the backups
  return Ok{};
}

}  // namespace

Status WorkspaceRoot::replace_all(const std::vector<Replacement>& files, std::uint64_t size_cap) const {
  if (auto same = verify_unchanged(); !same) return same.error();
  std::vector<Pending> pending;
  pending.reserve(files.size());
  for (const Replacement& r : files) {
    auto p = check_one(fd_, r, size_cap);
    if (!p) {
      remove_temporaries(pending);
      return p.error();
    }
    pending.push_back(std::move(*p));
    if (auto w = write_temporary(pending.back()); !w) {
      remove_temporaries(pending);
      return w.error();
    }
  }
  // Every file checked again just before the renames: the window in which
  // another writer can slip in is the renames' own.
  for (Pending& p : pending) {
    auto again = check_one(fd_, *p.file, size_cap);
    if (!again) {
      remove_temporaries(pending);
      return again.error();
    }
    if (!same_folder(p.dir.get(), again->dir.get())) {
      remove_temporaries(pending);
      return make_error(Errc::refused,
                        "refused to write " + shown_quoted(p.file->path) +
                            ": its folder was moved or replaced since it was read; nothing was changed, run the "
                            "command again",
                        p.file->path, Rule::none);
    }
  }
  return rename_all(pending);
}

namespace {

// The folder `folder` beneath the root, made where missing: every folder on
// the way opened as open_dir_beneath opens one (no link, no mount point),
// one component at a time so that each is made inside the folder opened
// before it.
Result<Fd> folder_made_beneath(int root_fd, const std::string& folder, std::string_view path) {
  Fd dir(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) return io_error(path, "cannot open its folder", errno);
  for (std::size_t start = 0; start < folder.size();) {
    std::size_t slash = std::min(folder.find('/', start), folder.size());
    std::string component = folder.substr(start, slash - start);
    start = slash + 1;
    detail::OpenOutcome o = detail::open_dir_beneath(dir.get(), component);
    if (!o.fd.valid() && o.rule == FileRule::not_found) {
      if (::mkdirat(dir.get(), component.c_str(), 0777) != 0 && errno != EEXIST)
        return io_error(path, "cannot make its folder", errno);
      o = detail::open_dir_beneath(dir.get(), component);
    }
    if (!o.fd.valid()) return file_error(FileError{o.rule, std::string(path)});
    dir = std::move(o.fd);
  }
  return dir;
}

// A delete refused because the file is no longer what was read.
Error changed_before_delete(std::string_view path) {
  return make_error(Errc::refused,
                    "refused to delete " + shown_quoted(path) + ": the file changed since it was read; nothing was changed",
                    std::string(path), Rule::content_changed);
}

}  // namespace

Status WorkspaceRoot::create_new(std::string_view rel, std::string_view bytes, std::uint64_t size_cap) const {
  if (auto same = verify_unchanged(); !same) return same.error();
  if (bytes.size() > size_cap) return too_large_error(rel, bytes.size(), size_cap);
  auto dir = folder_made_beneath(fd_, folder_of(rel), rel);
  if (!dir) return dir.error();
  std::string name = name_of(rel);
  auto temporary = write_temporary_file(dir->get(), name, bytes, std::nullopt, rel);
  if (!temporary) return temporary.error();
  int linked = ::linkat(dir->get(), temporary->c_str(), dir->get(), name.c_str(), 0);
  int e = errno;
  ::unlinkat(dir->get(), temporary->c_str(), 0);
  if (linked == 0) return Ok{};
  if (e == EEXIST)
    return make_error(Errc::refused, "refused to write " + shown_quoted(rel) + ": it exists; nothing was changed",
                      std::string(rel), Rule::exists);
  return io_error(rel, "cannot link the new file into place", e);
}

Status WorkspaceRoot::remove_if_holds(std::string_view rel, std::string_view expected, std::uint64_t size_cap) const {
  if (auto same = verify_unchanged(); !same) return same.error();
  std::string folder = folder_of(rel), name = name_of(rel);
  Fd dir;
  if (folder.empty()) {
    dir.reset(::fcntl(fd_, F_DUPFD_CLOEXEC, 0));
  } else {
    detail::OpenOutcome o = detail::open_dir_beneath(fd_, folder);
    if (!o.fd.valid()) return file_error(FileError{o.rule, std::string(rel)});
    dir = std::move(o.fd);
  }
  if (!dir.valid()) return io_error(rel, "cannot open its folder", errno);
  // Checked where it stands first: a link or a second name is refused by
  // its own rule, before anything moves.
  auto now = detail::read_beneath(dir.get(), name, size_cap, true);
  if (!now.ok) {
    now.error.path = std::string(rel);
    return file_error(now.error);
  }
  if (now.bytes != expected) return changed_before_delete(rel);
  std::string aside = "." + name + ".ws-old-" + random_suffix();
  if (::renameat2(dir.get(), name.c_str(), dir.get(), aside.c_str(), RENAME_NOREPLACE) != 0)
    return io_error(rel, "cannot move the file aside", errno);
  auto moved = detail::read_beneath(dir.get(), aside, size_cap, true);
  if (moved.ok && moved.bytes == expected) {
    if (::unlinkat(dir.get(), aside.c_str(), 0) == 0) return Ok{};
    int e = errno;
    ::renameat2(dir.get(), aside.c_str(), dir.get(), name.c_str(), RENAME_NOREPLACE);
    return io_error(rel, "cannot remove the file", e);
  }
  // Not the bytes expected, or no longer a file that may be read: back to
  // its name, unless a new file took it meanwhile (then it stays aside,
  // under the temporary name, rather than overwrite that one).
  ::renameat2(dir.get(), aside.c_str(), dir.get(), name.c_str(), RENAME_NOREPLACE);
  return changed_before_delete(rel);
}

}  // namespace ws
