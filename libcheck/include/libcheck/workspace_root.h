// The workspace root and confined reads beneath it.
//
// Files are opened beneath the root without following links or crossing a
// mount point (openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV
// where the kernel has it, an O_NOFOLLOW walk with a device check otherwise).
// A symlink anywhere in the path, a mount point on the way, a FIFO or device,
// a file over the size cap, or (for writing) a file with more than one link
// is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"

namespace ws {

inline constexpr std::uint64_t kDefaultSizeCap = 1u << 20;  // 1 MiB

// Rules a confined file access can break, besides the path policy's.
enum class FileRule { symlink, special_file, hard_link, too_large, not_found, io, mount_point };
// The rule as an Error carries it (libcheck/result.h says why FileRule stays
// its own enum), and its name: rule_name(to_rule(rule)).
Rule to_rule(FileRule rule);
const char* file_rule_name(FileRule rule);

// The one wording of a file over the size cap (ws(7), PATH POLICY), whether
// the working tree's read, a committed blob's header or the build's probe
// found it: "refused path 'P': too-large (S bytes, over the size cap of C);
// split the file or raise "size_cap" in .ws/config.json".
std::string too_large_message(std::string_view path, std::uint64_t size, std::uint64_t cap);
// That refusal as an error (Errc::invalid, Rule::too_large, subject `path`).
Error too_large_error(std::string_view path, std::uint64_t size, std::uint64_t cap);

struct FileError {
  FileRule rule;
  std::string path;
  std::uint64_t links = 0;  // hard_link: how many names the file has
  bool for_write = false;   // hard_link: refused as a file about to be replaced
  std::uint64_t size = 0;   // too_large: the file's size, in bytes
  std::uint64_t cap = 0;    // too_large: the size cap it is over
  std::string message() const;  // one line naming the path, the rule and what to do
};

class WorkspaceRoot {
 public:
  // Canonicalises `dir`, refuses "/" and `home` (pass $HOME; empty skips the
  // check), opens it and records its device and inode.
  static Result<WorkspaceRoot> open(const std::string& dir, const std::string& home);

  WorkspaceRoot(WorkspaceRoot&&) noexcept;
  WorkspaceRoot& operator=(WorkspaceRoot&&) noexcept;
  WorkspaceRoot(const WorkspaceRoot&) = delete;
  WorkspaceRoot& operator=(const WorkspaceRoot&) = delete;
  ~WorkspaceRoot();

  const std::string& path() const { return path_; }

  // Checks that the root path still names the directory opened at start
  // (same device and inode). Call before writing anything.
  Status verify_unchanged() const;

  struct ReadResult {
    bool ok = false;
    std::string bytes;
    FileError error{FileRule::io, {}};
  };
  // Reads `rel` (already accepted by the path policy) beneath the root.
  // Never blocks on a FIFO; never follows a link. A regular file with more
  // than one hard link is refused (checked on the opened file): another
  // name of it may lie outside the workspace or under .secrets/.
  ReadResult read(std::string_view rel, std::uint64_t size_cap = kDefaultSizeCap) const;

  // Like read(), with the hard-link refusal worded for a file about to be
  // replaced: the check used before a file is written.
  ReadResult read_for_write(std::string_view rel, std::uint64_t size_cap = kDefaultSizeCap) const;

  // The hard-link refusal read() would give `rel`, found with one stat and
  // no open, for callers that show names only (a listing); nullopt when
  // `rel` is not a regular file with several links. read() checks again on
  // the file it opens, so a change in between cannot leak content.
  std::optional<FileError> hard_link_refusal(std::string_view rel) const;

  // One file to replace: `path` (accepted by the path policy for writing)
  // must still hold `expected`, the bytes read before; it gets `bytes`.
  struct Replacement {
    std::string path;
    std::string expected;
    std::string bytes;
  };
  // Replaces every file of `files` or none (ws(7), WRITING FILES). Each
  // file is read again as read_for_write() reads it (no link, one name,
  // under the cap) and must still hold its `expected` bytes; the new bytes
  // go to a temporary file in the same folder, with the file's mode (not
  // synced, as git writes the working tree);
  // only when every file has passed and every temporary file is written
  // are they renamed over the files, in the order given. A failure before
  // that removes the temporary files and changes nothing; a failed rename
  // puts back the files already replaced. A kill during the renames can
  // leave some files replaced and a temporary file behind (named
  // ".NAME.ws-new-*"), which the error-free run of the same command redoes.
  Status replace_all(const std::vector<Replacement>& files, std::uint64_t size_cap = kDefaultSizeCap) const;

  // Creates `rel` (accepted by the path policy for writing), which must not
  // exist, holding `bytes` (ws(7), WRITING FILES). Missing folders on the
  // way are made beneath the root (each opened as a file's folder is: no
  // link, no mount point). The bytes go to a temporary file in the folder,
  // which is then linked to the name, an act that fails if the name has
  // been taken meanwhile (Rule::exists), and removed. A kill leaves at most
  // a temporary file ".NAME.ws-new-*", never a part of the file.
  Status create_new(std::string_view rel, std::string_view bytes, std::uint64_t size_cap = kDefaultSizeCap) const;

  // Removes `rel` (accepted by the path policy for writing) when it holds
  // `expected`. The file is first renamed to a temporary name in its folder
  // and read there as read_for_write() reads it, so no writer can slip in
  // between the check and the removal; holding other bytes, it is renamed
  // back (only if its name is still free) and nothing changes
  // (Rule::content_changed).
  Status remove_if_holds(std::string_view rel, std::string_view expected, std::uint64_t size_cap = kDefaultSizeCap) const;

 private:
  WorkspaceRoot() = default;
  ReadResult read_impl(std::string_view rel, std::uint64_t cap, bool for_write) const;
  std::string path_;
  int fd_ = -1;
  std::uint64_t dev_ = 0, ino_ = 0;
};

}  // namespace ws
