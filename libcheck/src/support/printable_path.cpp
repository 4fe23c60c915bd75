#include "printable_path.h"

#include <algorithm>
#include <cstddef>

namespace ws::detail {

std::string printable_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(path.size());
  auto escape_byte = [&](unsigned char b) {
    switch (b) {
      case '\n': out += "\\n"; return;
      case '\t': out += "\\t"; return;
      case '\r': out += "\\r"; return;
      default:
        out += "\\x";
        out += kHex[b >> 4];
        out += kHex[b & 0xf];
    }
  };
  size_t i = 0;
  while (i < path.size()) {
    unsigned char b = static_cast<unsigned char>(path[i]);
    if (b < 0x80) {
      if (b < 0x20 || b == 0x7f)
        escape_byte(b);
      else
        out += static_cast<char>(b);
      ++i;
      continue;
    }
    // Decode one UTF-8 sequence; anything malformed is escaped byte by byte.
    size_t len = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
    if (b >= 0xf5) len = 0;
    char32_t cp = len == 2 ? (b & 0x1f) : len == 3 ? (b & 0x0f) : (b & 0x07);
    bool ok = len != 0 && i + len <= path.size();
    for (size_t k = 1; ok && k < len; ++k) {
      unsigned char c = static_cast<unsigned char>(path[i + k]);
      if ((c & 0xc0) != 0x80) ok = false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (ok) {
      bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
      bool invalid = overlong || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff;
      // C1 controls can act as terminal escapes; U+2028/9 break lines in
      // some viewers. Neither belongs in a one-line message.
      bool control = (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029;
      ok = !invalid && !control;
    }
    if (!ok) {
      // Escape the whole sequence when it decoded to a control, else only the
      // lead byte, so the next byte is looked at afresh.
      size_t n = (len != 0 && i + len <= path.size() && std::all_of(path.begin() + i + 1, path.begin() + i + len,
                                                                    [](char c) { return (c & 0xc0) == 0x80; }))
                     ? len
                     : 1;
      for (size_t k = 0; k < n; ++k) escape_byte(static_cast<unsigned char>(path[i + k]));
      i += n;
      continue;
    }
    out.append(path.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace ws::detail
