#include "index_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "mapped_file.h"

namespace ws::detail {

namespace {

constexpr std::size_t kIdSize = 20;
constexpr std::size_t kHeaderSize = 12;
constexpr std::size_t kFixedEntrySize = 40 + kIdSize + 2;  // stat data, id, flags

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}
std::uint16_t be16(const unsigned char* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }

// Reads the entries of an index file, one per next(); each step returns
// nullptr, or why the file is not read.
class EntryReader {
 public:
  EntryReader(std::string_view bytes, std::uint32_t version)
      : bytes_(bytes), data_(reinterpret_cast<const unsigned char*>(bytes.data())),
        end_(bytes.size() - kIdSize), version_(version) {}

  std::size_t pos() const { return pos_; }
  // Whether an entry's fixed part fits before the trailer.
  bool fits() const { return pos_ + kFixedEntrySize <= end_; }

  // The entry at pos(), its path in `name` (valid until the next call, kept
  // in `previous` for version 4, which compresses each path against the one
  // before); pos() moves past it. `previous` is the caller's, so that no
  // call made here can see the reader, which then lives in registers.
  const char* next(IndexEntry& e, std::string_view& name, std::string& previous) {
    std::size_t name_at = pos_ + kFixedEntrySize;
    if (const char* why = read_fixed(e, name_at)) return why;
    if (const char* why =
            version_ == 4 ? read_compressed_name(name_at, name, previous) : read_padded_name(name_at, name))
      return why;
    if (name.empty()) return "damaged: empty path";
    return nullptr;
  }

 private:
  // Stat data, id and flags; name_at moves past the extended flags.
  const char* read_fixed(IndexEntry& e, std::size_t& name_at) const {
    const unsigned char* p = data_ + pos_;
    e.ctime_s = be32(p);
    e.ctime_ns = be32(p + 4);
    e.mtime_s = be32(p + 8);
    e.mtime_ns = be32(p + 12);
    e.dev = be32(p + 16);
    e.ino = be32(p + 20);
    e.mode = be32(p + 24);
    e.uid = be32(p + 28);
    e.gid = be32(p + 32);
    e.size = be32(p + 36);
    std::memcpy(e.id, p + 40, kIdSize);
    std::uint16_t flags = be16(p + 40 + kIdSize);
    e.assume_valid = flags & 0x8000;
    e.stage = (flags >> 12) & 3;
    if (flags & 0x4000) {  // extended flags (version 3 and later)
      if (version_ < 3 || name_at + 2 > end_) return "damaged: extended flags";
      std::uint16_t ext = be16(data_ + name_at);
      if (ext & ~0x6000) return "unknown extended flags";
      e.skip_worktree = ext & 0x4000;
      e.intent_to_add = ext & 0x2000;
      name_at += 2;
    }
    if ((e.mode & 0170000) == 0040000) return "sparse directory entries";
    return nullptr;
  }

  // Version 4: a varint of bytes to drop from the previous path, then the rest.
  const char* read_compressed_name(std::size_t name_at, std::string_view& name, std::string& previous) {
    std::size_t q = name_at;
    std::uint64_t drop = 0;
    for (int shift_guard = 0;; ++shift_guard) {
      if (q >= end_ || shift_guard > 8) return "damaged: path prefix";
      unsigned char c = data_[q++];
      drop = (drop << 7) | (c & 0x7f);  // git's offset varint: each continuation adds one
      if (!(c & 0x80)) break;
      ++drop;
    }
    const void* nul = std::memchr(data_ + q, 0, end_ - q);
    if (!nul) return "damaged: path";
    std::size_t suffix = static_cast<const unsigned char*>(nul) - (data_ + q);
    if (drop > previous.size()) return "damaged: path prefix";
    previous.resize(previous.size() - drop);
    previous.append(bytes_.data() + q, suffix);
    name = previous;
    pos_ = q + suffix + 1;
    return nullptr;
  }

  // Versions 2 and 3: the path, then 1 to 8 NULs to a multiple of 8 bytes.
  const char* read_padded_name(std::size_t name_at, std::string_view& name) {
    const void* nul = std::memchr(data_ + name_at, 0, end_ - name_at);
    if (!nul) return "damaged: path";
    std::size_t len = static_cast<const unsigned char*>(nul) - (data_ + name_at);
    name = std::string_view(bytes_.data() + name_at, len);
    pos_ += ((name_at - pos_) + len + 8) & ~std::size_t(7);
    if (pos_ > end_) return "damaged: padding";
    return nullptr;
  }

