#include "mapped_file.h"

#include <sys/mman.h>

namespace ws::detail {

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    this->~MappedFile();
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

std::optional<MappedFile> MappedFile::map(int fd, std::size_t size, bool populate) {
  MappedFile m;
  if (size == 0) return m;  // nothing to map
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
  if (p == MAP_FAILED) return std::nullopt;
  m.data_ = static_cast<const char*>(p);
  m.size_ = size;
  return m;
}

}  // namespace ws::detail
