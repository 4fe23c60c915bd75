// The definition cache (docs/architecture.md, "On disk"): one record (compile_record.h) per
// (git blob id, kind name), valid for one tool version and one kind pack
// digest, so each blob is parsed once, ever. It is never keyed by overlay
// state: a record is a pure function of the bytes, the kind and the version.
//
// File layout (integers little-endian; str = u32 length + bytes):
//   "WSDEFCAC" · u32 format version · str tool version · str kind pack digest
//   · u32 entry count · entries · u32 entry count · lookup table
//   · u64 offset of the table's count · u64 checksum
// where each entry is str key ("<blob id>\0<kind>") · str record, the
// lookup table is (u32 tag, u32 entry offset) for every entry, sorted by
// tag (the low 32 bits of XXH3 of the key), and the checksum is XXH3's
// 64-bit hash of everything before it. Loading maps the whole file and
// checks it; records stay in that buffer and are decoded in place. The
// entries are read at the first lookup past a few dozen (a build of the
// whole view); until then the table answers (a build on a base index,
// which looks up its few changed files). A file with another magic,
// format, version or digest, a bad checksum or a short read is ignored (and
// replaced at the next save) — never trusted, never a crash. Saving writes a
// temporary file in the same directory, fsyncs it and renames it over the
// old one, so a reader sees the old file or the new one, and of two builds
// saving at once the last one wins.
#pragma once

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Header-only, as xxhash.h supports: nothing to link.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "compile_record.h"
#include "mapped_file.h"
#include "libcheck/result.h"

namespace ws {

class DefinitionCache {
 public:
  static constexpr std::uint32_t kFormatVersion = 4;  // raised with any change of file or record layout

  // An empty `kind_digest` loads a file of any kind pack, for adopt().
  DefinitionCache(std::string tool_version, std::string kind_digest);

  enum class LoadState { missing, loaded, rejected };
  struct LoadResult {
    LoadState state = LoadState::missing;
    std::string reason;  // why a file was rejected ("bad checksum", "other tool version")
  };
  // Replaces the contents with those of `file`.
  LoadResult load(const std::string& file);
  // For a cache made with no kind digest and loaded: keeps what was loaded
  // if it is the cache of `kind_digest`, else empties it as load() would
  // have refused it; from then on the cache is that pack's.
  LoadResult adopt(const LoadResult& loaded, std::string kind_digest);

  // The kind pack digest in the header of `file` when the file is a cache
  // of this format written by `tool_version`, else empty. Such a file is
  // only written after a build whose kind pack loaded, schemas and all, so
  // the digest names a pack that version has validated (see
  // KindPack::from_texts). Reads the header only.
  static std::string validated_kind_digest(const std::string& file, std::string_view tool_version);

  // The record for (blob, kind), and marks it used by this build (as use
  // number `use` when given, see reserve_use). Not thread-safe: the compile
  // looks up and inserts from one thread.
  //
  // Lookups are cheapest in the order the file was saved in, which is the
  // order of use of the build that saved it: the entry after the last one
  // found is compared first, and the hash index over all entries is built
  // only when that guess misses. A warm build of an unchanged view looks
  // its definitions up in the order the last one did, and so never builds
  // the index (at 100,000 definitions the index was a tenth of the build).
  std::optional<std::string_view> find(std::string_view blob, std::string_view kind, std::uint32_t use = 0);
  // The record for (blob, kind) without marking it used: safe from several
  // threads at once as long as nothing inserts meanwhile, once
  // prepare_peek() has been called.
  std::optional<std::string_view> peek(std::string_view blob, std::string_view kind) const;
  void prepare_peek() {
    if (parsed_) ensure_index();  // else the file's table answers
  }
  // Adds a record (keeping an existing one for the key: records are pure
  // functions of the key) and marks it used (as use number `use` when
  // given). `record` must stay valid as long as the cache: store it in
  // arena() first.
  void insert(std::string_view blob, std::string_view kind, std::string_view record, std::uint32_t use = 0);
  // A use number for a record that will be found or inserted later, so that
  // the file is saved in the order the build met its definitions, not in
  // the order its parser threads finished.
  std::uint32_t reserve_use() { return ++uses_; }
  // Storage that lives as long as the cache, for records about to be inserted.
  compile_detail::ByteArena& arena() { return arena_; }

