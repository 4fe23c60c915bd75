// Files under <git dir>/ws/cache/: mapped whole to be read, replaced whole
// to be written. A reader sees the old file or the new one, never a part:
// writing goes to a temporary file in the same folder, which is fsynced and
// renamed over the old one (of two writers at once the last one wins).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

// Writes a file through a 1 MiB buffer, integers little-endian, while
// taking XXH3's 64-bit hash of what passes until the checksum is put: a
// cache file is never laid out whole in memory (tens of MB at 100,000
// definitions). The first error sticks and is what finish() returns.
class CacheWriter {
 public:
  explicit CacheWriter(int fd);
  CacheWriter(const CacheWriter&) = delete;
  CacheWriter& operator=(const CacheWriter&) = delete;
  ~CacheWriter();

  void put(std::string_view bytes);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void str(std::string_view s) {  // u32 length, then the bytes
    u32(static_cast<std::uint32_t>(s.size()));
    put(s);
  }
  // Bytes put so far: the offset of the next.
  std::uint64_t written() const { return written_; }
  // Puts the checksum of everything put so far; later bytes are not summed.
  void put_checksum();
  [[nodiscard]] Status finish();

 private:
  void flush();
  int fd_;
  std::string buf_;
  struct Sum;
  std::unique_ptr<Sum> sum_;  // XXH3's state, kept out of this header
  std::uint64_t written_ = 0;
  Status status_ = Ok{};
};

// Replaces `file` (creating its folder) with what `write` puts into the
// file descriptor it is given. `what` names the file in the error message
// ("the definition cache").
Status replace_cache_file(const std::string& file, std::string_view what,
                          const std::function<Status(int fd)>& write);

}  // namespace ws::detail
