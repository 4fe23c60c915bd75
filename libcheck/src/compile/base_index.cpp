#include "base_index.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <utility>

#include "cache_file.h"
#include "flat_name_map.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace ws::compile_detail {

namespace {

constexpr std::string_view kMagic = "WSBASEIX";
constexpr std::size_t kDefSize = 32;
// A reference key; a symbol key adds where its name's referrers are listed.
constexpr std::size_t kKeySize = 20, kSymbolKeySize = 28;
constexpr std::uint32_t kNameOnlyFlag = 1;
// Far above any workspace's (a few hundred bytes per definition, twice).
constexpr std::uint64_t kMaxFileSize = std::uint64_t(8) << 30;

void put_u16(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u32(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_str(std::string& out, std::string_view s) {
  put_u32(out, s.size());
  out.append(s);
}

// The file is little-endian: on such a machine one load, else byte by byte.
std::uint64_t get(std::string_view b, std::size_t at, int width) {
  std::uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, b.data() + at, static_cast<std::size_t>(width));
    return v;
  }
  for (int i = 0; i < width; ++i) v |= std::uint64_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}
std::uint32_t u16(std::string_view b, std::size_t at) { return static_cast<std::uint32_t>(get(b, at, 2)); }
std::uint32_t u32(std::string_view b, std::size_t at) { return static_cast<std::uint32_t>(get(b, at, 4)); }

std::uint32_t tag_of(std::size_t kind, std::string_view name) {
  std::uint64_t h = XXH3_64bits_withSeed(name.data(), name.size(), kind);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::uint64_t def_hash(std::string_view path, std::string_view record) {
  return XXH3_64bits_withSeed(record.data(), record.size(), XXH3_64bits(path.data(), path.size()));
}

std::size_t slot_count(std::size_t keys) {
  std::size_t n = 16;
  while (n < 2 * keys) n *= 2;
  return n;
}

// One of the two tables while it is built: keys in order of first sight, and
// (key, definition) pairs in definition order.
struct TableBuild {
  struct Key {
    std::string_view name;
    std::uint32_t kind = 0;
  };
  std::vector<Key> keys;
  std::vector<detail::FlatNameMap<std::uint32_t>> by_kind;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;

  explicit TableBuild(std::size_t kinds) : by_kind(kinds) {}

  // The key of (kind, name), `def` listed under it.
  std::uint32_t add(std::uint32_t kind, std::string_view name, std::uint32_t def) {
    auto [at, fresh] = by_kind[kind].try_emplace(name);
    if (fresh) {
      at->second = static_cast<std::uint32_t>(keys.size());
      keys.push_back(Key{at->first, kind});
    }
    // A definition naming one thing twice is listed once.
    if (pairs.empty() || pairs.back() != std::pair{at->second, def}) pairs.emplace_back(at->second, def);
    return at->second;
  }

  // Where each key's list went in `lists`, once written: (offset, length).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> placed;

  // The list of (kind, name) once written, or (0, 0) when it has none.
  std::pair<std::uint32_t, std::uint32_t> list_of(std::uint32_t kind, std::string_view name) const {
    const std::uint32_t* k = by_kind[kind].find(name);
    return k ? placed[*k] : std::pair<std::uint32_t, std::uint32_t>{0, 0};
  }

  // Appends the keys to `meta` (their lists at `list_base` onwards of `lists`,
  // their names to `names`), and returns the slots. With `referrers` (the
  // reference table, written), each key also says where the list of the
  // definitions that refer to its name is.
  std::vector<std::uint32_t> write(std::string& meta, std::vector<std::uint32_t>& lists, std::string& names,
                                   const TableBuild* referrers = nullptr) {
    // Counting sort of the pairs by key; definition order is kept within each.
    std::vector<std::uint32_t> start(keys.size() + 1, 0);
    for (const auto& [k, d] : pairs) ++start[k + 1];
    for (std::size_t k = 0; k < keys.size(); ++k) start[k + 1] += start[k];
    std::size_t base = lists.size();
    lists.resize(base + pairs.size());
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    for (const auto& [k, d] : pairs) lists[base + next[k]++] = d;
    // Pairs of one key may repeat a definition that named it apart (a
    // reference between others): drop the repeats, keeping lists ascending.
    std::size_t out = base;
    std::vector<std::uint32_t> begin(keys.size()), len(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
      begin[k] = static_cast<std::uint32_t>(out);
      std::uint32_t last = kNoDef;
      for (std::size_t i = base + start[k]; i < base + start[k + 1]; ++i)
        if (lists[i] != last) lists[out++] = last = lists[i];
      len[k] = static_cast<std::uint32_t>(out - begin[k]);
    }
    lists.resize(out);
    placed.resize(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) placed[k] = {begin[k], len[k]};
    std::vector<std::uint32_t> slots(slot_count(keys.size()), 0);
    std::size_t mask = slots.size() - 1;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      put_u32(meta, names.size());
      put_u32(meta, keys[k].name.size());
      put_u32(meta, keys[k].kind);
      put_u32(meta, begin[k]);
      put_u32(meta, len[k]);
      if (referrers) {
        auto [off, n] = referrers->list_of(keys[k].kind, keys[k].name);
        put_u32(meta, off);
        put_u32(meta, n);
      }
      names.append(keys[k].name);
      std::size_t i = tag_of(keys[k].kind, keys[k].name) & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = static_cast<std::uint32_t>(k + 1);
    }
    return slots;
  }
  static constexpr std::uint32_t kNoDef = 0xffffffffu;
};

std::uint32_t kind_index(const KindPack& kinds, const Kind* k) {
  return static_cast<std::uint32_t>(k - kinds.kinds().data());
}

// The symbols' and references' tables of a base index, laid out for the file.
struct Tables {
  std::string names;
  std::vector<std::uint32_t> lists;
  std::string sym_keys, ref_keys;
  std::vector<std::uint32_t> sym_slots, ref_slots;
  std::size_t sym_count = 0, ref_count = 0;
  std::vector<std::uint32_t> def_keys;  // by definition: its name's symbol key + 1, or 0
  std::string paths;                    // every definition's path, in definition order
};

// The references first, so that each symbol key can say where its name's
// referrers are listed; each table's building state let go once written
// out: the first build of a base has the most in memory already.
Tables build_tables(const KindPack& kinds, const std::vector<BaseIndex::Entry>& entries) {
  const std::size_t kind_count = kinds.kinds().size();
  Tables t;
  TableBuild references(kind_count);
  for (std::size_t d = 0; d < entries.size(); ++d)
    entries[d].rec.for_each_ref([&](const RefView& r) {
      if (const Kind* k = kinds.by_name(r.target_kind))
        references.add(kind_index(kinds, k), r.name, static_cast<std::uint32_t>(d));
    });
  t.ref_slots = references.write(t.ref_keys, t.lists, t.names);
  t.ref_count = references.keys.size();
  {
    TableBuild symbols(kind_count);
    t.def_keys.assign(entries.size(), 0);
    for (std::size_t d = 0; d < entries.size(); ++d)
      if (entries[d].rec.has_name())
        t.def_keys[d] =
            symbols.add(kind_index(kinds, entries[d].kind), entries[d].rec.name(), static_cast<std::uint32_t>(d)) + 1;
    t.sym_slots = symbols.write(t.sym_keys, t.lists, t.names, &references);
    t.sym_count = symbols.keys.size();
  }
  for (const BaseIndex::Entry& v : entries) t.paths.append(v.path);
  return t;
}

// The file's header: its key and the sizes of what follows.
std::string index_head(const BaseIndex::Key& key, std::size_t kind_count, const std::vector<BaseIndex::Entry>& entries,
                       const Tables& t) {
  std::uint64_t blob = 0;
  std::size_t read = 0;
  for (const BaseIndex::Entry& v : entries) {
    blob += v.rec.bytes().size();
    if (!v.kind->never_read) ++read;
  }
  std::string head;
  head.append(kMagic);
  put_u32(head, BaseIndex::kFormatVersion);
  put_str(head, key.tool_version);
  put_str(head, key.kind_digest);
  put_str(head, key.base_commit);
  put_u64(head, key.size_cap);
  put_u32(head, kind_count);
  put_u32(head, entries.size());
  put_u32(head, read);
  put_u32(head, t.sym_count);
  put_u32(head, t.ref_count);
  put_u32(head, t.sym_slots.size());
  put_u32(head, t.ref_slots.size());
  put_u32(head, t.lists.size());
  put_u32(head, t.names.size());
  put_u64(head, t.paths.size());
  put_u64(head, blob);
  return head;
}

// The definitions' table, laid out as it is written.
void put_definitions(detail::CacheWriter& out, const KindPack& kinds, const std::vector<BaseIndex::Entry>& entries,
                     const std::vector<std::uint32_t>& def_keys) {
  std::uint64_t path_at = 0, record_at = 0;
  std::string def;
  for (std::size_t d = 0; d < entries.size(); ++d) {
    const BaseIndex::Entry& v = entries[d];
    std::string_view record = v.rec.bytes();
    def.clear();
    put_u32(def, path_at);
    put_u32(def, v.path.size());
    path_at += v.path.size();
    put_u32(def, record_at);
    put_u32(def, record.size());
    record_at += record.size();
    put_u16(def, kind_index(kinds, v.kind));
    put_u16(def, v.kind->never_read ? kNameOnlyFlag : 0);
    put_u32(def, def_keys[d]);
    put_u64(def, def_hash(v.path, record));
    out.put(def);
  }
}

}  // namespace