  std::size_t size() const { return parsed_ ? entries_.size() : count_; }
  // Whether the hash index has been built (see find), for tests.
  bool indexed() const { return indexed_; }
  // Whether the loaded file's entries have been read (see find), for tests.
  bool entries_read() const { return parsed_; }
  // True when save() would write something new (inserts, or a rejected file).
  bool dirty() const { return dirty_; }
  void mark_dirty() { dirty_ = true; }

  // When more than `max_entries` are held, drops every entry this build did
  // not use; then writes the file atomically, creating its directory.
  // Entries are written in the order this build first used them.
  Status save(const std::string& file, std::size_t max_entries);

  // XXH3 (64 bits) of the bytes: a guard against truncation and damage, not
  // against an adversary (the file lives in the repository's own git
  // directory). XXH3 rather than a word-wise FNV: the check reads the whole
  // file at every build, and FNV's chain of multiplications took 7 ms of a
  // warm build at 100,000 definitions.
  static std::uint64_t checksum(std::string_view bytes);
  // The same, fed in pieces.
  class Checksum {
   public:
    Checksum();
    void update(std::string_view bytes);
    std::uint64_t value() const;

   private:
    XXH3_state_t state_;
  };

  // The loaded file (mapped_file.h: at 100,000 definitions it is 31 MB).
  using Buffer = detail::MappedFile;

 private:
  struct Entry {
    std::string_view key;     // "<blob id>\0<kind>"
    std::string_view record;
    std::uint32_t used = 0;  // 0: not used by this build; else the order of first use
  };
  void mark_used(Entry& e, std::uint32_t use);
  // Reads the loaded file's entries, which load() leaves for the first
  // lookup that needs them (see find).
  void ensure_parsed();
  // The entry for `key` through the file's lookup table, entries unread.
  std::optional<Entry> table_lookup(std::string_view key) const;
  void ensure_index();
  Entry* find_entry(std::string_view key);
  // Open addressing over `entries_`: each slot is 0 (empty) or the key's
  // hash in the high 32 bits and entry index + 1 in the low 32, so a probe
  // touches the key's bytes only when the hashes agree. No allocation per
  // entry, which matters when a build loads 100,000 of them.
  Entry* lookup(std::string_view key);
  const Entry* lookup(std::string_view key) const;
  void index(std::size_t entry);
  void rehash(std::size_t capacity);

  std::string tool_version_;
  std::string kind_digest_;
  std::string file_digest_;  // the kind pack digest of the file loaded
  Buffer data_;                       // the loaded file; keys and records point into it
  compile_detail::ByteArena arena_;   // keys and records inserted since
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> slots_;  // size a power of two, at most half full; empty until needed
  bool indexed_ = false;              // slots_ covers every entry
  std::size_t next_ = 0;              // the entry after the last one found: the first guess
  std::string key_;                   // scratch for find()
  std::uint32_t uses_ = 0;
  bool dirty_ = false;
  // A loaded file's entries until ensure_parsed reads them: their count and
  // byte range, the lookup table, and the uses of entries found through it
  // (by where their key starts), to be marked once they are read.
  static constexpr std::size_t kTableLookups = 64;
  bool parsed_ = true;
  std::uint32_t count_ = 0;
  std::size_t entries_at_ = 0, entries_end_ = 0;
  std::string_view table_;
  std::vector<std::pair<const char*, std::uint32_t>> looked_up_;
  std::size_t table_lookups_ = 0;
};

// What open_workspace starts with OpenOptions::prefetch_cache and the first
// build() takes: the cache of `file` loaded on another thread, for any kind
// pack (build adopts it for the workspace's).
struct CachePrefetch {
  struct Loaded {
    std::unique_ptr<DefinitionCache> cache;
    DefinitionCache::LoadResult result;
  };
  std::string file;
  std::future<Loaded> loaded;
  std::atomic<bool> taken{false};  // build() takes it once; later builds load again

  static std::shared_ptr<CachePrefetch> start(std::string file, std::string tool_version);
};

}  // namespace ws
