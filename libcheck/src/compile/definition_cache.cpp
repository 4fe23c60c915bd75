#include "definition_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "cache_file.h"
#include "compile_record.h"

namespace ws {

namespace {

constexpr std::string_view kMagic = "WSDEFCAC";
// A cache file is a few hundred bytes per definition; anything past this is
// not one of ours.
constexpr std::uint64_t kMaxFileSize = std::uint64_t(4) << 30;

// The file's strings have fixed 4-byte lengths (records use LEB128 inside).
std::string_view get_str(compile_detail::Cursor& c) { return c.bytes(c.u32()); }

// A key's tag in the file's lookup table: stable across builds and hosts.
std::uint32_t table_tag(std::string_view key) { return static_cast<std::uint32_t>(XXH3_64bits(key.data(), key.size())); }

}  // namespace

DefinitionCache::DefinitionCache(std::string tool_version, std::string kind_digest)
    : tool_version_(std::move(tool_version)), kind_digest_(std::move(kind_digest)) {}

DefinitionCache::Checksum::Checksum() { XXH3_64bits_reset(&state_); }

void DefinitionCache::Checksum::update(std::string_view bytes) { XXH3_64bits_update(&state_, bytes.data(), bytes.size()); }

std::uint64_t DefinitionCache::Checksum::value() const { return XXH3_64bits_digest(&state_); }

std::uint64_t DefinitionCache::checksum(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

DefinitionCache::LoadResult DefinitionCache::adopt(const LoadResult& loaded, std::string kind_digest) {
  kind_digest_ = std::move(kind_digest);
  if (loaded.state != LoadState::loaded || file_digest_ == kind_digest_) return loaded;
  entries_.clear();
  looked_up_.clear();
  table_ = {};
  count_ = 0;
  parsed_ = true;
  slots_.clear();
  indexed_ = false;
  next_ = 0;
  data_ = Buffer();
  dirty_ = true;
  return {LoadState::rejected, "other kind pack"};
}

std::shared_ptr<CachePrefetch> CachePrefetch::start(std::string file, std::string tool_version) {
  auto p = std::make_shared<CachePrefetch>();
  p->file = file;
  p->loaded = std::async(std::launch::async, [file = std::move(file), version = std::move(tool_version)] {
    Loaded out;
    // Nothing may escape the thread: running out of memory here leaves
    // the build to load the cache itself.
    try {
      out.cache = std::make_unique<DefinitionCache>(version, "");
      out.result = out.cache->load(file);
    } catch (const std::exception&) {
      out.cache.reset();
    }
    return out;
  });
  return p;
}

std::string DefinitionCache::validated_kind_digest(const std::string& file, std::string_view tool_version) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return {};
  char header[512];
  std::size_t got = 0;
  while (got < sizeof header) {
    ssize_t n = ::read(fd, header + got, sizeof header - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  compile_detail::Cursor c(std::string_view(header, got));
  if (c.bytes(kMagic.size()) != kMagic || c.u32() != kFormatVersion || get_str(c) != tool_version) return {};
  std::string_view digest = get_str(c);
  return c.ok() ? std::string(digest) : std::string();
}

DefinitionCache::LoadResult DefinitionCache::load(const std::string& file) {
  entries_.clear();
  looked_up_.clear();
  table_lookups_ = 0;
  table_ = {};
  count_ = 0;
  parsed_ = true;
  uses_ = 0;
  slots_.clear();
  indexed_ = false;
  next_ = 0;
  data_ = Buffer();
  dirty_ = false;
  auto read = detail::map_cache_file(file, kMaxFileSize);
  if (!read) { dirty_ = true; return {LoadState::rejected, read.error().message}; }
  if (!read->has_value()) return {LoadState::missing, {}};
  Buffer buffer = std::move(**read);
  std::string_view data = buffer.bytes();

  auto reject = [&](std::string why) {
    entries_.clear();
    table_ = {};
    count_ = 0;
    parsed_ = true;
    slots_.clear();
    indexed_ = false;
    dirty_ = true;
    return LoadResult{LoadState::rejected, std::move(why)};
  };
  compile_detail::Cursor c(data);
  if (c.bytes(kMagic.size()) != kMagic) return reject("not a definition cache");
  if (c.u32() != kFormatVersion) return reject("other cache format");
  if (get_str(c) != tool_version_) return reject("other tool version");
  std::string_view file_digest = get_str(c);
  file_digest_ = std::string(file_digest);
  if (!kind_digest_.empty() && file_digest != kind_digest_) return reject("other kind pack");
  if (!c.ok() || c.remaining() < 8) return reject("truncated");
  std::string_view body = data.substr(0, data.size() - 8);
  compile_detail::Cursor tail(data.substr(data.size() - 8));
  if (tail.u64() != checksum(body)) return reject("bad checksum");

  // The lookup table at the end: u32 count, (u32 tag, u32 entry offset)
  // pairs sorted by tag, u64 offset of the count.
  if (body.size() < 8) return reject("truncated");
  std::uint64_t table_at = compile_detail::Cursor(body.substr(body.size() - 8)).u64();
  compile_detail::Cursor h(body);
  h.bytes(kMagic.size());
  h.u32();
  get_str(h);
  get_str(h);
  std::uint32_t count = h.u32();
  std::size_t entries_at = body.size() - h.remaining();
  if (!h.ok() || table_at < entries_at || table_at + 4 > body.size() - 8) return reject("damaged entries");
  compile_detail::Cursor t(body.substr(static_cast<std::size_t>(table_at)));
  std::uint32_t table_count = t.u32();
  if (table_count != count || std::uint64_t(table_count) * 8 != body.size() - 8 - table_at - 4 ||
      count > (table_at - entries_at) / 8)  // each entry takes 8 bytes at least
    return reject("damaged entries");
  data_ = std::move(buffer);
  count_ = count;
  entries_at_ = entries_at;
  entries_end_ = static_cast<std::size_t>(table_at);
  table_ = data_.bytes().substr(static_cast<std::size_t>(table_at) + 4, std::size_t(count) * 8);
  parsed_ = false;  // see ensure_parsed
  return {LoadState::loaded, {}};
}

void DefinitionCache::ensure_parsed() {
  if (parsed_) return;
  parsed_ = true;
  // No index yet (see find). A repeated key, which no save writes, would
  // be harmless: records are functions of their keys, and the first wins.
  compile_detail::Cursor r(data_.bytes().substr(entries_at_, entries_end_ - entries_at_));
  entries_.reserve(count_);
  for (std::uint32_t i = 0; i < count_; ++i) {
    std::string_view key = get_str(r);
    std::string_view record = get_str(r);
    if (!r.ok()) break;
    entries_.push_back(Entry{key, record, 0});
  }
  if (!r.ok() || !r.at_end() || entries_.size() != count_) {
    // A file whose checksum holds but whose entries do not parse was not
    // written by a save: it is dropped, and replaced at the next one.
    entries_.clear();
    looked_up_.clear();
    dirty_ = true;
    return;
  }
  // The uses of entries found through the table before; the next guess
  // (see find_entry) follows the last of them.
  auto entry_at = [&](const char* key_data) -> Entry* {
    auto at = std::lower_bound(entries_.begin(), entries_.end(), key_data,
                               [](const Entry& e, const char* k) { return e.key.data() < k; });
    return at != entries_.end() && at->key.data() == key_data ? &*at : nullptr;
  };
  if (!looked_up_.empty())
    if (Entry* last = entry_at(looked_up_.back().first)) next_ = static_cast<std::size_t>(last - entries_.data()) + 1;
  for (const auto& [key_data, use] : looked_up_)
    if (Entry* e = entry_at(key_data)) mark_used(*e, use);
  looked_up_.clear();
}

std::optional<DefinitionCache::Entry> DefinitionCache::table_lookup(std::string_view key) const {
  std::uint32_t tag = table_tag(key);
  std::size_t lo = 0, hi = table_.size() / 8;
  auto tag_at = [&](std::size_t i) { return compile_detail::Cursor(table_.substr(i * 8, 4)).u32(); };
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (tag_at(mid) < tag) lo = mid + 1;
    else hi = mid;
  }
  std::string_view data = data_.bytes();
  for (std::size_t i = lo; i < table_.size() / 8 && tag_at(i) == tag; ++i) {
    std::uint32_t at = compile_detail::Cursor(table_.substr(i * 8 + 4, 4)).u32();
    if (at < entries_at_ || at >= entries_end_) continue;
    compile_detail::Cursor c(data.substr(at, entries_end_ - at));
    std::string_view k = get_str(c);
    std::string_view record = get_str(c);
    if (c.ok() && k == key) return Entry{k, record, 0};
  }
  return std::nullopt;
}

namespace {

// In memory only, so any good hash will do; the library's is word-wise.
std::uint32_t key_hash(std::string_view key) {
  std::uint64_t h = std::hash<std::string_view>{}(key);
  return static_cast<std::uint32_t>(h ^ (h >> 32)) | 1;  // never 0, the empty slot's tag
}

}  // namespace

void DefinitionCache::mark_used(Entry& e, std::uint32_t use) {
  if (e.used == 0) e.used = use ? use : ++uses_;
}

void DefinitionCache::ensure_index() {
  ensure_parsed();
  if (indexed_) return;
  indexed_ = true;
  rehash(2 * entries_.size());
}

void DefinitionCache::rehash(std::size_t capacity) {
  std::size_t size = 16;
  while (size < capacity) size *= 2;
  slots_.assign(size, 0);
  for (std::size_t i = 0; i < entries_.size(); ++i) index(i);
}

void DefinitionCache::index(std::size_t entry) {
  if (!indexed_) {  // indexes every entry, this one included
    ensure_index();
    return;
  }
  if (2 * entries_.size() > slots_.size()) {
    rehash(4 * entries_.size());  // indexes every entry, this one included
    return;
  }
  std::uint64_t tag = key_hash(entries_[entry].key);
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = tag & mask;; i = (i + 1) & mask)
    if (slots_[i] == 0) {
      slots_[i] = (tag << 32) | (entry + 1);
      return;
    }
}

DefinitionCache::Entry* DefinitionCache::lookup(std::string_view key) {
  return const_cast<Entry*>(std::as_const(*this).lookup(key));
}

const DefinitionCache::Entry* DefinitionCache::lookup(std::string_view key) const {
  if (slots_.empty()) return nullptr;
  std::uint64_t tag = key_hash(key);
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = tag & mask; slots_[i] != 0; i = (i + 1) & mask) {
    if ((slots_[i] >> 32) != tag) continue;
    const Entry& e = entries_[(slots_[i] & 0xffffffffu) - 1];
    if (e.key == key) return &e;
  }
  return nullptr;
}

