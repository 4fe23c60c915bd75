// A long-running process's watch of its working tree (ws-mcp(1), WARM
// STATE): the stat a walk took of a file is given again to the next walk,
// without a system call, while the kernel has reported nothing that could
// have changed it.
//
// What vouches for a kept stat (inotify(7)):
// - a watch on the file itself, set before its stat was taken, so a change
//   made after it is reported whatever name it is made through (a second
//   hard link anywhere, its link count, its mode, owner or times);
// - a watch on the folder holding it, set before the walk read that folder,
//   so a name created, removed or renamed over is reported. A folder's
//   entries are kept the same way: read again only once a name in it was
//   made, removed or renamed.
// Everything kept is dropped at once when the kernel cannot vouch for the
// set as a whole: the event queue overflowed, a folder was created,
// removed, renamed or changed, the mount table changed, or the root is no
// longer the folder it was. Nothing is kept on a file system whose changes
// may be made where this kernel does not see them (network and FUSE file
// systems: only the local ones of kLocalFileSystems are watched).
//
// Its blind spot, the one git's fsmonitor has: a write through a shared
// memory map raises no event. Such a file is seen changed when its writer
// closes a descriptor it wrote through (IN_CLOSE_WRITE), or when anything
// else drops its stat; until then it reads as it was. A tool whose answer
// is the change itself (commit) takes every stat afresh instead.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws::detail {

// What a working-tree status compares of a stat, as the index keeps it
// (32-bit fields): a third of a struct stat, so the stats of 100,000
// tracked files fit in 5 MB, not 14.
struct StatRecord {
  std::uint32_t mtime_s, mtime_ns, ctime_s, ctime_ns, ino, uid, gid;
  std::uint32_t st_mode;
  std::uint32_t nlink;  // for the hard-link refusal
  std::uint64_t size;
};
StatRecord stat_record(const struct stat& st);

// A folder's entries as a walk read them (worktree_walk.cpp): each name
// once, with '/' after a folder's, NUL after each; entries sorted by key.
struct FolderListing {
  struct Entry {
    // The key's first eight bytes, big-endian, zero-padded (the sort's).
    std::uint64_t prefix;
    std::uint32_t offset;  // of the key in `names`
    std::uint32_t size;
    std::uint8_t type;  // the walk's item type
  };
  std::string names;
  std::vector<Entry> entries;
  unsigned char ignore_file_type = 0;  // the d_type of its .gitignore (DT_REG when it has none)
  std::string_view key(const Entry& e) const { return std::string_view(names).substr(e.offset, e.size); }
};

}  // namespace ws::detail

namespace ws {

class TreeWatch {
 public:
  // Inactive (every stat is taken afresh) when inotify is unavailable.
  TreeWatch();
  ~TreeWatch();
  TreeWatch(const TreeWatch&) = delete;
  TreeWatch& operator=(const TreeWatch&) = delete;

  // Starts a walk of the tree whose root folder is open as `root_fd`:
  // reads every event queued so far and drops what they concern. False:
  // this walk keeps and reuses nothing (inactive, or a file system not
  // watched); every stat is then taken afresh.
  bool begin_walk(int root_fd);
  // The walk is about to read the folder `rel` ("a/b/"), found as `name` in
  // the open folder `parent_fd`. Its files' stats are kept only once this
  // watch is set.
  void enter_folder(std::string_view rel, int parent_fd, const char* name);
  // The stat of the file (or link) `rel`, named `name` in the open folder
  // `dir_fd`, not following a link: the kept one, or taken now (after a
  // watch is set on it) and kept. nullopt: it is gone. A walk asks in
  // bytewise order of the paths (its own order); one asked out of order is
  // taken afresh.
  std::optional<detail::StatRecord> stat(std::string_view rel, int dir_fd, const char* name);

  // The entries of folder `rel` as a walk last read them, if no name in it
  // was made, removed or renamed since; null otherwise. Valid until the
  // next call.
  const detail::FolderListing* listing(std::string_view rel);
  // What the walk read of folder `rel` after enter_folder(rel).
  void keep_listing(std::string_view rel, const detail::FolderListing& listing);

 private:
  // A kept stat, its path at `offset` in its walk's names.
  struct Slot {
    std::uint32_t offset, size;
    detail::StatRecord stat;
    bool valid;
  };
  // One walk's kept stats, in the walk's order, which is bytewise order of
  // the paths: the next walk finds each with a cursor, an event by a
  // binary search.
  struct Walked {
    std::string names;
    std::vector<Slot> slots;
    std::string_view path(const Slot& s) const { return std::string_view(names).substr(s.offset, s.size); }
    void add(std::string_view path, const detail::StatRecord& stat);
    void drop(std::string_view path);
    void clear();
  };

  void reset();
  bool same_root(int root_fd);
  bool mounts_changed();
  void read_events();
  bool on_event(int wd, std::uint32_t mask, std::string_view name);
  bool folder_watched(std::string_view folder);
  const detail::StatRecord* kept(std::string_view rel);

  int fd_ = -1;            // the inotify instance; -1: inactive
  int mountinfo_fd_ = -1;  // /proc/self/mountinfo, polled for a change
  bool usable_root_ = false;
  dev_t root_dev_ = 0;
  ino_t root_ino_ = 0;
  std::size_t max_watches_ = 0;
  Walked last_;  // what the last walk kept: read by this one
  Walked now_;   // what this walk keeps
  std::size_t cursor_ = 0;  // in last_.slots
  std::unordered_map<int, std::string> folders_;      // watch → folder ("" the root)
  std::unordered_map<std::string, int> folder_watch_;  // folder → watch
  std::unordered_map<int, std::vector<std::string>> files_;  // watch → the file's names here
  std::unordered_map<std::string, detail::FolderListing> listings_;  // folder → its entries
  std::string last_folder_ = std::string(1, '\0');  // the folder of the last stat asked for, and whether it is watched
  bool last_folder_watched_ = false;
};

}  // namespace ws
