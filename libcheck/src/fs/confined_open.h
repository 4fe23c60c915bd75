// Internal: opening and reading files beneath a directory fd without ever
// following a link or blocking. WorkspaceRoot is the public face; this header
// exists so tests can drive each resolution strategy directly (the fallback
// walk only runs on kernels without openat2, which CI may never be).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "libcheck/workspace_root.h"
#include "printable_path.h"

namespace ws::detail {

// Owns a file descriptor; closes it on every path out.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

enum class Resolve {
  automatic,     // openat2 when the kernel allows it, else the walk
  openat2_only,  // fails with FileRule::io when openat2 is unavailable
  walk_only,     // component-by-component O_NOFOLLOW walk
};

struct OpenOutcome {
  Fd fd;                          // valid on success
  FileRule rule = FileRule::io;   // why not, otherwise
};

// Opens `rel` for reading beneath `dir_fd`. `rel` must be plain ("a/b.json":
// no empty, '.' or '..' components, not absolute, no NUL); anything else is
// not_found, since no such name can lie beneath the directory.
OpenOutcome open_beneath(int dir_fd, std::string_view rel, Resolve how);

// Opens the folder `rel` beneath `dir_fd` the same way (no link, no mount
// point on the way or at the end), for reading its entries and for the
// *at calls that create and rename files in it.
OpenOutcome open_dir_beneath(int dir_fd, std::string_view rel, Resolve how = Resolve::automatic);

// Opens and reads `rel` whole, applying the checks WorkspaceRoot::read and
// read_for_write document (special files, links, hard links, size cap).
WorkspaceRoot::ReadResult read_beneath(int dir_fd, std::string_view rel, std::uint64_t cap, bool for_write,
                                       Resolve how = Resolve::automatic);

// The link count of `rel` beneath `dir_fd` when it is a regular file with
// more than one link; 0 otherwise (not plain, missing, not a regular file,
// one link). One fstatat, not a confined open: a link in a directory on the
// way is followed, which can only change what a listing names, never what
// is read (read_beneath checks the file it opens).
std::uint64_t extra_links_beneath(int dir_fd, std::string_view rel);

// True when this process can use openat2 (probed once).
bool openat2_available();

}  // namespace ws::detail