BaseIndex::BaseIndex(BaseIndex&& o) noexcept { *this = std::move(o); }

BaseIndex& BaseIndex::operator=(BaseIndex&& o) noexcept {
  if (this == &o) return *this;
  kinds_ = o.kinds_;
  mapped_ = std::move(o.mapped_);
  bytes_ = std::exchange(o.bytes_, {});
  defs_ = o.defs_;
  read_ = o.read_;
  def_at_ = o.def_at_;
  list_at_ = o.list_at_;
  list_len_ = o.list_len_;
  names_at_ = o.names_at_;
  names_len_ = o.names_len_;
  paths_at_ = o.paths_at_;
  paths_len_ = o.paths_len_;
  blob_at_ = o.blob_at_;
  blob_len_ = o.blob_len_;
  symbols_ = o.symbols_;
  references_ = o.references_;
  damaged_.store(o.damaged_.load());
  return *this;
}

Status BaseIndex::write(const std::string& file, const KindPack& kinds, const std::vector<Entry>& entries,
                        const Key& key) {
  Tables tables = build_tables(kinds, entries);
  std::string head = index_head(key, kinds.kinds().size(), entries, tables);
  return detail::replace_cache_file(file, "the base index", [&](int fd) {
    // Streamed: the index is never laid out whole in memory (42 MB at
    // 100,000 definitions, written by the first build of a base, which has
    // the most in memory already).
    detail::CacheWriter out(fd);
    out.put(head);
    put_definitions(out, kinds, entries, tables.def_keys);
    out.put(tables.sym_keys);
    out.put(tables.ref_keys);
    for (auto slot : tables.sym_slots) out.u32(slot);
    for (auto slot : tables.ref_slots) out.u32(slot);
    for (auto d : tables.lists) out.u32(d);
    out.put(tables.names);
    out.put(tables.paths);
    out.put_checksum();
    // The blob, from the definitions' own bytes.
    for (const Entry& v : entries) out.put(v.rec.bytes());
    return out.finish();
  });
}

