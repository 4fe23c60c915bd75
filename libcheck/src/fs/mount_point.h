// Mount points beneath the workspace root (ws(7), PATH POLICY): no read and
// no walk of the working tree crosses one, since what is mounted there (a
// bind mount of a folder outside, a tmpfs) is not the workspace's.
#pragma once

#include <sys/types.h>

namespace ws::detail {

// The device of the open file `fd`, or false when it cannot be told.
bool device_of(int fd, dev_t& dev);

// True when the open file `fd`, reached beneath a root on device `root_dev`
// without following links, lies across a mount point: it is the root of a
// mount (statx's STATX_ATTR_MOUNT_ROOT, which also sees a bind mount from
// the same file system), or it lies on another device (all that a kernel
// older than Linux 5.8 can tell). A file that cannot be examined counts as
// across, so an unknown is never read.
bool crosses_mount(int fd, dev_t root_dev);

}  // namespace ws::detail
