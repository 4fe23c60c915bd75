// A git object id held as its 20 bytes, or none. A view holds two per
// entry: as 40-digit hex strings they were two heap allocations and two hex
// conversions per file of every listing, though only the few places that
// print an id need its hex.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace ws {

class ObjectId {
 public:
  static constexpr std::size_t kSize = 20;

  ObjectId() = default;
  // The 20 bytes at `raw` (an index entry's, a git_oid's).
  static ObjectId from_raw(const unsigned char* raw) {
    ObjectId id;
    std::memcpy(id.bytes_.data(), raw, kSize);
    id.set_ = true;
    return id;
  }
  // 40 hex digits, either case; anything else gives no id.
  static ObjectId from_hex(std::string_view hex);

  bool empty() const { return !set_; }
  void clear() { *this = ObjectId(); }
  const unsigned char* data() const { return bytes_.data(); }
  // 40 lower-case hex digits, as git prints the id; "" for no id.
  std::string hex() const;
  // The same digits without an allocation, for a lookup keyed by them (all
  // '0' for no id).
  std::array<char, 2 * kSize> hex_digits() const;

  friend bool operator==(const ObjectId& a, const ObjectId& b) { return a.set_ == b.set_ && a.bytes_ == b.bytes_; }
  friend bool operator!=(const ObjectId& a, const ObjectId& b) { return !(a == b); }
  // No id first, then bytewise: the order of the hex digits.
  friend bool operator<(const ObjectId& a, const ObjectId& b) {
    return a.set_ != b.set_ ? !a.set_ : a.bytes_ < b.bytes_;
  }

 private:
  std::array<unsigned char, kSize> bytes_{};
  bool set_ = false;
};

}  // namespace ws