bool BaseIndex::parse(std::string* why) {
  auto fail = [&](const char* reason) {
    *why = reason;
    return false;
  };
  Cursor c(bytes_);
  c.bytes(kMagic.size());
  c.u32();
  for (int i = 0; i < 3; ++i) c.bytes(c.u32());
  c.u64();
  c.u32();
  defs_ = c.u32();
  read_ = c.u32();
  symbols_.keys = c.u32();
  references_.keys = c.u32();
  symbols_.slots = c.u32();
  references_.slots = c.u32();
  list_len_ = c.u32();
  names_len_ = c.u32();
  std::uint64_t paths_len = c.u64();
  std::uint64_t blob_len = c.u64();
  if (!c.ok()) return fail("truncated");
  std::size_t at = bytes_.size() - c.remaining();
  auto pow2 = [](std::size_t n) { return n >= 16 && (n & (n - 1)) == 0; };
  if (!pow2(symbols_.slots) || !pow2(references_.slots) || symbols_.slots < 2 * symbols_.keys ||
      references_.slots < 2 * references_.keys || read_ > defs_ || paths_len >= (std::uint64_t(1) << 32))
    return fail("bad tables");
  // Every size is below 2^32, so these sums cannot overflow 64 bits.
  std::uint64_t meta = std::uint64_t(at) + std::uint64_t(defs_) * kDefSize +
                       std::uint64_t(symbols_.keys) * kSymbolKeySize + std::uint64_t(references_.keys) * kKeySize +
                       (std::uint64_t(symbols_.slots) + references_.slots + list_len_) * 4 + names_len_ + paths_len;
  if (meta + 8 > bytes_.size() || bytes_.size() - meta - 8 != blob_len) return fail("truncated");
  def_at_ = at;
  symbols_.key_at = def_at_ + defs_ * kDefSize;
  symbols_.key_size = kSymbolKeySize;
  references_.key_at = symbols_.key_at + symbols_.keys * kSymbolKeySize;
  symbols_.slot_at = references_.key_at + references_.keys * kKeySize;
  references_.slot_at = symbols_.slot_at + symbols_.slots * 4;
  list_at_ = references_.slot_at + references_.slots * 4;
  names_at_ = list_at_ + list_len_ * 4;
  paths_at_ = names_at_ + names_len_;
  paths_len_ = static_cast<std::size_t>(paths_len);
  blob_at_ = static_cast<std::size_t>(meta + 8);
  blob_len_ = static_cast<std::size_t>(blob_len);
  if (get(bytes_, static_cast<std::size_t>(meta), 8) != XXH3_64bits(bytes_.data(), static_cast<std::size_t>(meta)))
    return fail("bad checksum");
  return true;
}

