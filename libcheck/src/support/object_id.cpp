#include "libcheck/object_id.h"

namespace ws {

ObjectId ObjectId::from_hex(std::string_view hex) {
  if (hex.size() != 2 * kSize) return {};
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  ObjectId id;
  for (std::size_t i = 0; i < kSize; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if ((hi | lo) < 0) return {};
    id.bytes_[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  id.set_ = true;
  return id;
}

std::array<char, 2 * ObjectId::kSize> ObjectId::hex_digits() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::array<char, 2 * kSize> out;
  for (std::size_t i = 0; i < kSize; ++i) {
    out[2 * i] = kHex[bytes_[i] >> 4];
    out[2 * i + 1] = kHex[bytes_[i] & 0xf];
  }
  return out;
}

std::string ObjectId::hex() const {
  if (!set_) return {};
  auto digits = hex_digits();
  return std::string(digits.data(), digits.size());
}

}  // namespace ws
