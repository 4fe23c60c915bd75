// The definitions of one base commit as the compile's overlay sees them, with
// their names and who refers to what (docs/architecture.md, "On disk"; the reverse direction):
// the part of the overlay a changeset leaves alone. A build on that base
// then touches the changed entries and whatever they name or break, not
// every definition of the workspace.
//
// It holds, for every entry of the base that an unchanged entry of a view
// would contribute (routed to a kind, a path the read policy takes, not a
// link or a submodule, within the size cap, read cleanly), its path, kind
// and record (compile_record.h), in path order; a table from (kind, name)
// to the definitions with that name; and one from (kind, name) to the
// definitions with a reference to that name, members included.
//
// A pure function of the base tree, the kind pack, the size cap and the tool
// version, and saved under <git dir>/ws/cache/bases/<base commit>, keyed by
// all four, so that two builds on one base read the workspace once.
//
// File layout (integers little-endian; str = u32 length + bytes):
//   "WSBASEIX" · u32 format · str tool version · str kind pack digest
//   · str base commit · u64 size cap · u32 kind count
//   · u32 definitions · u32 read definitions · u32 symbol keys
//   · u32 reference keys · u32 symbol slots · u32 reference slots
//   · u32 list length · u32 name bytes · u64 path bytes · u64 blob bytes
//   · definitions: u32 path offset · u32 path length (in the path bytes)
//       · u32 record offset · u32 record length (in the blob) · u16 kind
//       · u16 flags (bit 0: name only) · u32 its name's symbol key + 1, or
//       0 when it has none · u64 XXH3 of the record seeded with XXH3 of
//       the path
//   · symbol keys: u32 name offset · u32 name length · u32 kind · u32 list
//       offset · u32 list length (the definitions with that name) · u32
//       list offset · u32 list length (those that refer to it)
//   · reference keys: u32 name offset · u32 name length · u32 kind · u32
//       list offset · u32 list length
//   · symbol slots, then reference slots: u32 key + 1, or 0 (open addressing)
//   · lists: u32 definition numbers, ascending · name bytes · path bytes
//   · u64 XXH3 of everything before it · blob: records
// Everything but the records is checked whole when the file is loaded; a
// definition's record when it is first looked at, so a build reads the few
// it needs. A walk over many definitions (named(), the symbol keys as name
// numbers) reads only what the load checked.
// A file that fails either check is not used (damaged() tells the caller,
// which then builds without it).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base_definitions.h"
#include "compile_internal.h"
#include "libcheck/kinds.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"
#include "mapped_file.h"

namespace ws::compile_detail {

class BaseIndex final : public BaseDefinitions {
 public:
  static constexpr std::uint32_t kFormatVersion = 3;

  // What a file must have been made for to be used.
  struct Key {
    std::string tool_version;
    std::string kind_digest;
    std::string base_commit;
    std::uint64_t size_cap = 0;
  };

  BaseIndex() = default;
  BaseIndex(BaseIndex&& o) noexcept;
  BaseIndex& operator=(BaseIndex&& o) noexcept;

  // One definition of an index to write.
  struct Entry {
    std::string_view path;
    const Kind* kind = nullptr;
    RecordView rec;
  };
  // An index of `entries` (sorted by path, no path twice) as a file for
  // `key`, written atomically (cache_file.h): no item numbers (they mean
  // nothing to another build), definitions checksummed, with the reference
  // table.
  static Status write(const std::string& file, const KindPack& kinds, const std::vector<Entry>& entries,
                      const Key& key);

  enum class LoadState { missing, loaded, rejected };
  struct LoadResult {
    LoadState state = LoadState::missing;
    std::string reason;  // why a file was not used ("other base commit", "bad checksum")
  };
  // Replaces this index with the one in `file`, if it was made for `key`
  // and `kinds` (which must outlive it) and its tables check out.
  LoadResult load(const std::string& file, const Key& key, const KindPack& kinds);

  std::size_t size() const override { return defs_; }
  // Definitions that were read from their bytes (not from their name only).
  std::size_t read_count() const { return read_; }
  std::optional<Def> def(std::size_t d) const override;
  std::optional<Named> named(std::size_t d) const override;
  std::shared_ptr<const void> bytes_owner() const override { return mapped_; }
  void prefetch_named(std::size_t d, int stage) const override;
  std::size_t name_numbers() const override { return symbols_.keys; }
  std::uint32_t number_of(std::size_t kind, std::string_view name) const override;
  void append_referrers_of(const std::vector<WalkName>& names, std::vector<std::size_t>& out,
                           std::vector<std::size_t>& ends) const override;
  bool damaged() const override { return damaged_.load(std::memory_order_relaxed); }
  std::optional<std::size_t> find_path(std::string_view path) const override;
  void owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const override;
  bool has_references() const override { return true; }
  void referrers(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const override;
  void names(std::size_t kind, const std::function<void(std::string_view)>& f) const override;
  void shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const override;

 private:
  struct Table {
    std::size_t keys = 0, key_at = 0;    // count and offset of its keys
    std::size_t key_size = 20;           // bytes a key
    std::size_t slots = 0, slot_at = 0;  // a power of two
  };
  bool parse(std::string* why);
  // Calls f(d) for each definition of the list of (kind, name) in `t`.
  template <class F>
  void lookup(const Table& t, std::size_t kind, std::string_view name, F&& f) const;
  // The number of (kind, name)'s key in `t`, found from `tag` (tag_of).
  std::optional<std::size_t> find_key(const Table& t, std::size_t kind, std::string_view name,
                                      std::uint32_t tag) const;
  // Calls f(d) for each definition of the list whose offset and length are
  // at `list_field` + 12 and + 16.
  template <class F>
  void each_listed(std::size_t list_field, F&& f) const;
  void prefetch_lookup(const Table& t, std::uint32_t tag, int stage) const;
  // The name of symbol key `key`, which must be of kind `kind`.
  std::optional<std::string_view> symbol_name(std::size_t key, std::size_t kind) const;
  void flag_damage() const { damaged_.store(true, std::memory_order_relaxed); }
  // Definition d's path bytes, unchecked; nullopt when out of bounds.
  std::optional<std::string_view> raw_path(std::size_t d) const;

  const KindPack* kinds_ = nullptr;
  std::shared_ptr<const detail::MappedFile> mapped_;  // shared with results that view it (bytes_owner())
  std::string_view bytes_;
  std::size_t defs_ = 0, read_ = 0;
  std::size_t def_at_ = 0, list_at_ = 0, list_len_ = 0, names_at_ = 0, names_len_ = 0, paths_at_ = 0, paths_len_ = 0;
  std::size_t blob_at_ = 0, blob_len_ = 0;
  Table symbols_, references_;
  mutable std::atomic<bool> damaged_{false};
};

// <common git dir>/ws/cache/bases/<base commit>.
std::string base_index_file(const std::string& common_dir, std::string_view base_commit);

// What the index of `ws`'s base commit must have been made for: this tool
// version, the workspace's kinds and size cap, that commit.
BaseIndex::Key base_index_key(const Workspace& ws);

// Removes all but the `keep` most recently written index files beside `file`.
void prune_base_indexes(const std::string& file, std::size_t keep);

}  // namespace ws::compile_detail