  std::string_view bytes_;
  const unsigned char* data_;
  std::size_t end_;
  std::uint32_t version_;
  std::size_t pos_ = kHeaderSize;
};

// The extensions from `pos` to the trailer: "" when each is one a reader may
// skip, each cache tree's body handed to `on_tree`; else why not. A
// lower-case signature is one a reader must understand (split index "link",
// sparse "sdir"); upper-case ones may be skipped.
template <class OnTree>
std::string read_extensions(std::string_view bytes, std::size_t pos, OnTree on_tree) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t end = bytes.size() - kIdSize;
  while (pos < end) {
    if (pos + 8 > end) return "damaged: extension";
    const unsigned char* sig = data + pos;
    std::uint32_t size = be32(data + pos + 4);
    if (size > end - pos - 8) return "damaged: extension size";
    if (!(sig[0] >= 'A' && sig[0] <= 'Z'))
      return std::string("extension '") + std::string(reinterpret_cast<const char*>(sig), 4) + "'";
    if (std::memcmp(sig, "TREE", 4) == 0) on_tree(std::string_view(bytes.data() + pos + 8, size));
    pos += 8 + size;
  }
  return {};
}

}  // namespace

// The cache tree's first record is the root: "" NUL, then "<entry count>
// <subtree count>\n", then the tree id unless the count is -1 (invalid).
void IndexFile::read_root_tree(std::string_view ext, IndexFile& out) {
  std::size_t nul = ext.find('\0');
  if (nul != 0) return;  // the root's path is empty
  std::size_t nl = ext.find('\n', 1);
  if (nl == std::string_view::npos) return;
  std::string_view counts = ext.substr(1, nl - 1);
  if (counts.empty() || counts[0] == '-') return;  // invalidated
  std::size_t space = counts.find(' ');
  if (space == std::string_view::npos || space == 0) return;
  std::uint64_t entries = 0;
  for (char c : counts.substr(0, space)) {
    if (c < '0' || c > '9') return;
    entries = entries * 10 + static_cast<unsigned>(c - '0');
    if (entries > 0xffffffffu) return;
  }
  if (nl + 1 + kIdSize > ext.size()) return;
  // Only a record covering every entry is the whole index's tree.
  if (entries != out.entries_.size()) return;
  std::memcpy(out.root_tree_, ext.data() + nl + 1, kIdSize);
  out.has_root_tree_ = true;
}

IndexFile IndexFile::read(const std::string& file, Order order) {
  IndexFile out;
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    out.state_ = errno == ENOENT ? State::missing : State::unsupported;
    out.reason_ = errno == ENOENT ? "" : std::strerror(errno);
    return out;
  }
  // Mapped, not read (mapped_file.h): at 100,000 entries the file is 10 MB.
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return parse({}, order);
  }
  auto map = MappedFile::map(fd, static_cast<std::size_t>(st.st_size));
  int map_errno = errno;
  ::close(fd);
  if (!map) {
    out.state_ = State::unsupported;
    out.reason_ = std::strerror(map_errno);
    return out;
  }
  return parse(map->bytes(), order);
}

IndexFile IndexFile::parse(std::string_view bytes, Order order) {
  IndexFile out;
  out.state_ = State::unsupported;
  auto fail = [&out](std::string why) {
    out.reason_ = std::move(why);
    out.entries_.clear();
    out.paths_.clear();
    return std::move(out);
  };
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kHeaderSize + kIdSize || std::memcmp(data, "DIRC", 4) != 0) return fail("not an index file");
  std::uint32_t version = be32(data + 4);
  if (version < 2 || version > 4) return fail("version " + std::to_string(version));
  std::uint32_t count = be32(data + 8);
  const std::size_t end = bytes.size() - kIdSize;  // the trailer is not checked (see the header)
  if (count > end / kFixedEntrySize) return fail("damaged: entry count");
  out.entries_.reserve(count);
  out.paths_.reserve(end);

  EntryReader reader(bytes, version);
  std::string previous;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!reader.fits()) return fail("damaged: entry " + std::to_string(i));
    IndexEntry e;
    std::string_view name;
    if (const char* why = reader.next(e, name, previous)) return fail(why);
    if (!out.entries_.empty() && order == Order::checked) {
      const IndexEntry& last = out.entries_.back();
      std::string_view last_path(out.paths_.data() + last.path_offset, last.path_size);
      if (name < last_path || (name == last_path && e.stage <= last.stage)) return fail("damaged: order");
    }
    e.path_offset = static_cast<std::uint32_t>(out.paths_.size());
    e.path_size = static_cast<std::uint32_t>(name.size());
    out.paths_.append(name);
    out.entries_.push_back(e);
  }

  auto on_tree = [&out](std::string_view tree) { read_root_tree(tree, out); };
  if (auto why = read_extensions(bytes, reader.pos(), on_tree); !why.empty()) return fail(why);
  out.state_ = State::ok;
  out.reason_.clear();
  return out;
}

const IndexEntry* IndexFile::find(std::string_view path) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), path,
                             [this](const IndexEntry& e, std::string_view p) { return this->path(e) < p; });
  // Sorted by path, then stage: stage 0 comes first when present.
  if (it == entries_.end() || this->path(*it) != path || it->stage != 0) return nullptr;
  return &*it;
}

bool IndexFile::has_prefix(std::string_view dir) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), dir,
                             [this](const IndexEntry& e, std::string_view p) { return this->path(e) < p; });
  return it != entries_.end() && path(*it).substr(0, dir.size()) == dir;
}

}  // namespace ws::detail