DefinitionCache::Entry* DefinitionCache::find_entry(std::string_view key) {
  if (next_ < entries_.size() && entries_[next_].key == key) return &entries_[next_++];
  ensure_index();
  Entry* e = lookup(key);
  if (e) next_ = static_cast<std::size_t>(e - entries_.data()) + 1;
  return e;
}

std::optional<std::string_view> DefinitionCache::find(std::string_view blob, std::string_view kind,
                                                      std::uint32_t use) {
  // One key buffer for every lookup: a warm build makes one per definition.
  key_.assign(blob);
  key_.push_back('\0');
  key_.append(kind);
  if (!parsed_) {
    // A build on a base index looks up a few changed files: the table
    // answers them without the entries being read. Past a few dozen, the
    // build is reading the whole view, in the saved order: parse them.
    if (table_lookups_++ < kTableLookups) {
      auto e = table_lookup(key_);
      if (!e) return std::nullopt;
      looked_up_.emplace_back(e->key.data(), use ? use : ++uses_);
      return e->record;
    }
    ensure_parsed();
  }
  Entry* e = find_entry(key_);
  if (!e) return std::nullopt;
  mark_used(*e, use);
  return e->record;
}

std::optional<std::string_view> DefinitionCache::peek(std::string_view blob, std::string_view kind) const {
  std::string key;
  key.reserve(blob.size() + 1 + kind.size());
  key.append(blob).push_back('\0');
  key.append(kind);
  if (!parsed_) {
    auto e = table_lookup(key);
    if (!e) return std::nullopt;
    return e->record;
  }
  const Entry* e = lookup(key);
  if (!e) return std::nullopt;
  return e->record;
}

