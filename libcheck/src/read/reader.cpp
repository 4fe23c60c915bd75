// read_definition: the encoding check every format shares, then the reader
// of the kind's format. Secrets are never opened: only their file name counts.
#include "libcheck/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "definition_build.h"
#include "readers.h"
#include "suppression_read.h"

namespace ws {

namespace {

// The length of the UTF-8 sequence at bytes[i], or 0 when it is not valid
// UTF-8 (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view bytes, std::size_t i) {
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > bytes.size()) return 0;
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  return n;
}

// Past the 8-byte words from `i` on that hold only ASCII bytes other than
// NUL, which need no check one by one: most of every file.
std::size_t skip_plain_ascii(std::string_view bytes, std::size_t i) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  while (i + 8 <= bytes.size()) {
    std::uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    bool non_ascii = (w & kHighs) != 0;
    bool has_nul = ((w - kOnes) & ~w & kHighs) != 0;
    if (non_ascii || has_nul) break;
    i += 8;
  }
  return i;
}

}  // namespace

Position position_at(std::string_view bytes, std::uint32_t offset) {
  Position pos;
  std::size_t end = std::min<std::size_t>(offset, bytes.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (bytes[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

bool check_encoding(std::string_view path, std::string_view bytes, std::vector<Diagnostic>& out) {
  for (std::size_t i = 0; i < bytes.size();) {
    i = skip_plain_ascii(bytes, i);
    if (i == bytes.size()) break;
    if (bytes[i] == '\0') {
      auto at = static_cast<std::uint32_t>(i);
      out.push_back(make_diag(DiagCode::bad_encoding, std::string(path),
                              Span{at, at + 1, position_at(bytes, at), position_at(bytes, at + 1)},
                              "NUL byte: definitions are UTF-8 text"));
      return false;
    }
    std::size_t n = utf8_length(bytes, i);
    if (n == 0) {
      auto at = static_cast<std::uint32_t>(i);
      out.push_back(make_diag(DiagCode::bad_encoding, std::string(path),
                              Span{at, at + 1, position_at(bytes, at), position_at(bytes, at + 1)},
                              fmt::format("invalid UTF-8 (byte 0x{:02x}): definitions are UTF-8 text",
                                          static_cast<unsigned char>(bytes[i]))));
      return false;
    }
    i += n;
  }
  return true;
}

Definition read_definition(const Kind& kind, std::string_view path, std::string_view bytes, const KindPack& pack) {
  Definition def;
  def.path = std::string(path);
  def.kind = kind.name;
  std::string_view file = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);

  // Secrets: the bytes are never looked at, not even for their encoding.
  if (kind.format == Format::opaque || kind.never_read) {
    detail::take_name(kind, file, Span{}, true, def);
    return def;
  }
  if (bytes.size() >= std::numeric_limits<std::uint32_t>::max()) {
    def.diagnostics.push_back(make_file_diag(DiagCode::file_too_large, def.path, "the file is too large to read"));
    return def;
  }
  if (!check_encoding(path, bytes, def.diagnostics)) return def;

  // A UTF-8 byte order mark is accepted and skipped; positions stay byte
  // positions in the file, so text after a BOM on line 1 starts at column 4.
  auto begin = static_cast<std::uint32_t>(bom_length(bytes));
  switch (kind.format) {
    case Format::json: detail::read_json(kind, bytes, begin, def); break;
    case Format::markdown: detail::read_markdown(kind, bytes, begin, def); break;
    case Format::csharp: detail::read_csharp(kind, bytes, begin, pack, def); break;
    case Format::opaque: break;
  }
  if (kind.format == Format::csharp) detail::read_code_suppressions(bytes, begin, def);
  std::stable_sort(def.diagnostics.begin(), def.diagnostics.end(), diag_less);
  return def;
}

}  // namespace ws
