#include "mount_point.h"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000  // Linux 5.8 (include/uapi/linux/stat.h)
#endif

namespace ws::detail {

bool device_of(int fd, dev_t& dev) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return false;
  dev = st.st_dev;
  return true;
}

bool crosses_mount(int fd, dev_t root_dev) {
  struct statx stx;
  if (::statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx) == 0) {
    if ((stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) && (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
      return true;
    return makedev(stx.stx_dev_major, stx.stx_dev_minor) != root_dev;
  }
  dev_t dev;
  return !device_of(fd, dev) || dev != root_dev;
}

}  // namespace ws::detail
