// Secrets under any name (ws(7), the secret kind): content under '.secrets/'
// is never opened, and neither are a secret's bytes under another path. A
// blob whose id is the id of a secret is a secret wherever it sits, so a
// change cannot read one by staging its id at a routed path.
//
// Which paths are secrets is path_policy.h's is_secret_path; which blob ids
// are is the set below, gathered from what a view knows without reading a
// secret (trees and the index, never a hash of a working-tree secret).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libcheck/object_id.h"

namespace ws {

class View;
struct ViewEntry;
struct Kind;

// The blob ids of a view's secrets, each with its size where known. The
// sizes let a working-tree file's bytes, which have no id until hashed, be
// checked at the cost of one lookup: only bytes of a secret's size are
// hashed (holds_bytes).
class SecretBlobs {
 public:
  // `hex_id`: a blob id as 40 hex digits; anything else is ignored. The
  // size is learnt later (measure) unless given.
  void insert(std::string_view hex_id, std::optional<std::uint64_t> size = std::nullopt) {
    insert(ObjectId::from_hex(hex_id), size);
  }
  // No id (empty) is ignored.
  void insert(const ObjectId& id, std::optional<std::uint64_t> size = std::nullopt);
  void insert_all(const SecretBlobs& other);
  // A hash lookup, skipped when the set is empty (a workspace without
  // secrets pays nothing).
  bool contains(const ObjectId& id) const {
    if (ids_.empty() || id.empty()) return false;
    const unsigned bit = filter_bit(id);
    return (filter_[bit >> 6] >> (bit & 63) & 1) != 0 && ids_.find(id) != ids_.end();
  }
  bool contains(std::string_view hex_id) const { return !ids_.empty() && contains(ObjectId::from_hex(hex_id)); }
  bool empty() const { return ids_.empty(); }
  std::size_t size() const { return ids_.size(); }

  // Gives each id of unknown size the size `size_of(id)` returns (nullopt:
  // still unknown). `size_of` must learn it without reading the content:
  // an object header, never an inflated secret.
  void measure(const std::function<std::optional<std::uint64_t>(std::string_view)>& size_of);
  // True when every id's size is known: holds_bytes then hashes only bytes
  // of a secret's size. While one is unknown it hashes any bytes (safe, and
  // slow; no view a tool opens over a working tree leaves one unknown).
  bool all_sized() const { return unsized_ == 0; }

  // Whether `bytes` are a secret's: hashed as a git blob only when their
  // size is one of the secrets' sizes, so bytes of any other size cost one
  // lookup in a set of a few numbers.
  bool holds_bytes(std::string_view bytes) const;

 private:
  // Blob ids are uniformly distributed: their first 8 bytes hash as well
  // as all 20, mixed by one multiplication rather than a byte-wise hash,
  // for the lookups a listing makes per file.
  struct Hash {
    std::size_t operator()(const ObjectId& id) const {
      std::uint64_t a;
      std::memcpy(&a, id.data(), 8);
      std::uint64_t h = a * 0xBF58476D1CE4E5B9ull;
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  void add_size(std::uint64_t size);
  // A bit per value of an id's first 12 bits, set for every id held: most
  // ids a listing asks about are no secret's, and a clear bit says so with
  // one load, not a hash lookup (a workspace with 60 secrets sets under 2 %).
  static unsigned filter_bit(const ObjectId& id) { return (unsigned(id.data()[0]) << 4) | (id.data()[1] >> 4); }
  std::array<std::uint64_t, 64> filter_{};

  std::unordered_map<ObjectId, std::optional<std::uint64_t>, Hash> ids_;
  std::vector<std::uint64_t> sizes_;  // sorted, distinct: a handful
  std::size_t unsized_ = 0;           // ids whose size is not known
};

// The one message for a path whose bytes are a secret's: it names the path
// and says that it holds a secret's bytes, and never which secret, its id,
// its size or its content. Saying so reveals nothing the repository does not
// already show anyone who can read it (`git ls-tree` lists the secrets' blob
// ids), and it is the only way to tell the user what to fix. E.g.
// "refused path 'skills/x.md': secret (it holds the bytes of a secret, and a
// secret's content is never opened or shown under any path); remove the
// file or give it other content"
std::string secret_bytes_refusal(std::string_view path);

// Whether the view's bytes of `e`, routed to `kind` (may be null), are
// never read: a secret's (View::is_secret), or a file of a kind that is
// never read (the secret kind, or a workspace's own kind its base keeps
// never read). What a tool lists, searches or parses asks this.
bool never_read(const View& view, const ViewEntry& e, const Kind* kind);

}  // namespace ws
