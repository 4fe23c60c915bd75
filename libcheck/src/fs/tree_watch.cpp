#include "tree_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>

namespace ws::detail {

StatRecord stat_record(const struct stat& st) {
  return StatRecord{static_cast<std::uint32_t>(st.st_mtim.tv_sec), static_cast<std::uint32_t>(st.st_mtim.tv_nsec),
                    static_cast<std::uint32_t>(st.st_ctim.tv_sec), static_cast<std::uint32_t>(st.st_ctim.tv_nsec),
                    static_cast<std::uint32_t>(st.st_ino),         static_cast<std::uint32_t>(st.st_uid),
                    static_cast<std::uint32_t>(st.st_gid),         static_cast<std::uint32_t>(st.st_mode),
                    static_cast<std::uint32_t>(std::min<nlink_t>(st.st_nlink, UINT32_MAX)),
                    static_cast<std::uint64_t>(st.st_size)};
}

}  // namespace ws::detail

namespace ws {

namespace {

// File systems whose every change is made through this kernel, so that
// inotify hears of it. Network file systems (a change made on another
// machine) and FUSE (a change the server process makes) are left out, as
// are overlays (a change made to a layer beneath).
constexpr std::array<unsigned long, 5> kLocalFileSystems = {
    0xEF53,      // ext2, ext3, ext4
    0x58465342,  // xfs
    0x9123683E,  // btrfs
    0x01021994,  // tmpfs
    0xF2F52010,  // f2fs
};

// A file's watch: anything that changes what its stat says, through any
// of its names.
constexpr std::uint32_t kFileEvents =
    IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF | IN_DONT_FOLLOW;
// A folder's watch: a name made, removed or renamed, and the folder itself
// removed or moved. Its files' own changes come through their watches;
// its subfolders' through theirs.
constexpr std::uint32_t kFolderEvents =
    IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// The path that names `name` in the open folder `dir_fd` (or the folder
// itself) without resolving the folder's own path again.
std::string through_descriptor(int dir_fd, const char* name) {
  std::string p = "/proc/self/fd/" + std::to_string(dir_fd);
  if (name) p.append("/").append(name);
  return p;
}

// Half of what the user may watch in all, leaving the rest to the user's
// other programs (an editor, a file manager).
std::size_t watch_budget() {
  std::ifstream in("/proc/sys/fs/inotify/max_user_watches");
  std::size_t max = 0;
  if (!(in >> max)) return 0;
  return max / 2;
}

int open_mountinfo() { return ::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC); }

std::string_view folder_of(std::string_view rel) {
  std::size_t slash = rel.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : rel.substr(0, slash + 1);
}

}  // namespace

TreeWatch::TreeWatch() : max_watches_(watch_budget()) {
  mountinfo_fd_ = open_mountinfo();
  if (mountinfo_fd_ < 0 || max_watches_ == 0) return;
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

TreeWatch::~TreeWatch() {
  if (fd_ >= 0) ::close(fd_);
  if (mountinfo_fd_ >= 0) ::close(mountinfo_fd_);
}

// Forgets every watch and every kept stat at once: closing the instance
// removes its watches in the kernel.
void TreeWatch::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  last_.clear();
  now_.clear();
  cursor_ = 0;
  folders_.clear();
  folder_watch_.clear();
  files_.clear();
  usable_root_ = false;
  listings_.clear();
  last_folder_watched_ = false;
  last_folder_.assign(1, '\0');  // no folder's name
}

bool TreeWatch::begin_walk(int root_fd) {
  if (fd_ < 0) return false;
  // What the last walk kept is what this one may reuse, less what the
  // events since then concern.
  std::swap(last_, now_);
  now_.clear();
  cursor_ = 0;
  read_events();
  if (mounts_changed()) reset();
  if (mountinfo_fd_ < 0) {  // a mount could no longer be told: inactive from now on
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    return false;
  }
  if (fd_ < 0 || !same_root(root_fd)) return false;
  enter_folder("", root_fd, nullptr);
  return usable_root_;
}

// The root is the folder kept stats were taken under, on a file system
// watched; else everything is forgotten and, on a watched file system,
// this root's stats are kept from now on.
bool TreeWatch::same_root(int root_fd) {
  struct stat st;
  if (fstat(root_fd, &st) != 0) {
    reset();
    return false;
  }
  if (usable_root_ && st.st_dev == root_dev_ && st.st_ino == root_ino_) return true;
  reset();
  struct statfs fs;
  if (fstatfs(root_fd, &fs) != 0) return false;
  const auto type = static_cast<unsigned long>(fs.f_type);
  if (std::find(kLocalFileSystems.begin(), kLocalFileSystems.end(), type) == kLocalFileSystems.end()) return false;
  root_dev_ = st.st_dev;
  root_ino_ = st.st_ino;
  usable_root_ = true;
  return true;
}

// A mount or unmount anywhere (proc(5): the mount table raises POLLPRI on a
// change): what a path leads to may have changed with no event on it.
bool TreeWatch::mounts_changed() {
  pollfd p{mountinfo_fd_, POLLPRI, 0};
  if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLPRI | POLLERR))) return false;
  ::close(mountinfo_fd_);  // a descriptor opened now starts from this table
  mountinfo_fd_ = open_mountinfo();
  return true;
}

