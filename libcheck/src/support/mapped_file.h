// A regular file's bytes, mapped read-only and populated in one call: the
// readers of the large files a build reads whole (the definition cache, the
// index) take them this way, not as a heap copy, which at 100,000
// definitions cost a copy and a page fault per fresh 4 KiB page. Both files
// are replaced by renaming a new one over them, never written in place, so
// a mapping keeps the bytes that were read.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace ws::detail {

class MappedFile {
 public:
  MappedFile() = default;  // no bytes
  MappedFile(MappedFile&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // The first `size` bytes of open file `fd` (its size, from the caller's
  // fstat); nullopt with errno set when mmap fails. The caller keeps fd.
  // `populate`: map every page now (for a file read whole), else as the
  // pages are first read (for one read in a few places).
  static std::optional<MappedFile> map(int fd, std::size_t size, bool populate = true);

  std::string_view bytes() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ws::detail
