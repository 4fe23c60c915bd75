// WorkspaceRoot::replace_all: the write discipline of every tool that edits
// files of the working tree (ws(7), WRITING FILES). Each folder is opened
// beneath the root as a file is (no link, no mount point), and every later
// step works on that folder's descriptor, so a link planted on the way after
// the check cannot redirect a write.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

// Writes the new bytes to a fresh temporary file beside the old one.
Status write_temporary(Pending& p) {
  for (int attempt = 0; attempt < 16 && p.temporary.empty(); ++attempt) {
    std::string name = "." + p.name + ".ws-new-" + random_suffix();
    Fd fd(::openat(p.dir.get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd.valid()) {
      if (errno == EEXIST) continue;
      return io_error(p.file->path, "cannot create a temporary file beside it", errno);
    }
    p.temporary = name;
    const std::string& b = p.file->bytes;
    std::size_t done = 0;
    while (done < b.size()) {
      ssize_t n = ::write(fd.get(), b.data() + done, b.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return io_error(p.file->path, "cannot write the temporary file", errno);
      done += static_cast<std::size_t>(n);
    }
    // Not synced: a working-tree file is written as git writes one
    // (core.fsync leaves the working tree out), and a sync a file would
    // cost more than the whole build at a hundred files.
    if (::fchmod(fd.get(), p.mode) != 0) return io_error(p.file->path, "cannot set the temporary file's mode", errno);
  }
  if (p.temporary.empty()) return io_error(p.file->path, "no free temporary name beside it", EEXIST);
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

// Renames the new files over the old ones. Each old file keeps a second
// name until all are in, so a failed rename can put back those replaced.
Status rename_all(std::vector<Pending>& pending) {
  for (Pending& p : pending) {
    std::string backup = "." + p.name + ".ws-old-" + random_suffix();
    if (::linkat(p.dir.get(), p.name.c_str(), p.dir.get(), backup.c_str(), 0) != 0) {
      int e = errno;
      remove_temporaries(pending);
      return io_error(p.file->path, "cannot keep the old file while writing", e);
    }
    p.backup = backup;
  }
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

}  // namespace ws
