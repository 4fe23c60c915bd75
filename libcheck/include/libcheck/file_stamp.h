// A file as a stat sees it, for a process that keeps what it read from a
// file and must notice when the file is no longer what it read.
#pragma once

struct stat;

namespace ws {

// What changes with a file's bytes or when another file takes its name:
// its size, its modification and change times (nanoseconds), its device
// and inode. Writing a file anew through a rename, as git writes its index,
// gives it a new inode; writing it in place moves its change time.
struct FileStamp {
  bool exists = false;
  long long size = 0;
  long long mtime_ns = 0;
  long long ctime_ns = 0;
  unsigned long long dev = 0;
  unsigned long long ino = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp file_stamp(const struct stat& st);
// fstatat(dir, name, ..., flags) as a stamp; one that does not exist when
// the stat fails.
FileStamp file_stamp_at(int dir, const char* name, int flags);

}  // namespace ws