BaseIndex::LoadResult BaseIndex::load(const std::string& file, const Key& key, const KindPack& kinds) {
  *this = BaseIndex();
  // Not populated: a build reads the tables and a few definitions of a
  // file that at 100,000 definitions is 42 MB.
  auto mapped = detail::map_cache_file(file, kMaxFileSize, /*populate=*/false);
  if (!mapped) return {LoadState::rejected, mapped.error().message};
  if (!mapped->has_value()) return {LoadState::missing, {}};
  mapped_ = std::make_shared<const detail::MappedFile>(std::move(**mapped));
  bytes_ = mapped_->bytes();
  kinds_ = &kinds;
  auto reject = [&](std::string why) {
    *this = BaseIndex();
    return LoadResult{LoadState::rejected, std::move(why)};
  };
  Cursor c(bytes_);
  if (c.bytes(kMagic.size()) != kMagic) return reject("not a base index");
  if (c.u32() != kFormatVersion) return reject("other index format");
  if (c.bytes(c.u32()) != key.tool_version) return reject("other tool version");
  if (c.bytes(c.u32()) != key.kind_digest) return reject("other kind pack");
  if (c.bytes(c.u32()) != key.base_commit) return reject("other base commit");
  if (c.u64() != key.size_cap) return reject("other size cap");
  if (c.u32() != kinds.kinds().size() || !c.ok()) return reject("other kind pack");
  std::string why;
  if (!parse(&why)) return reject(why);
  return {LoadState::loaded, {}};
}

