// The workspace root: canonical, never "/" or $HOME, pinned by device and
// inode so a directory swapped in under the same path is noticed.
#include "libcheck/workspace_root.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined_open.h"

namespace ws {

namespace {

std::string quoted(std::string_view path) { return "'" + detail::printable_path(path) + "'"; }

// realpath(3) into a std::string; empty on failure with errno set.
std::string canonical(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return {};
  std::string out(resolved);
  std::free(resolved);
  return out;
}

}  // namespace

Rule to_rule(FileRule rule) {
  switch (rule) {
    case FileRule::symlink: return Rule::symlink;
    case FileRule::special_file: return Rule::special_file;
    case FileRule::hard_link: return Rule::hard_link;
    case FileRule::too_large: return Rule::too_large;
    case FileRule::not_found: return Rule::not_found;
    case FileRule::io: return Rule::io;
    case FileRule::mount_point: return Rule::mount_point;
  }
  return Rule::none;
}

const char* file_rule_name(FileRule rule) { return rule_name(to_rule(rule)); }

std::string too_large_message(std::string_view path, std::uint64_t size, std::uint64_t cap) {
  return "refused path " + quoted(path) + ": " + file_rule_name(FileRule::too_large) + " (" + std::to_string(size) +
         " bytes, over the size cap of " + std::to_string(cap) + "); split the file or raise \"size_cap\" in .ws/config.json";
}

Error too_large_error(std::string_view path, std::uint64_t size, std::uint64_t cap) {
  return make_error(Errc::invalid, too_large_message(path, size, cap), std::string(path),
                    Rule::too_large);
}

std::string FileError::message() const {
  const std::string p = quoted(path);
  const std::string name = file_rule_name(rule);
  switch (rule) {
    case FileRule::symlink:
      return "refused path " + p + ": " + name +
             " (the path is or goes through a symbolic link, and links are never followed); "
             "replace the link with the file itself";
    case FileRule::special_file:
      return "refused path " + p + ": " + name +
             " (not a regular file: a FIFO, device, socket or directory); remove it or move it out of the workspace";
    case FileRule::hard_link:
      if (!for_write)
        return "refused to read " + p + ": " + name + " (" + std::to_string(links) +
               " links; a file with more than one link may be a link out of the workspace)";
      return "refused path " + p + ": " + name +
             " (the file has more than one link, so replacing it would change the other names too); "
             "copy the file to break the link";
    case FileRule::too_large:
      return too_large_message(path, size, cap);
    case FileRule::not_found:
      return "cannot read " + p + ": " + name + " (no such file beneath the workspace root); check the path";
    case FileRule::mount_point:
      return "refused path " + p + ": " + name +
             " (the path is or goes through a mount point beneath the workspace root, and mounts are never "
             "crossed); unmount it or move the mount out of the workspace";
    case FileRule::io:
      break;
  }
  return "cannot read " + p + ": " + name + " (the file could not be opened or read); check its permissions";
}

Result<WorkspaceRoot> WorkspaceRoot::open(const std::string& dir, const std::string& home) {
  std::string canon = canonical(dir);
  if (canon.empty())
    return make_error(Errc::environment, "cannot open workspace root " + quoted(dir) + ": " + std::strerror(errno),
                      dir);
  // A refused root is "could not check" (exit 2, ws(7) EXIT STATUS), not a
  // check that said no.
  if (canon == "/")
    return make_error(Errc::environment,
                      "refused workspace root '/': the file system root is not a workspace; "
                      "run inside a repository",
                      canon);
  if (!home.empty()) {
    // Compare canonical forms, so "$HOME/." or a link to $HOME are caught
    // too; a home that does not resolve is compared as given.
    std::string home_canon = canonical(home);
    if (home_canon.empty()) {
      home_canon = home;
      while (home_canon.size() > 1 && home_canon.back() == '/') home_canon.pop_back();
    }
    if (canon == home_canon)
      return make_error(Errc::environment,
                        "refused workspace root " + quoted(canon) +
                            ": it is the home directory; run inside a repository below it",
                        canon);
  }

  int fd = ::open(canon.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return make_error(Errc::environment, "cannot open workspace root " + quoted(canon) + ": " + std::strerror(errno),
                      canon);
  WorkspaceRoot root;
  root.fd_ = fd;  // owned from here, closed by the destructor on every return
  root.path_ = std::move(canon);
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return make_error(Errc::environment,
                      "cannot stat workspace root " + quoted(root.path_) + ": " + std::strerror(errno), root.path_);
  root.dev_ = static_cast<std::uint64_t>(st.st_dev);
  root.ino_ = static_cast<std::uint64_t>(st.st_ino);
  return root;
}

WorkspaceRoot::WorkspaceRoot(WorkspaceRoot&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)), dev_(o.dev_), ino_(o.ino_) {}

WorkspaceRoot& WorkspaceRoot::operator=(WorkspaceRoot&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    dev_ = o.dev_;
    ino_ = o.ino_;
  }
  return *this;
}

WorkspaceRoot::~WorkspaceRoot() {
  if (fd_ >= 0) ::close(fd_);
}

Status WorkspaceRoot::verify_unchanged() const {
  // lstat: the canonical path had no links at start, so a link there now is
  // a replacement even if it points back at the same directory.
  struct stat st;
  if (::lstat(path_.c_str(), &st) != 0)
    return make_error(Errc::refused,
                      "refused to write: workspace root " + quoted(path_) + " is gone (" + std::strerror(errno) +
                          "); run the command again in the workspace",
                      path_);
  if (!S_ISDIR(st.st_mode) || static_cast<std::uint64_t>(st.st_dev) != dev_ ||
      static_cast<std::uint64_t>(st.st_ino) != ino_)
    return make_error(Errc::refused,
                      "refused to write: workspace root " + quoted(path_) +
                          " was replaced by another directory since start (device or inode changed); "
                          "run the command again",
                      path_);
  return Ok{};
}

WorkspaceRoot::ReadResult WorkspaceRoot::read(std::string_view rel, std::uint64_t size_cap) const {
  return read_impl(rel, size_cap, false);
}

WorkspaceRoot::ReadResult WorkspaceRoot::read_for_write(std::string_view rel, std::uint64_t size_cap) const {
  return read_impl(rel, size_cap, true);
}

std::optional<FileError> WorkspaceRoot::hard_link_refusal(std::string_view rel) const {
  std::uint64_t links = detail::extra_links_beneath(fd_, rel);
  if (!links) return std::nullopt;
  return FileError{FileRule::hard_link, std::string(rel), links};
}

WorkspaceRoot::ReadResult WorkspaceRoot::read_impl(std::string_view rel, std::uint64_t cap, bool for_write) const {
  return detail::read_beneath(fd_, rel, cap, for_write);
}

}  // namespace ws
