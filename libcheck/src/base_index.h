// The definitions of one base commit as the compile's overlay sees them, with
// their names and who refers to what (DESIGN.md §5, the reverse direction):
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
//   · u32 list length · u32 name bytes · u64 blob bytes
//   · definitions: u32 path offset · u32 path length · u32 record offset
//       · u32 record length · u16 kind · u16 flags (bit 0: name only)
//       · u32 item · u64 XXH3 of the record seeded with XXH3 of the path
//   · symbol keys, then reference keys: u32 name offset · u32 name length
//       · u32 kind · u32 list offset · u32 list length
//   · symbol slots, then reference slots: u32 key + 1, or 0 (open addressing)
//   · lists: u32 definition numbers, ascending · name bytes
//   · u64 XXH3 of everything before it · blob: paths and records
// The tables are checked whole when the file is loaded; a definition's path
// and record when it is first looked at, so a build reads the few it needs.
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

#include "compile_internal.h"
#include "libcheck/kinds.h"
#include "libcheck/result.h"
#include "mapped_file.h"

namespace ws::compile_detail {

class BaseIndex {
 public:
  static constexpr std::uint32_t kFormatVersion = 1;
  static constexpr std::uint32_t kNoItem = 0xffffffffu;

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

  // What an index is built for: a file (no item numbers, which mean
  // nothing to another build; definitions checksummed; the reference
  // table), or one build in memory (item numbers kept; paths and records
  // left in the items, which must outlive it; no checksums; no reference
  // table: a build that removes nothing never needs one, and the compile
  // then scans the definitions instead). bytes() and save() are for files.
  enum class Purpose { file, in_memory };
  // The view sides of the items that `take` accepts and that are present,
  // in item order. `kinds` must outlive the index.
  static BaseIndex build(const KindPack& kinds, const std::vector<Item>& items,
                         const std::function<bool(const Item&)>& take, const Key& key, Purpose purpose);

  enum class LoadState { missing, loaded, rejected };
  struct LoadResult {
    LoadState state = LoadState::missing;
    std::string reason;  // why a file was not used ("other base commit", "bad checksum")
  };
  // Replaces this index with the one in `file`, if it was made for `key`
  // and `kinds` (which must outlive it) and its tables check out.
  LoadResult load(const std::string& file, const Key& key, const KindPack& kinds);
  // Writes the file atomically (cache_file.h).
  Status save(const std::string& file) const;
  // The whole file's bytes.
  std::string_view bytes() const { return bytes_; }

  std::size_t size() const { return defs_; }
  // Definitions that were read from their bytes (not from their name only).
  std::size_t read_count() const { return read_; }

  struct Def {
    std::string_view path;
    const Kind* kind = nullptr;
    RecordView rec;
    std::uint32_t item = kNoItem;
    bool name_only = false;
  };
  // Definition `d`; nullopt, and damaged() true from then on, when its bytes
  // fail their check.
  std::optional<Def> def(std::size_t d) const;
  // True once a definition or a list was found damaged: answers given
  // since may be wrong, and the build must be made without the index.
  bool damaged() const { return damaged_.load(std::memory_order_relaxed); }

  // The definition at `path`, if any.
  std::optional<std::size_t> find_path(std::string_view path) const;
  // The definitions named `name` of kind `kind` (its index in the pack), ascending.
  void owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const;
  // Whether referrers() can answer (see Purpose).
  bool has_references() const { return with_references_; }
  // The definitions with a reference to `name` of kind `kind`, ascending.
  void referrers(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const;
  // Every name of kind `kind`.
  void names(std::size_t kind, const std::function<void(std::string_view)>& f) const;
  // Every (kind, name) that two definitions or more carry.
  void shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const;

 private:
  struct Table {
    std::size_t keys = 0, key_at = 0;    // count and offset of its keys
    std::size_t slots = 0, slot_at = 0;  // a power of two
  };
  bool parse(std::string_view why_prefix, std::string* why);
  void lookup(const Table& t, std::size_t kind, std::string_view name,
              const std::function<void(std::size_t)>& f) const;
  void flag_damage() const { damaged_.store(true, std::memory_order_relaxed); }
  // Definition d's path bytes, unchecked; nullopt when out of bounds.
  std::optional<std::string_view> raw_path(std::size_t d) const;

  const KindPack* kinds_ = nullptr;
  std::string owned_;       // a built index
  detail::MappedFile mapped_;  // a loaded one
  std::string_view bytes_;
  // In memory: each definition's path and record, in the items (the tables
  // then hold no blob).
  std::vector<std::pair<std::string_view, std::string_view>> held_;
  bool verify_ = false;  // loaded: check each definition's bytes
  bool with_references_ = false;
  std::size_t defs_ = 0, read_ = 0;
  std::size_t def_at_ = 0, list_at_ = 0, list_len_ = 0, names_at_ = 0, names_len_ = 0, blob_at_ = 0, blob_len_ = 0;
  Table symbols_, references_;
  mutable std::atomic<bool> damaged_{false};
};

// <common git dir>/ws/cache/bases/<base commit>.
std::string base_index_file(const std::string& common_dir, std::string_view base_commit);

// Removes all but the `keep` most recently written index files beside `file`.
void prune_base_indexes(const std::string& file, std::size_t keep);

}  // namespace ws::compile_detail