std::optional<BaseIndex::Def> BaseIndex::def(std::size_t d) const {
  if (d >= defs_) {
    flag_damage();
    return std::nullopt;
  }
  std::size_t at = def_at_ + d * kDefSize;
  std::size_t rec_off = u32(bytes_, at + 8), rec_len = u32(bytes_, at + 12);
  std::size_t kind = u16(bytes_, at + 16);
  auto path = raw_path(d);
  if (!path || rec_off > blob_len_ || rec_len > blob_len_ - rec_off || kind >= kinds_->kinds().size()) {
    flag_damage();
    return std::nullopt;
  }
  Def out;
  out.path = *path;
  std::string_view record = bytes_.substr(blob_at_ + rec_off, rec_len);
  if (def_hash(out.path, record) != get(bytes_, at + 24, 8)) {
    flag_damage();
    return std::nullopt;
  }
  out.kind = &kinds_->kinds()[kind];
  out.rec = RecordView(record);
  out.name_only = (u16(bytes_, at + 18) & kNameOnlyFlag) != 0;
  return out;  // item numbers are one build's own: an index has none
}

std::optional<BaseDefinitions::Named> BaseIndex::named(std::size_t d) const {
  // Every byte read here is in the part of the file checked at load: the
  // entry, the path, the name's symbol key and its bytes.
  if (d >= defs_) {
    flag_damage();
    return std::nullopt;
  }
  const std::size_t at = def_at_ + d * kDefSize;
  const std::size_t kind = u16(bytes_, at + 16);
  const std::uint32_t key = u32(bytes_, at + 20);
  auto path = raw_path(d);
  auto name = key == 0 ? std::optional<std::string_view>(std::string_view()) : symbol_name(key - 1, kind);
  if (!path || !name || kind >= kinds_->kinds().size()) {
    flag_damage();
    return std::nullopt;
  }
  return Named{*path, &kinds_->kinds()[kind], key != 0, *name, key == 0 ? kNoNumber : key - 1};
}

std::optional<std::string_view> BaseIndex::symbol_name(std::size_t key, std::size_t kind) const {
  if (key >= symbols_.keys) return std::nullopt;
  const std::size_t at = symbols_.key_at + key * kSymbolKeySize;
  const std::size_t name_off = u32(bytes_, at), name_len = u32(bytes_, at + 4);
  if (name_off > names_len_ || name_len > names_len_ - name_off || u32(bytes_, at + 8) != kind) return std::nullopt;
  return bytes_.substr(names_at_ + name_off, name_len);
}

void BaseIndex::prefetch_named(std::size_t d, int stage) const {
  if (d >= defs_) return;
  const std::size_t at = def_at_ + d * kDefSize;
  if (stage == 0) {
    __builtin_prefetch(bytes_.data() + at);
    return;
  }
  // A hint only: a key out of range is fetched from nowhere.
  const std::uint32_t key = u32(bytes_, at + 20);
  if (key != 0 && key <= symbols_.keys) __builtin_prefetch(bytes_.data() + symbols_.key_at + (key - 1) * kSymbolKeySize);
}

std::optional<std::string_view> BaseIndex::raw_path(std::size_t d) const {
  std::size_t at = def_at_ + d * kDefSize;
  std::size_t off = u32(bytes_, at), len = u32(bytes_, at + 4);
  if (off > paths_len_ || len > paths_len_ - off) return std::nullopt;
  return bytes_.substr(paths_at_ + off, len);
}

