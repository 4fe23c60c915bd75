// Files under <git dir>/ws/cache/: mapped whole to be read, replaced whole
// to be written. A reader sees the old file or the new one, never a part:
// writing goes to a temporary file in the same folder, which is fsynced and
// renamed over the old one (of two writers at once the last one wins).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "libcheck/result.h"
#include "mapped_file.h"

namespace ws::detail {

// The whole of `file`, mapped; nullopt when it does not exist. An error for
// anything else that is not a regular file of at most `max_size` bytes (a
// link is not followed), or that cannot be opened or mapped. `populate` as
// for MappedFile::map.
Result<std::optional<MappedFile>> map_cache_file(const std::string& file, std::uint64_t max_size,
                                                 bool populate = true);

// Writes all of `bytes` to `fd`, retrying short writes.
Status write_all(int fd, std::string_view bytes);

// Replaces `file` (creating its folder) with what `write` puts into the
// file descriptor it is given. `what` names the file in the error message
// ("the definition cache").
Status replace_cache_file(const std::string& file, std::string_view what,
                          const std::function<Status(int fd)>& write);

}  // namespace ws::detail
