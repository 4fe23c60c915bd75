#include "cache_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace ws::detail {

Result<std::optional<MappedFile>> map_cache_file(const std::string& file, std::uint64_t max_size,
                                                 bool populate) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<MappedFile>();
    return make_error(Errc::environment, "cannot open '" + file + "': " + std::strerror(errno), file);
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) > max_size) {
    ::close(fd);
    return make_error(Errc::invalid, "'" + file + "' is not a cache file", file);
  }
  // An empty file maps to no bytes, which no reader takes for a cache.
  auto map = MappedFile::map(fd, static_cast<std::size_t>(st.st_size), populate);
  int map_errno = errno;
  ::close(fd);
  if (!map) return make_error(Errc::environment, "cannot map '" + file + "': " + std::strerror(map_errno), file);
  return std::optional<MappedFile>(std::move(*map));
}

Status write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(Errc::environment, std::string("write failed: ") + std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Ok{};
}

namespace {
constexpr std::size_t kWriteBuffer = 1 << 20;
}

struct CacheWriter::Sum {
  XXH3_state_t state;
  bool on = true;
};

CacheWriter::CacheWriter(int fd) : fd_(fd), sum_(std::make_unique<Sum>()) {
  buf_.reserve(kWriteBuffer);
  XXH3_64bits_reset(&sum_->state);
}

CacheWriter::~CacheWriter() = default;

void CacheWriter::put(std::string_view bytes) {
  written_ += bytes.size();
  if (sum_->on) XXH3_64bits_update(&sum_->state, bytes.data(), bytes.size());
  if (buf_.size() + bytes.size() > kWriteBuffer) flush();
  if (bytes.size() > kWriteBuffer) {
    if (status_) status_ = write_all(fd_, bytes);
  } else {
    buf_.append(bytes);
  }
}

void CacheWriter::u32(std::uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  put({b, 4});
}

void CacheWriter::u64(std::uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  put({b, 8});
}

void CacheWriter::put_checksum() {
  std::uint64_t sum = XXH3_64bits_digest(&sum_->state);
  sum_->on = false;
  u64(sum);
}

Status CacheWriter::finish() {
  flush();
  return status_;
}

void CacheWriter::flush() {
  if (status_ && !buf_.empty()) status_ = write_all(fd_, buf_);
  buf_.clear();
}

Status replace_cache_file(const std::string& file, std::string_view what,
                          const std::function<Status(int fd)>& write) {
  namespace fs = std::filesystem;
  fs::path target(file);
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec)
    return make_error(Errc::environment,
                      "cannot create '" + target.parent_path().string() + "': " + ec.message(), file);
  std::string tmp = file + ".tmp.XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0)
    return make_error(Errc::environment, "cannot create a temporary file beside '" + file + "': " +
                                             std::strerror(errno), file);
  ::fchmod(fd, 0644);  // mkostemp makes 0600; a cache is as readable as the repository

  Status st = write(fd);
  if (st && ::fsync(fd) != 0)
    st = make_error(Errc::environment, std::string("fsync failed: ") + std::strerror(errno));
  if (::close(fd) != 0 && st) st = make_error(Errc::environment, std::string("close failed: ") + std::strerror(errno));
  if (st && ::rename(tmp.c_str(), file.c_str()) != 0)
    st = make_error(Errc::environment, "cannot rename '" + tmp + "' to '" + file + "': " + std::strerror(errno));
  if (!st) {
    ::unlink(tmp.c_str());
    return make_error(Errc::environment, "cannot write " + std::string(what) + " '" + file + "': " + st.error().message,
                      file);
  }
  // Make the rename itself durable; a failure here loses only a cache.
  int dir = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return Ok{};
}

}  // namespace ws::detail