std::optional<std::size_t> BaseIndex::find_path(std::string_view path) const {
  // Paths are in bytewise order. The bytes compared on the way are checked
  // only at the end, in def(): a damaged one can only make this miss, and a
  // miss reads the definition again.
  std::size_t lo = 0, hi = defs_;
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    auto raw = raw_path(mid);
    if (!raw) {
      flag_damage();
      return std::nullopt;
    }
    std::string_view p = *raw;
    if (p == path) {
      auto d = def(mid);
      if (!d || d->path != path) return std::nullopt;
      return mid;
    }
    if (p < path) lo = mid + 1;
    else hi = mid;
  }
  return std::nullopt;
}

template <class F>
void BaseIndex::lookup(const Table& t, std::size_t kind, std::string_view name, F&& f) const {
  if (auto key = find_key(t, kind, name, tag_of(kind, name))) each_listed(t.key_at + *key * t.key_size, f);
}

std::optional<std::size_t> BaseIndex::find_key(const Table& t, std::size_t kind, std::string_view name,
                                               std::uint32_t tag) const {
  if (t.keys == 0) return std::nullopt;
  std::size_t mask = t.slots - 1;
  for (std::size_t i = tag & mask, probes = 0; probes < t.slots; i = (i + 1) & mask, ++probes) {
    std::uint32_t slot = u32(bytes_, t.slot_at + i * 4);
    if (slot == 0) return std::nullopt;
    if (slot > t.keys) {
      flag_damage();
      return std::nullopt;
    }
    std::size_t at = t.key_at + (slot - 1) * t.key_size;
    std::size_t name_off = u32(bytes_, at), name_len = u32(bytes_, at + 4);
    if (name_off > names_len_ || name_len > names_len_ - name_off) {
      flag_damage();
      return std::nullopt;
    }
    if (u32(bytes_, at + 8) == kind && bytes_.substr(names_at_ + name_off, name_len) == name) return slot - 1;
  }
  return std::nullopt;
}

template <class F>
void BaseIndex::each_listed(std::size_t list_field, F&& f) const {
  std::size_t list_off = u32(bytes_, list_field + 12), list_len = u32(bytes_, list_field + 16);
  if (list_off > list_len_ || list_len > list_len_ - list_off) return flag_damage();
  for (std::size_t l = 0; l < list_len; ++l) {
    std::size_t d = u32(bytes_, list_at_ + (list_off + l) * 4);
    if (d >= defs_) return flag_damage();
    f(d);
  }
}

std::uint32_t BaseIndex::number_of(std::size_t kind, std::string_view name) const {
  auto key = find_key(symbols_, kind, name, tag_of(kind, name));
  return key ? static_cast<std::uint32_t>(*key) : kNoNumber;
}

// Stage 0 fetches the slot a tag leads to; stage 1, once that is in, the
// key it names; stage 2, the key's name and list. Hints only: nothing is
// checked or used here, and a slot or key out of range is not fetched.
void BaseIndex::prefetch_lookup(const Table& t, std::uint32_t tag, int stage) const {
  if (t.keys == 0) return;
  const std::size_t slot_at = t.slot_at + (tag & (t.slots - 1)) * 4;
  if (stage == 0) {
    __builtin_prefetch(bytes_.data() + slot_at);
    return;
  }
  std::uint32_t slot = u32(bytes_, slot_at);
  if (slot == 0 || slot > t.keys) return;
  const std::size_t at = t.key_at + (slot - 1) * t.key_size;
  if (stage == 1) {
    __builtin_prefetch(bytes_.data() + at);
    return;
  }
  std::size_t name_off = u32(bytes_, at), list_off = u32(bytes_, at + 12);
  if (name_off < names_len_) __builtin_prefetch(bytes_.data() + names_at_ + name_off);
  if (list_off < list_len_) __builtin_prefetch(bytes_.data() + list_at_ + list_off * 4);
}