void DefinitionCache::insert(std::string_view blob, std::string_view kind, std::string_view record,
                             std::uint32_t use) {
  key_.assign(blob);
  key_.push_back('\0');
  key_.append(kind);
  ensure_index();
  if (Entry* e = lookup(key_)) {
    mark_used(*e, use);
    return;
  }
  entries_.push_back(Entry{arena_.store(key_), record, 0});
  mark_used(entries_.back(), use);
  index(entries_.size() - 1);
  dirty_ = true;
}

Status DefinitionCache::save(const std::string& file, std::size_t max_entries) {
  ensure_parsed();
  // In the order this build used them (the view's path order), then the
  // unused ones by key: the next build of the same workspace then reads the
  // buffer front to back instead of hopping around 30 MB, and the same
  // builds always write the same file.
  std::vector<const Entry*> keep;
  bool prune = entries_.size() > max_entries;
  keep.reserve(entries_.size());
  for (const auto& entry : entries_)
    if (!prune || entry.used) keep.push_back(&entry);
  std::sort(keep.begin(), keep.end(), [](const Entry* a, const Entry* b) {
    if ((a->used == 0) != (b->used == 0)) return a->used != 0;
    return a->used ? a->used < b->used : a->key < b->key;
  });

  Status st = detail::replace_cache_file(file, "the definition cache", [&](int fd) {
    detail::CacheWriter out(fd);
    out.put(kMagic);
    out.u32(kFormatVersion);
    out.str(tool_version_);
    out.str(kind_digest_);
    out.u32(static_cast<std::uint32_t>(keep.size()));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> table;  // (tag, entry offset)
    table.reserve(keep.size());
    for (const Entry* e : keep) {
      table.emplace_back(table_tag(e->key), static_cast<std::uint32_t>(out.written()));
      out.str(e->key);
      out.str(e->record);
    }
    std::sort(table.begin(), table.end());
    std::uint64_t table_at = out.written();
    out.u32(static_cast<std::uint32_t>(table.size()));
    for (const auto& [tag, at] : table) {
      out.u32(tag);
      out.u32(at);
    }
    out.u64(table_at);
    out.put_checksum();
    return out.finish();
  });
  if (!st) return st;
  dirty_ = false;
  return Ok{};
}

}  // namespace ws