void TreeWatch::read_events() {
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n <= 0) return;  // EAGAIN: all read
    for (ssize_t at = 0; at < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
      if (!on_event(ev->wd, ev->mask, ev->len ? std::string_view(ev->name) : std::string_view()))
        return;  // reset: what is left in the buffer belongs to the old instance
    }
  }
}

// Drops what one event may have changed. False when it dropped everything
// (reset).
bool TreeWatch::on_event(int wd, std::uint32_t mask, std::string_view name) {
  if (mask & IN_Q_OVERFLOW) {
    reset();
    return false;
  }
  if (auto folder = folders_.find(wd); folder != folders_.end()) {
    // The folder itself, or a folder in it: the names beneath may now lead
    // elsewhere.
    if (name.empty() || (mask & IN_ISDIR)) {
      reset();
      return false;
    }
    if (mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) listings_.erase(folder->second);
    std::string path = folder->second;
    path.append(name);
    last_.drop(path);
    return true;
  }
  if (auto file = files_.find(wd); file != files_.end()) {
    for (const std::string& path : file->second) last_.drop(path);
    if (mask & IN_IGNORED) files_.erase(file);
  }
  return true;
}

void TreeWatch::enter_folder(std::string_view rel, int parent_fd, const char* name) {
  if (fd_ < 0 || !usable_root_) return;
  last_folder_.assign(1, '\0');
  const std::uint32_t mask = name ? kFolderEvents | IN_DONT_FOLLOW : kFolderEvents;
  int wd = inotify_add_watch(fd_, through_descriptor(parent_fd, name).c_str(), mask);
  auto known = folder_watch_.find(std::string(rel));
  if (wd < 0) {
    // Unwatched: its files' stats are no longer vouched for.
    if (known != folder_watch_.end()) reset();
    return;
  }
  if (known != folder_watch_.end()) {
    if (known->second != wd) reset();  // another folder at this name since
    return;
  }
  listings_.erase(std::string(rel));  // read before its watch was set
  folder_watch_.emplace(std::string(rel), wd);
  folders_.emplace(wd, std::string(rel));
}

bool TreeWatch::folder_watched(std::string_view folder) {
  if (folder != last_folder_) {
    last_folder_.assign(folder);
    last_folder_watched_ = folder_watch_.find(last_folder_) != folder_watch_.end();
  }
  return last_folder_watched_;
}

const detail::FolderListing* TreeWatch::listing(std::string_view rel) {
  if (fd_ < 0 || !usable_root_) return nullptr;
  auto it = listings_.find(std::string(rel));
  if (it == listings_.end()) return nullptr;
  return &it->second;
}

void TreeWatch::keep_listing(std::string_view rel, const detail::FolderListing& listing) {
  if (fd_ < 0 || !usable_root_ || folder_watch_.find(std::string(rel)) == folder_watch_.end()) return;
  listings_.insert_or_assign(std::string(rel), listing);
}

// The last walk's stat of `rel`, if no event dropped it. The walk asks in
// bytewise order of the paths, the order they were kept in.
const detail::StatRecord* TreeWatch::kept(std::string_view rel) {
  const std::vector<Slot>& slots = last_.slots;
  while (cursor_ < slots.size() && last_.path(slots[cursor_]) < rel) ++cursor_;
  if (cursor_ == slots.size() || !slots[cursor_].valid || last_.path(slots[cursor_]) != rel) return nullptr;
  return &slots[cursor_].stat;
}

std::optional<detail::StatRecord> TreeWatch::stat(std::string_view rel, int dir_fd, const char* name) {
  const bool watched = fd_ >= 0 && usable_root_ && folder_watched(folder_of(rel));
  if (watched)
    if (const detail::StatRecord* st = kept(rel)) {
      now_.add(rel, *st);
      return *st;
    }
  // The watch first: a change made after the stat is then reported.
  int wd = -1;
  if (watched && files_.size() < max_watches_)
    wd = inotify_add_watch(fd_, through_descriptor(dir_fd, name).c_str(), kFileEvents);
  struct stat st;
  if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  detail::StatRecord record = detail::stat_record(st);
  if (wd >= 0) {
    std::vector<std::string>& names = files_[wd];
    if (std::find(names.begin(), names.end(), rel) == names.end()) names.emplace_back(rel);
    now_.add(rel, record);
  }
  return record;
}

void TreeWatch::Walked::add(std::string_view path, const detail::StatRecord& stat) {
  slots.push_back(Slot{static_cast<std::uint32_t>(names.size()), static_cast<std::uint32_t>(path.size()), stat, true});
  names.append(path);
}

void TreeWatch::Walked::drop(std::string_view path) {
  auto at = std::lower_bound(slots.begin(), slots.end(), path,
                             [this](const Slot& s, std::string_view p) { return this->path(s) < p; });
  if (at != slots.end() && this->path(*at) == path) at->valid = false;
}

void TreeWatch::Walked::clear() {
  names.clear();
  slots.clear();
}

}  // namespace ws
