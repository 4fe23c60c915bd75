// What a workspace on the index's view was opened from (workspace.h,
// StagedSources).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "confined_open.h"
#include "libcheck/workspace.h"

namespace ws {

namespace {

// The index's stamp, then its checksum: the SHA-1 git writes over the whole
// file as its last 20 bytes, so a rewrite that kept size and times (an
// inode reused within one tick of the clock) is still seen. Both from one
// open file, so they describe the same file, opened as the view's reader
// opens it (index_file.cpp): through a link, the file the link leads to.
// Never waiting: a FIFO put there opens at once and is stamped, not read
// (the open that follows refuses it, git_files.h).
void add_index(const std::string& path, StagedSources& s) {
  detail::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  struct stat st;
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
    s.files.push_back(FileStamp{});
    return;
  }
  s.files.push_back(file_stamp(st));
  char tail[20];
  if (S_ISREG(st.st_mode) && st.st_size >= 20 &&
      ::pread(fd.get(), tail, sizeof tail, st.st_size - 20) == sizeof tail)
    s.index_checksum.assign(tail, sizeof tail);
}

// The kind pack's folder and each of its manifests, by name, stat'ed as
// the pack is read (workspace.cpp reads through links).
void add_kind_pack(const std::string& dir, StagedSources& s) {
  s.files.push_back(file_stamp_at(AT_FDCWD, dir.c_str(), 0));
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<std::pair<std::string, FileStamp>> manifests;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.size() < 5 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
    manifests.emplace_back(name, file_stamp_at(::dirfd(d), e->d_name, 0));
  }
  ::closedir(d);
  std::sort(manifests.begin(), manifests.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& m : manifests) s.files.push_back(m.second);
}

}  // namespace

Result<StagedSources> staged_sources(const Repository& repo, const OpenOptions& options) {
  StagedSources s;
  auto base = view_base_commit(repo, options.view);
  if (!base) return base.error();
  s.base_commit = std::move(base).value();
  add_index(repo.index_file(), s);
  add_kind_pack(options.kinds_dir.empty() ? default_kinds_dir() : options.kinds_dir, s);
  return s;
}

}  // namespace ws