// A numbered name's referrers are listed in its symbol key: the key, then
// the list, are fetched ahead. A name without a number is looked up in the
// reference table by its bytes, its slot, key, and list fetched ahead in
// stages.
void BaseIndex::append_referrers_of(const std::vector<WalkName>& names, std::vector<std::size_t>& out,
                                    std::vector<std::size_t>& ends) const {
  auto numbered = [&](const WalkName& n) { return n.number < symbols_.keys; };
  // A symbol key's referrers' list: the fields at +20 and +24, read as a
  // reference key's list at +12 and +16.
  auto referrers_field = [&](const WalkName& n) { return symbols_.key_at + n.number * kSymbolKeySize + 8; };
  std::vector<std::uint32_t> tags(names.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!numbered(names[i])) tags[i] = tag_of(names[i].kind, names[i].name);
  constexpr std::size_t kAhead = 12;
  const std::size_t n = names.size();
  auto prefetch = [&](std::size_t i, int stage) {
    if (!numbered(names[i])) return prefetch_lookup(references_, tags[i], stage);
    if (stage == 0) return;
    if (stage == 1) return __builtin_prefetch(bytes_.data() + referrers_field(names[i]) + 12);
    std::size_t list_off = u32(bytes_, referrers_field(names[i]) + 12);
    if (list_off < list_len_) __builtin_prefetch(bytes_.data() + list_at_ + list_off * 4);
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) prefetch(i + kAhead, 0);
    if (i + 2 * kAhead / 3 < n) prefetch(i + 2 * kAhead / 3, 1);
    if (i + kAhead / 3 < n) prefetch(i + kAhead / 3, 2);
    auto push = [&](std::size_t d) { out.push_back(d); };
    if (numbered(names[i])) {
      each_listed(referrers_field(names[i]), push);
    } else if (names[i].number == kNoNumber) {
      if (auto key = find_key(references_, names[i].kind, names[i].name, tags[i]))
        each_listed(references_.key_at + *key * references_.key_size, push);
    } else {
      flag_damage();  // a number this index never gave
    }
    ends.push_back(out.size());
  }
}

void BaseIndex::owners(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const {
  lookup(symbols_, kind, name, f);
}

void BaseIndex::referrers(std::size_t kind, std::string_view name, const std::function<void(std::size_t)>& f) const {
  lookup(references_, kind, name, f);
}

void BaseIndex::names(std::size_t kind, const std::function<void(std::string_view)>& f) const {
  for (std::size_t k = 0; k < symbols_.keys; ++k) {
    std::size_t at = symbols_.key_at + k * kSymbolKeySize;
    if (u32(bytes_, at + 8) != kind) continue;
    std::size_t name_off = u32(bytes_, at), name_len = u32(bytes_, at + 4);
    if (name_off > names_len_ || name_len > names_len_ - name_off) return flag_damage();
    f(bytes_.substr(names_at_ + name_off, name_len));
  }
}

void BaseIndex::shared_names(const std::function<void(std::size_t kind, std::string_view name)>& f) const {
  for (std::size_t k = 0; k < symbols_.keys; ++k) {
    std::size_t at = symbols_.key_at + k * kSymbolKeySize;
    if (u32(bytes_, at + 16) < 2) continue;
    std::size_t name_off = u32(bytes_, at), name_len = u32(bytes_, at + 4);
    if (name_off > names_len_ || name_len > names_len_ - name_off) return flag_damage();
    f(u32(bytes_, at + 8), bytes_.substr(names_at_ + name_off, name_len));
  }
}

std::string base_index_file(const std::string& common_dir, std::string_view base_commit) {
  std::string dir = common_dir;
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir + "ws/cache/bases/" + std::string(base_commit);
}

void prune_base_indexes(const std::string& file, std::size_t keep) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  for (const auto& e : fs::directory_iterator(fs::path(file).parent_path(), ec)) {
    std::error_code st;
    if (!e.is_regular_file(st)) continue;
    // Temporary files of a writer still at work are its own business.
    if (e.path().filename().string().find('.') != std::string::npos) continue;
    found.emplace_back(e.last_write_time(st), e.path());
  }
  if (found.size() <= keep) return;
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = keep; i < found.size(); ++i) fs::remove(found[i].second, ec);
}

}  // namespace ws::compile_detail
