// File stamps (file_stamp.h).
#include "libcheck/file_stamp.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace ws {

namespace {

long long nanoseconds(const struct timespec& t) { return t.tv_sec * 1000000000LL + t.tv_nsec; }

}  // namespace

FileStamp file_stamp(const struct stat& st) {
  FileStamp s;
  s.exists = true;
  s.size = st.st_size;
  s.mtime_ns = nanoseconds(st.st_mtim);
  s.ctime_ns = nanoseconds(st.st_ctim);
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  return s;
}

FileStamp file_stamp_at(int dir, const char* name, int flags) {
  struct stat st;
  if (::fstatat(dir, name, &st, flags) != 0) return FileStamp{};
  return file_stamp(st);
}

}  // namespace ws
